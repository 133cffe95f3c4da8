package org.modelfs.format;

import org.modelfs.model.ModelFormat;

/**
 * How to write a model: the target format, the shard size limit, zip compression, and whether
 * metadata that the target cannot hold may be dropped.
 *
 * @param format the target format
 * @param maxShardBytes shard size limit for {@link ModelFormat#SHARDED_SDNB} (and sharded SDZ)
 * @param shardedSdz write an SDZ's model as shards instead of one {@code model.sdnb}
 * @param deflate DEFLATED zip entries instead of STORED
 * @param dropMetadata allow writing {@code fb}, which has no metadata, from a model that has some
 * @param level the DEFLATE level 1–9 when {@code deflate}, or {@code -1} for the default (6)
 */
public record WriteOptions(
    ModelFormat format, long maxShardBytes, boolean shardedSdz, boolean deflate, boolean dropMetadata, int level) {
  /** DL4J's default shard limit (1 GiB). */
  public static final long DEFAULT_MAX_SHARD_BYTES = 1L << 30;


  /** Defaults for {@code format}: 1 GiB shards, single STORED SDZ entry, keep metadata. */
  public static WriteOptions of(ModelFormat format) {
    return new WriteOptions(format, DEFAULT_MAX_SHARD_BYTES, false, false, false, -1);
  }

  public WriteOptions withMaxShardBytes(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("max shard bytes must be positive: " + bytes);
    }
    return new WriteOptions(format, bytes, true, deflate, dropMetadata, level);
  }

  public WriteOptions withDeflate(boolean d) {
    return new WriteOptions(format, maxShardBytes, shardedSdz, d, dropMetadata, level);
  }

  public WriteOptions withDropMetadata(boolean d) {
    return new WriteOptions(format, maxShardBytes, shardedSdz, deflate, d, level);
  }

  /** These options with DEFLATE at {@code l} (1–9, or -1 for the default). */
  public WriteOptions withLevel(int l) {
    if (l != -1 && (l < 1 || l > 9)) {
      throw new IllegalArgumentException("deflate level must be 1 to 9: " + l);
    }
    return new WriteOptions(format, maxShardBytes, shardedSdz, deflate, dropMetadata, l);
  }

  /** The level a container writer uses: 0 to store, else the DEFLATE level ({@code -1} = 6). */
  public int containerLevel() {
    return deflate ? level : 0;
  }
}
