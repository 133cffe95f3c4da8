package org.modelfs.dl4j;

import org.modelfs.format.Codecs;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.EnvOptions;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;

/**
 * The {@code env} of {@link SameDiffFiles#save} and {@link SameDiffFiles#load}, checked: unknown
 * keys and bad values are refused with {@link IllegalArgumentException} naming the key. The
 * writing keys are a mount's ({@code format}, {@code maxShardBytes}, {@code compression},
 * docs/FILESYSTEM.md §6.1); {@code updaterState} and {@code trainingConfig} ({@code false}: leave
 * out) and {@code tag} (which tag to load) are the bridge's own.
 *
 * @param write how to write (format from {@code format}, else from the target's name)
 * @param updaterState save / restore the updater state
 * @param trainingConfig save / restore the training configuration
 * @param tag the tag to load, or {@code null} for the newest
 */
record BridgeOptions(WriteOptions write, boolean updaterState, boolean trainingConfig, String tag) {

  static final String FORMAT = "format";
  static final String MAX_SHARD_BYTES = "maxShardBytes";
  static final String COMPRESSION = "compression";
  static final String UPDATER_STATE = "updaterState";
  static final String TRAINING_CONFIG = "trainingConfig";
  static final String TAG = "tag";
  private static final Set<String> SAVE_KEYS =
      Set.of(FORMAT, MAX_SHARD_BYTES, COMPRESSION, UPDATER_STATE, TRAINING_CONFIG);
  private static final Set<String> LOAD_KEYS = Set.of(UPDATER_STATE, TRAINING_CONFIG, TAG);

  /** The options of a save of {@code target}. */
  static BridgeOptions forSave(Path target, Map<String, ?> env) {
    env = known(env, SAVE_KEYS);
    ModelFormat format = EnvOptions.format(env, FORMAT);
    if (format == null) {
      Path name = target.getFileName();
      format = name == null ? null : Codecs.fromFileName(name.toString());
      if (format == null) {
        throw new IllegalArgumentException(target + ": no option format, and the name does not end in "
            + Codecs.extensions());
      }
    }
    WriteOptions w = WriteOptions.of(format);
    long max = EnvOptions.positiveBytes(env, MAX_SHARD_BYTES);
    if (max > 0) {
      w = w.withMaxShardBytes(max);
    }
    w = w.withDeflate(EnvOptions.deflate(env, COMPRESSION));
    return new BridgeOptions(w, bool(env, UPDATER_STATE), bool(env, TRAINING_CONFIG), null);
  }

  /** The options of a load. */
  static BridgeOptions forLoad(Map<String, ?> env) {
    env = known(env, LOAD_KEYS);
    Object t = env.get(TAG);
    return new BridgeOptions(null, bool(env, UPDATER_STATE), bool(env, TRAINING_CONFIG),
        t == null ? null : t.toString());
  }

  private static Map<String, ?> known(Map<String, ?> env, Set<String> keys) {
    if (env == null) {
      return Map.of();
    }
    for (String key : env.keySet()) {
      if (!keys.contains(key)) {
        throw new IllegalArgumentException("unknown option '" + key + "'; known options: "
            + String.join(", ", keys.stream().sorted().toList()));
      }
    }
    return env;
  }

  private static boolean bool(Map<String, ?> env, String key) {
    return EnvOptions.bool(env, key, true);
  }
}
