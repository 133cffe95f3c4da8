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
 */
public record WriteOptions(
    ModelFormat format, long maxShardBytes, boolean shardedSdz, boolean deflate, boolean dropMetadata) {
  /** DL4J's default shard limit (1 GiB). */
  public static final long DEFAULT_MAX_SHARD_BYTES = 1L << 30;


  /** Defaults for {@code format}: 1 GiB shards, single STORED SDZ entry, keep metadata. */
  public static WriteOptions of(ModelFormat format) {
    return new WriteOptions(format, DEFAULT_MAX_SHARD_BYTES, false, false, false);
  }

  public WriteOptions withMaxShardBytes(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("max shard bytes must be positive: " + bytes);
    }
    return new WriteOptions(format, bytes, true, deflate, dropMetadata);
  }

  public WriteOptions withDeflate(boolean d) {
    return new WriteOptions(format, maxShardBytes, shardedSdz, d, dropMetadata);
  }

  public WriteOptions withDropMetadata(boolean d) {
    return new WriteOptions(format, maxShardBytes, shardedSdz, deflate, d);
  }
}
