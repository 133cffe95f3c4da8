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
 */
public record ShardLayout(List<Set<String>> weightShards) {
  public ShardLayout {
    List<Set<String>> copy = new ArrayList<>();
    for (Set<String> s : weightShards) {
      copy.add(Set.copyOf(s));
    }
    weightShards = List.copyOf(copy);
  }

  /** The number of files of the set (the graph shard and the weight shards). */
  public int files() {
    return weightShards.size() + 1;
  }
}
