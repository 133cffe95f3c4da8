package org.modelfs.format.sdnb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.GraphReader;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ParallelReads;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ShardLayout;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * Sharded SDNB (docs/FORMATS.md §6): shard 0 holds the graph with array-less stubs, shards 1..N−1
 * hold the arrays and updater state. Reading merges them into one tag; planning packs arrays
 * into weight shards under a size limit, largest first, never splitting an array.
 */
public final class ShardedFormat {
  /** Per-variable overhead estimate in a weight shard's FlatGraph (DL4J uses 256 B). */
  static final long PER_VARIABLE = 256;
  /** Fixed overhead estimate of a shard file. */
  static final long PER_SHARD = 64 * 1024;

  private ShardedFormat() {}

  /** A shard set read: the tag, and which names each weight shard holds. */
  public record Read(Tag tag, ShardLayout layout) {}

  /**
   * Reads shards {@code 0..N-1} (all present, in index order) as one tag.
   */
  public static Tag read(List<ByteSource> shards, String tagName) throws IOException {
    return readSet(shards, tagName).tag();
  }

  /** Reads shards {@code 0..N-1} as {@link #read} does, with what each weight shard holds. */
  public static Read readSet(List<ByteSource> shards, String tagName) throws IOException {
    List<Set<String>> held = new ArrayList<>();
    ParallelReads.Results<SdnbFormat.Parsed> parsed = ParallelReads.parseAll(shards, SdnbFormat::parse); // at once: issue 34
    SdnbFormat.Parsed graph = parsed.get(0);
    GraphReader.Content g = graph.content();
    List<Variable> vars = new ArrayList<>(g.variables());
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < vars.size(); i++) {
      index.put(vars.get(i).name(), i);
    }
    List<UpdaterState> updater = new ArrayList<>(g.updater());
    for (int k = 1; k < shards.size(); k++) {
      ByteSource s = shards.get(k);
      GraphReader.Content w = parsed.get(k).content();
      Set<String> here = new LinkedHashSet<>();
      held.add(here);
      for (Variable wv : w.variables()) {
        ArrayData a = wv.array();
        if (a == null) {
          continue;
        }
        here.add(wv.name());
        Integer i = index.get(wv.name());
        String what = "weight shard variable '" + wv.name() + "'";
        if (i == null) {
          throw new ModelFormatException(s.name(), what, 32, "is not a variable of the graph in shard 0");
        }
        Variable v = vars.get(i);
        if (v.array() != null) {
          throw new ModelFormatException(s.name(), what, 32, "array is stored in two shards");
        }
        if (v.dtype() != null && v.dtype() != a.dtype() && !a.empty()) {
          throw new ModelFormatException(s.name(), what, 32, "data type " + a.dtype()
              + " differs from the graph's " + v.dtype());
        }
        long[] declared = v.shape();
        if (declared != null && !a.empty() && !Arrays.equals(declared, a.shape())) {
          throw new ModelFormatException(s.name(), what, 32, "shape " + Arrays.toString(a.shape())
              + " differs from the graph's " + Arrays.toString(declared));
        }
        vars.set(i, v.withArray(a));
      }
      updater.addAll(w.updater());
      for (UpdaterState u : w.updater()) {
        here.add(u.paramName());
      }
    }
    Map<String, String> metadata = new TreeMap<>(g.metadata());
    metadata.remove(SdnbFormat.KEY_SHARD_INDEX);
    metadata.remove(SdnbFormat.KEY_SHARD_TYPE);
    return new Read(new Tag(tagName, graph.graph(), vars, updater, g.trainingConfig(), metadata),
        new ShardLayout(held, !g.updater().isEmpty() || g.variables().stream().anyMatch(v -> v.array() != null)));
  }

  /**
   * The estimated bytes each name takes in a weight shard: a variable's array, its updater state
   * and {@value #PER_VARIABLE} bytes; a parameter with updater state and no array, its state.
   */
  public static Map<String, Long> costs(Tag tag) {
    Map<String, Long> cost = new HashMap<>(updaterBytes(tag));
    for (Variable v : tag.arrays()) {
      cost.merge(v.name(), v.array().length() + PER_VARIABLE, Long::sum);
    }
    return cost;
  }

  /** The estimated size of a weight shard holding {@code names} ({@link #costs}; unknown names cost nothing). */
  public static long shardBytes(Set<String> names, Map<String, Long> costs) {
    long used = PER_SHARD;
    for (String n : names) {
      used += costs.getOrDefault(n, 0L);
    }
    return used;
  }

  private static Map<String, Long> updaterBytes(Tag tag) {
    Map<String, Long> updaterBytes = new HashMap<>();
    for (UpdaterState u : tag.updater()) {
      long sum = 0;
      for (ArrayData a : u.arrays().values()) {
        sum += a.length();
      }
      updaterBytes.put(u.paramName(), sum);
    }
    return updaterBytes;
  }

  /**
   * Packs the tag's arrays into weight shards of at most {@code maxShardBytes} (estimated), the
   * largest arrays first; an array larger than the limit gets a shard of its own. Returns the
   * variable names of each weight shard (shards 1..N−1).
   */
  public static List<Set<String>> plan(Tag tag, long maxShardBytes) {
    Map<String, Long> updaterBytes = updaterBytes(tag);
    List<Variable> withArrays = new ArrayList<>(tag.arrays());
    Map<String, Long> cost = costs(tag);
    withArrays.sort(Comparator.comparingLong((Variable v) -> cost.get(v.name())).reversed()
        .thenComparing(Variable::name));
    List<Set<String>> shards = new ArrayList<>();
    Set<String> current = new LinkedHashSet<>();
    long used = PER_SHARD;
    for (Variable v : withArrays) {
      long c = cost.get(v.name());
      if (!current.isEmpty() && used + c > maxShardBytes) {
        shards.add(current);
        current = new LinkedHashSet<>();
        used = PER_SHARD;
      }
      current.add(v.name());
      used += c;
    }
    if (!current.isEmpty()) {
      shards.add(current);
    }
    // Updater state of a parameter that holds no array travels with the first weight shard.
    for (String param : updaterBytes.keySet()) {
      if (shards.stream().noneMatch(s -> s.contains(param))) {
        if (shards.isEmpty()) {
          shards.add(new LinkedHashSet<>());
        }
        shards.get(0).add(param);
      }
    }
    return shards;
  }
}
