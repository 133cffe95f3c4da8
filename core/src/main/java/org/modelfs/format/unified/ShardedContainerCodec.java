package org.modelfs.format.unified;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.modelfs.format.BaseCodec;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.PlannedFile;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.format.sdnb.ShardedFormat;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * The sharded container's descriptor (docs/FORMATS.md §13.8): shard 0 holds every tag's metadata
 * and graph, each weight shard the arrays and updater state of a set of variables — packed by
 * the newest tag's sizes as SDNB shards are; a variable only older tags hold goes with the first
 * weight shard.
 */
public final class ShardedContainerCodec extends BaseCodec {
  public ShardedContainerCodec() {
    super(ModelFormat.SHARDED_CONTAINER, "SAMEDIFF_MODEL", 10);
  }

  @Override
  public boolean sniff(ByteSource shard0) throws IOException {
    return ContainerReader.sniff(shard0);
  }

  @Override
  public String shardExtension() {
    return ShardNames.CONTAINER;
  }

  @Override
  public Model openShards(String location, List<ByteSource> shards, List<String> files, Closer closer)
      throws IOException {
    ContainerReader.ShardSet set = ContainerReader.readShardSet(shards);
    return new Model(location, format(), set.tags(), set.layout().withFiles(files), closer);
  }

  @Override
  public String fileNameProblem(String fileName) {
    return ShardNames.CONTAINER.equals(ShardNames.setExtension(fileName)) ? null
        : "a sharded container is named <base>.sdmc, its shards <base>.shard<k>-of-<N>.sdmc";
  }

  @Override
  public boolean compresses() {
    return true;
  }

  @Override
  public boolean shardsKeepCompression() {
    return true;
  }

  @Override
  public List<PlannedFile> plan(Request r) throws ModelFormatException {
    String fileName = r.fileName();
    String bad = fileNameProblem(fileName);
    if (bad != null) {
      throw new ModelFormatException(fileName, "model to write", -1, bad);
    }
    String base = ShardNames.base(fileName);
    List<Tag> tags = r.tags();
    if (r.packing() != null) {
      int n = r.packing().sets().size() + 1;
      return files(r, base, r.packing().sets(),
          r.keptInPlace(n - 1, k -> ShardNames.name(base, k, n, ShardNames.CONTAINER)));
    }
    List<Set<String>> sets = new ArrayList<>(ShardedFormat.plan(r.newest(), r.shardLimit()));
    Set<String> placed = new HashSet<>();
    sets.forEach(placed::addAll);
    for (Tag t : tags) {
      for (Variable v : t.variables()) {
        if (v.array() != null && placed.add(v.name())) {
          firstWeightShard(sets).add(v.name());
        }
      }
      for (UpdaterState u : t.updater()) {
        if (placed.add(u.paramName())) {
          firstWeightShard(sets).add(u.paramName());
        }
      }
    }
    return files(r, base, sets, new boolean[sets.size()]);
  }

  private static Set<String> firstWeightShard(List<Set<String>> sets) {
    if (sets.isEmpty()) {
      sets.add(new LinkedHashSet<>());
    }
    return sets.get(0);
  }

  /** The files of a sharded container whose weight shards hold {@code sets}; {@code kept[k - 1]}: shard k is kept. */
  private static List<PlannedFile> files(Request r, String base, List<Set<String>> sets, boolean[] kept) {
    int n = sets.size() + 1;
    int level = r.options().containerLevel();
    List<PlannedFile> files = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      ContainerWriter.Part part = k == 0 ? ContainerWriter.Part.GRAPH : ContainerWriter.Part.WEIGHTS;
      Set<String> names = k == 0 ? Set.of() : sets.get(k - 1);
      ContainerWriter.Shard shard = new ContainerWriter.Shard(k, n, base);
      String name = ShardNames.name(base, k, n, ShardNames.CONTAINER);
      files.add(k > 0 && kept[k - 1] ? PlannedFile.keep(name) : PlannedFile.written(name,
          (ch, what) -> ContainerWriter.writeShard(r.tags(), part, names, shard, ch, name, level)));
    }
    return files;
  }
}
