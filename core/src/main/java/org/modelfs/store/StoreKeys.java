package org.modelfs.store;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.modelfs.format.sdnb.ShardNames;

/**
 * Every key ModelFS makes beside a model in an object store, and how it recognises its own (the
 * object-store counterpart of {@link SidecarNames}, shared by the s3 and azure modules; exact matching, never by prefix alone):
 * a shard set's generation {@code <name>.modelfs-g<32 hex>/}, holding DL4J-named shards
 * {@code <base>.shard<k>-of-<N>.sdnb}. {@code <name>} is the model's own object name
 * ({@code m.sdnb}); a plain DL4J shard set beside it is {@code <base>.shard<k>-of-<N>.sdnb}.
 */
public final class StoreKeys {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern HEX32 = Pattern.compile("[0-9a-f]{32}");
  private static final String GENERATION = ".modelfs-g";

  private StoreKeys() {}

  /** A new generation directory name for the model object {@code name}: {@code <name>.modelfs-g<32 hex>}. */
  public static String newGeneration(String name) {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return name + GENERATION + HexFormat.of().formatHex(b);
  }

  /** The prefix every generation directory of {@code name} starts with (for listing; matched exactly after). */
  public static String generationPrefix(String name) {
    return name + GENERATION;
  }

  /** Whether {@code segment} is a generation directory name of the model object {@code name}. */
  public static boolean isGeneration(String name, String segment) {
    String p = name + GENERATION;
    return segment.length() == p.length() + 32 && segment.startsWith(p) && HEX32.matcher(segment.substring(
        p.length())).matches();
  }

  /**
   * Whether {@code relative} (a key relative to the model's directory) is a shard of a generation
   * of {@code name}: {@code <generation>/<base>.shard<k>-of-<N>.sdnb} with the model's base, spelt
   * exactly as ModelFS writes it ({@link ShardNames#name}: no leading zeros, {@code k < N}) —
   * {@code m.shard00-of-2.sdnb} in a generation directory is someone else's object.
   */
  public static boolean isGenerationShard(String name, String relative) {
    int slash = relative.indexOf('/');
    if (slash < 0 || !isGeneration(name, relative.substring(0, slash))) {
      return false;
    }
    String file = relative.substring(slash + 1);
    ShardNames.Shard s = ShardNames.parse(file);
    return s != null && s.base().equals(ShardNames.base(name)) && s.index() < s.count()
        && ShardNames.name(s.base(), s.index(), s.count()).equals(file);
  }

  /** The generation directory of a generation shard's relative key. */
  public static String generationOf(String relative) {
    return relative.substring(0, relative.indexOf('/'));
  }
}
