package org.modelfs.format;

import java.util.List;
import java.util.Set;

/**
 * The weight shards' names of a shard set a commit writes (shard k at k − 1) and which of them
 * are kept as the mount read them (decided by {@code container.ShardReuse}).
 *
 * @param sets the names each weight shard holds
 * @param kept {@code kept[k - 1]}: shard k stays as it is
 */
public record ShardPacking(List<Set<String>> sets, boolean[] kept) {
  /** Whether any weight shard is kept. */
  public boolean keepsAny() {
    for (boolean k : kept) {
      if (k) {
        return true;
      }
    }
    return false;
  }
}
