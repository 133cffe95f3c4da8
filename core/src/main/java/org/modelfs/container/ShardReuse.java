package org.modelfs.container;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.modelfs.format.Codecs;
import org.modelfs.format.ShardPacking;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.ShardedFormat;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.ShardLayout;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * How a commit of a mounted shard set — sharded SDNB, sharded container, or the shard entries of
 * a sharded SDZ — keeps the weight shards it did not change (docs/FILESYSTEM.md §7.4): the new packing starts from the one read ({@link ShardLayout}) —
 * deleted names leave their shard, new ones join a shard that is rewritten anyway, else the
 * smallest one with room — and a weight shard whose names, variables, arrays and updater state
 * are exactly those read from it (the same {@link ArrayData}: the same bytes of the same open
 * file) is kept as it is, neither copied nor renamed. The graph shard is always written.
 *
 * <p>When the read packing cannot hold the new tags — a shard would pass the size limit with
 * more than one name, a shard would be empty, a name is in two shards, the format or the tags
 * differ — there is no reuse and the model is packed afresh ({@link ShardedFormat#plan}).
 */
final class ShardReuse {
  private ShardReuse() {}

  /**
   * The packing of {@code tags} that keeps what it can of {@code previous}' shards, or
   * {@code null} when nothing can be kept (the caller packs afresh).
   *
   * @param previous the model the mount read (its files are still the stored ones: the store
   *     checks the generation before it installs anything)
   * @param limitGiven whether {@code options}' shard limit was asked for (the mount's
   *     {@code maxShardBytes}); if not, the limit is the larger of the default and the largest
   *     shard read, so that a set packed with a larger limit keeps its packing
   */
  static ShardPacking of(Model previous, List<Tag> tags, WriteOptions options, boolean limitGiven) {
    ModelFormat format = options.format();
    if (previous == null || previous.shards() == null || previous.shards().graphHoldsArrays()
        || !previous.format().equals(format) || !Codecs.of(format).writesShards(options)) {
      return null;
    }
    List<Tag> old = previous.tags();
    if (old.size() != tags.size()) {
      return null;
    }
    for (int t = 0; t < tags.size(); t++) {
      if (!old.get(t).name().equals(tags.get(t).name())) {
        return null; // a container's every shard lists the tags
      }
    }
    if (!format.sharded()) {
      // shard entries inside one file (an SDZ's) hold its newest tag; the older ones are entries of their own
      old = List.of(old.get(old.size() - 1));
      tags = List.of(tags.get(tags.size() - 1));
    }
    List<Set<String>> read = previous.shards().weightShards();
    Set<String> names = placed(tags);
    Map<String, Integer> home = new HashMap<>();
    List<Set<String>> sets = new ArrayList<>();
    for (int k = 0; k < read.size(); k++) {
      Set<String> s = new LinkedHashSet<>();
      for (String n : read.get(k)) {
        if (home.put(n, k) != null) {
          return null; // one name in two shards: only a fresh packing writes it once
        }
        if (names.contains(n)) {
          s.add(n);
        }
      }
      sets.add(s);
    }
    boolean[] kept = new boolean[sets.size()];
    for (int k = 0; k < sets.size(); k++) {
      kept[k] = sets.get(k).equals(read.get(k)) && unchanged(read.get(k), old, tags, options);
    }
    Map<String, Long> costs = ShardedFormat.costs(tags.get(tags.size() - 1));
    long max = limit(previous, options, limitGiven);
    for (String n : names) {
      // a name no shard held is new — unless it is as it was: then no writer stores it (an
      // ARRAY variable's array, updater state without arrays), and it stays out of the shards
      if (!home.containsKey(n) && !unchanged(Set.of(n), old, tags, options) && !place(n, sets, kept, costs, max)) {
        return null;
      }
    }
    for (Set<String> s : sets) {
      if (s.isEmpty() || s.size() > 1 && ShardedFormat.shardBytes(s, costs) > max) {
        return null;
      }
    }
    ShardPacking p = new ShardPacking(sets, kept);
    return p.keepsAny() ? p : null;
  }

  /**
   * The shard limit of a commit of {@code previous}: the one asked for, else the larger of the
   * default and the largest shard read (so that a set packed with a larger limit keeps its
   * packing, and a fresh packing of it its shard size).
   */
  static long limit(Model previous, WriteOptions options, boolean limitGiven) {
    long max = options.maxShardBytes();
    if (limitGiven || previous == null || previous.shards() == null || previous.tags().isEmpty()) {
      return max;
    }
    Map<String, Long> oldCosts = ShardedFormat.costs(previous.newest());
    for (Set<String> s : previous.shards().weightShards()) {
      max = Math.max(max, ShardedFormat.shardBytes(s, oldCosts));
    }
    return max;
  }

  /**
   * Every name a weight shard holds: the variables with arrays and the parameters with updater
   * state, of every tag given.
   */
  private static Set<String> placed(List<Tag> tags) {
    Set<String> out = new LinkedHashSet<>();
    for (Tag t : tags) {
      for (Variable v : t.variables()) {
        if (v.array() != null) {
          out.add(v.name());
        }
      }
      for (UpdaterState u : t.updater()) {
        out.add(u.paramName());
      }
    }
    return out;
  }

  /**
   * Puts the new name {@code n} in a shard that is rewritten anyway and has room, else in the
   * smallest kept one with room (which is then rewritten); false when none has room.
   */
  private static boolean place(String n, List<Set<String>> sets, boolean[] kept, Map<String, Long> costs, long max) {
    long c = costs.getOrDefault(n, 0L);
    int best = -1;
    for (int k = 0; k < sets.size(); k++) {
      long size = ShardedFormat.shardBytes(sets.get(k), costs);
      if (size + c > max) {
        continue;
      }
      if (!kept[k]) {
        best = k;
        break;
      }
      if (best < 0 || size < ShardedFormat.shardBytes(sets.get(best), costs)) {
        best = k;
      }
    }
    if (best < 0) {
      return false;
    }
    sets.get(best).add(n);
    kept[best] = false;
    return true;
  }

  /**
   * Whether every name of a shard reads the same in the new tags as in the old: the variable
   * (name, kind, type, declared shape, the same stored array) and its updater state (the same
   * keys, the same arrays), in every tag; a container's arrays also keep their compression.
   */
  private static boolean unchanged(Set<String> names, List<Tag> old, List<Tag> tags, WriteOptions options) {
    boolean container = Codecs.of(options.format()).shardsKeepCompression();
    for (int t = 0; t < tags.size(); t++) {
      Tag a = old.get(t);
      Tag b = tags.get(t);
      for (String n : names) {
        Variable va = a.variable(n);
        Variable vb = b.variable(n);
        if (!sameVariable(va, vb) || !sameState(a.state(n), b.state(n))) {
          return false;
        }
        if (container && !compressed(vb, b.state(n), options.deflate())) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean sameVariable(Variable a, Variable b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.name().equals(b.name()) && a.kind() == b.kind() && a.dtype() == b.dtype()
        && Arrays.equals(a.shape(), b.shape()) && Objects.equals(a.array(), b.array());
  }

  private static boolean sameState(UpdaterState a, UpdaterState b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.paramName().equals(b.paramName()) && a.arrays().equals(b.arrays());
  }

  /** Whether a container keeps these arrays as they are stored: deflated exactly when it deflates. */
  private static boolean compressed(Variable v, UpdaterState u, boolean deflate) {
    List<ArrayData> arrays = new ArrayList<>();
    if (v != null && v.array() != null) {
      arrays.add(v.array());
    }
    if (u != null) {
      arrays.addAll(u.arrays().values());
    }
    for (ArrayData a : arrays) {
      if (!a.empty() && (a.storage() == ArrayData.Storage.DEFLATED) != deflate) {
        return false;
      }
    }
    return true;
  }
}
