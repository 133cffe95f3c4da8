package org.modelfs.format.sdz;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.modelfs.format.BaseCodec;
import org.modelfs.format.PlannedFile;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.sdnb.SdnbCodec;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.format.sdnb.ShardedFormat;
import org.modelfs.format.sdnb.ShardedSdnbCodec;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/**
 * The SDZ format's descriptor (docs/FORMATS.md §7): a zip whose newest tag is the model DL4J
 * loads ({@code model.sdnb} or its shards), each older one the SDNB entry {@code tag.<name>}.
 */
public final class SdzCodec extends BaseCodec {
  public SdzCodec() {
    super(ModelFormat.SDZ, "ZIP", 40); // any zip: after the tagged zip
  }

  @Override
  public String wholeModel() {
    return "a zip (an SDZ or zip-tags model?)";
  }

  @Override
  public boolean sniff(ByteSource src) throws IOException {
    return SdzFormat.sniff(src);
  }

  @Override
  public List<String> otherExtensions() {
    return List.of(".zip");
  }

  @Override
  public Model open(String location, ByteSource src, Closer closer) throws IOException {
    SdzFormat.Read read = SdzFormat.readModel(src, closer, DEFAULT_TAG);
    return new Model(location, format(), read.tags(), read.shards(), closer);
  }

  @Override
  public boolean laysOutEveryTag() {
    return false; // older tags are SDNB entries, held to nothing the newest is not
  }

  @Override
  public String storedFormatKey(String key, String value) {
    return SdnbCodec.storedKey(key, value);
  }

  @Override
  public boolean shardsInOneFile() {
    return true;
  }

  @Override
  public boolean compresses() {
    return true;
  }

  @Override
  public List<PlannedFile> plan(Request r) throws IOException {
    List<SdzFormat.Part> parts = new ArrayList<>(newestParts(r));
    boolean oneDefault = r.tags().size() == 1 && r.tags().get(0).name().equals(DEFAULT_TAG);
    if (!oneDefault) {
      parts.addAll(SdzFormat.olderTagParts(r.tags(), r.fileName()));
    }
    return List.of(PlannedFile.written(r.fileName(), zip(parts, r.options())));
  }

  /** A zip of {@code parts}, compressed as {@code options} say. */
  public static PlannedFile.Body zip(List<SdzFormat.Part> parts, WriteOptions options) {
    return (ch, what) -> SdzFormat.write(parts, ch, options.deflate(), options.level(), what);
  }

  /**
   * The SDNB files of the newest tag, named as they are in the zip. With a kept packing, the
   * shards it keeps are copied from the mounted model's entries as they are stored (a deflated
   * one without inflating it: {@link SdzFormat.Body#of(org.modelfs.model.ShardLayout.Stored)}).
   */
  private static List<SdzFormat.Part> newestParts(Request r) throws IOException {
    Tag tag = r.newest();
    String file = r.fileName();
    if (!r.options().shardedSdz()) {
      return List.of(new SdzFormat.Part(SdzFormat.SINGLE_ENTRY, SdnbFormat.prepare(tag, GraphWriter.Mode.SDNB,
          Set.of(), SdnbFormat.metadataFor(tag, -1, false), file)));
    }
    Model previous = r.previous();
    if (r.packing() == null || previous.shards().stored().size() != r.packing().sets().size() + 1) {
      List<Set<String>> plan = ShardedFormat.plan(tag, r.shardLimit());
      return parts(ShardedSdnbCodec.shards(tag, "model", plan, new boolean[plan.size()], file), previous);
    }
    return parts(ShardedSdnbCodec.shards(tag, "model", r.packing().sets(), r.packing().kept(), file), previous);
  }

  private static List<SdzFormat.Part> parts(List<ShardedSdnbCodec.Shard> shards, Model previous) {
    List<SdzFormat.Part> parts = new ArrayList<>();
    for (ShardedSdnbCodec.Shard s : shards) {
      parts.add(s.content() != null ? new SdzFormat.Part(s.name(), s.content())
          : new SdzFormat.Part(s.name(), SdzFormat.Body.of(previous.shards().stored().get(parts.size()))));
    }
    return parts;
  }
}
