package org.modelfs.provider;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import org.modelfs.format.EnvOptions;
import org.modelfs.model.ModelFormat;

/**
 * The {@code env} map of {@code newFileSystem} (docs/FILESYSTEM.md §6.1), checked: unknown keys and bad
 * values are refused with {@link IllegalArgumentException} naming the key.
 *
 * @param create make a new empty model
 * @param format the format the next commit writes, or {@code null} for the detected one
 * @param readOnly mount without writes
 * @param deflate SDZ entries DEFLATED instead of STORED
 * @param maxShardBytes largest shard of a sharded SDNB, or 0 for the default
 * @param commitOnClose commit pending changes when the file system is closed
 * @param progress told now and then how many bytes a commit has written, or {@code null}
 * @param storedOrder {@code byteOrder=stored}: the files of big-endian arrays (fb, legacy) show
 *     their stored bytes unchanged, and {@code map()} of them maps the container's own pages
 */
record MountOptions(
    boolean create, ModelFormat format, boolean readOnly, boolean deflate, long maxShardBytes,
    boolean commitOnClose, LongConsumer progress, boolean storedOrder) {

  static final String CREATE = "create";
  static final String FORMAT = "format";
  static final String READ_ONLY = "readOnly";
  static final String COMPRESSION = "compression";
  static final String MAX_SHARD_BYTES = "maxShardBytes";
  static final String COMMIT_ON_CLOSE = "commitOnClose";
  static final String PROGRESS = "progress";
  static final String BYTE_ORDER = "byteOrder";
  private static final Set<String> KEYS =
      Set.of(CREATE, FORMAT, READ_ONLY, COMPRESSION, MAX_SHARD_BYTES, COMMIT_ON_CLOSE, PROGRESS, BYTE_ORDER);

  static MountOptions parse(Map<String, ?> env) {
    if (env == null) {
      env = Map.of();
    }
    for (String key : env.keySet()) {
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("unknown samediff file system option '" + key
            + "'; known options: create, format, readOnly, compression, maxShardBytes, commitOnClose, progress, byteOrder");
      }
    }
    boolean create = EnvOptions.bool(env, CREATE, false);
    boolean readOnly = EnvOptions.bool(env, READ_ONLY, false);
    if (create && readOnly) {
      throw new IllegalArgumentException("options create=true and readOnly=true contradict each other");
    }
    ModelFormat format = EnvOptions.format(env, FORMAT);
    boolean deflate = EnvOptions.deflate(env, COMPRESSION);
    long maxShard = EnvOptions.positiveBytes(env, MAX_SHARD_BYTES);
    Object pr = env.get(PROGRESS);
    if (pr != null && !(pr instanceof LongConsumer)) {
      throw new IllegalArgumentException("option progress: a java.util.function.LongConsumer (told the bytes a commit"
          + " has written), not " + pr.getClass().getName());
    }
    boolean stored = false;
    Object bo = env.get(BYTE_ORDER);
    if (bo != null) {
      String s = bo.toString().trim().toLowerCase(Locale.ROOT);
      if (!s.equals("little") && !s.equals("stored")) {
        throw new IllegalArgumentException("option byteOrder: '" + bo + "'; expected little (array files show"
            + " little-endian bytes) or stored (files of big-endian arrays show their stored bytes)");
      }
      stored = s.equals("stored");
    }
    return new MountOptions(create, format, readOnly, deflate, maxShard, EnvOptions.bool(env, COMMIT_ON_CLOSE, true),
        (LongConsumer) pr, stored);
  }
}
