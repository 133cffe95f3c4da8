package org.modelfs.format.sdnb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.modelfs.format.BaseCodec;
import org.modelfs.format.PlannedFile;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/**
 * The sharded SDNB format's descriptor (docs/FORMATS.md §6): {@code <base>.shard<k>-of-<N>.sdnb},
 * the shard set a set without another format's magic is read as.
 */
public final class ShardedSdnbCodec extends BaseCodec {
  public ShardedSdnbCodec() {
    super(ModelFormat.SHARDED_SDNB, "SDNB", Integer.MAX_VALUE); // SDNB's reader explains a shard 0 of no known format
  }

  @Override
  public List<String> aliases() {
    return List.of("sharded");
  }

  @Override
  public void prefetchIndex(ByteSource src) throws IOException {
    SdnbFormat.prefetchIndex(src);
  }

  @Override
  public boolean sniff(ByteSource shard0) throws IOException {
    return SdnbFormat.sniff(shard0);
  }

  @Override
  public String shardExtension() {
    return ShardNames.SDNB;
  }

  @Override
  public Model openShards(String location, List<ByteSource> shards, List<String> files, Closer closer)
      throws IOException {
    ShardedFormat.Read set = ShardedFormat.readSet(shards, DEFAULT_TAG);
    return new Model(location, format(), List.of(set.tag()), set.layout().withFiles(files), closer);
  }

  @Override
  public String storedFormatKey(String key, String value) {
    return SdnbCodec.storedKey(key, value);
  }

  @Override
  public List<PlannedFile> plan(Request r) throws IOException {
    String base = ShardNames.base(r.fileName());
    List<Set<String>> sets = r.packing() != null ? r.packing().sets() : ShardedFormat.plan(r.newest(), r.shardLimit());
    boolean[] kept = r.keptInPlace(sets.size(), k -> ShardNames.name(base, k, sets.size() + 1));
    List<PlannedFile> files = new ArrayList<>();
    for (Shard s : shards(r.newest(), base, sets, kept, base)) {
      files.add(s.content() == null ? PlannedFile.keep(s.name()) : PlannedFile.streamed(s.name(), s.content()::writeTo));
    }
    return files;
  }

  /** One SDNB shard: its name and content, or no content when it is kept (not written). */
  public record Shard(String name, SdnbFormat.Prepared content) {}

  /**
   * The SDNB shards of {@code tag} whose weight shards hold {@code plan} (shard k at k − 1), named
   * {@code <base>.shard<k>-of-<N>.sdnb}; a shard k with {@code kept[k - 1]} has no content.
   */
  public static List<Shard> shards(Tag tag, String base, List<Set<String>> plan, boolean[] kept, String file)
      throws IOException {
    int n = plan.size() + 1;
    List<Shard> parts = new ArrayList<>();
    parts.add(new Shard(ShardNames.name(base, 0, n), SdnbFormat.prepare(tag, GraphWriter.Mode.SHARD_GRAPH,
        Set.of(), SdnbFormat.metadataFor(tag, 0, true), file)));
    for (int k = 1; k < n; k++) {
      String name = ShardNames.name(base, k, n);
      parts.add(new Shard(name, kept[k - 1] ? null : SdnbFormat.prepare(tag, GraphWriter.Mode.SHARD_WEIGHTS,
          plan.get(k - 1), SdnbFormat.metadataFor(tag, k, false), file)));
    }
    return parts;
  }
}
