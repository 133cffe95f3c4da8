package org.modelfs.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which names each weight shard of a shard set holds, as the files were read: entry k − 1 is
 * shard k's set of variable names (for their arrays) and parameter names (for their updater
 * state). Shard 0 holds the graph and no arrays. A commit of a mounted shard set starts from this
 * packing, so that a shard whose contents did not change is kept as it is
 * ({@code container.ShardReuse}).
 *
 * @param weightShards the names of shards 1 … N−1, in order
 * @param stored for a shard set inside a zip (a sharded SDZ), where each shard 0 … N−1 is, as it
 *     is stored, so that a commit can copy an unchanged one without inflating it; else empty
 */
public record ShardLayout(List<Set<String>> weightShards, List<Stored> stored) {
  public ShardLayout {
    List<Set<String>> copy = new ArrayList<>();
    for (Set<String> s : weightShards) {
      copy.add(Set.copyOf(s));
    }
    weightShards = List.copyOf(copy);
    stored = List.copyOf(stored);
  }

  /** The layout of a shard set of files of their own. */
  public ShardLayout(List<Set<String>> weightShards) {
    this(weightShards, List.of());
  }

  /**
   * One shard as it is stored in a zip entry: {@code length} bytes at {@code offset} of
   * {@code file}, deflated or not, {@code size} bytes and CRC-32 {@code crc} once inflated;
   * {@code content} reads those {@code size} bytes (inflating where needed).
   */
  public record Stored(org.modelfs.io.ByteSource file, long offset, long length, boolean deflated, long size, long crc,
      org.modelfs.io.ByteSource content) {}

  /** The number of files of the set (the graph shard and the weight shards). */
  public int files() {
    return weightShards.size() + 1;
  }
}
