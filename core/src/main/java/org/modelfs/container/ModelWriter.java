package org.modelfs.container;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.modelfs.format.Codec;
import org.modelfs.format.Codecs;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.PlannedFile;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.Dl4jGraphRules;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.model.Where;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/**
 * Plans how tags are written in any supported format: which files, under which names, with
 * which bytes ({@link ContainerPlan}). Writing, forcing and installing the files is the store's
 * job ({@code org.modelfs.store.LocalBacking#commit}); nothing here touches the file system.
 */
public final class ModelWriter {
  private ModelWriter() {}

  /**
   * Reasons {@code tags} (oldest first) cannot be written with {@code options}, each {@code
   * "/tags/<tag>/<path>: <reason>"}; empty if they can. Every tag is held to what DL4J makes of it
   * ({@link Dl4jGraphRules#structure}: its graph's names, outputs, cycles and inputs, declarations
   * against arrays); the tags the format stores in its own layout to what that layout can hold. Every commit passes
   * here: {@link #plan} refuses with these problems before anything is written.
   *
   * @throws ModelFormatException if a tag's graph cannot be read
   */
  public static List<String> problems(List<Tag> tags, WriteOptions options) throws ModelFormatException {
    List<String> out = new ArrayList<>();
    // sdz keeps its older tags as SDNB entries; fb and SDNB hold the newest only
    boolean allLaidOut = Codecs.of(options.format()).laysOutEveryTag();
    for (int i = 0; i < tags.size(); i++) {
      Tag t = tags.get(i);
      String at = Where.inTag(t.name());
      String file = t.graph() == null ? at + "graph" : t.graph().source().name();
      for (Dl4jGraphRules.Problem pr : Dl4jGraphRules.structure(t, file)) {
        out.add(at + pr);
      }
      if (allLaidOut || i == tags.size() - 1) {
        for (String pr : layoutProblems(t, options)) {
          out.add(at + pr);
        }
      }
    }
    return out;
  }

  /** What {@code options}' format cannot hold of {@code tag}, each {@code "<path in the tag>: <reason>"}. */
  private static List<String> layoutProblems(Tag tag, WriteOptions options) {
    Codec codec = Codecs.of(options.format());
    List<String> out = new ArrayList<>(codec.layoutProblems(tag, options));
    if (!codec.keepsMetadata() && !options.dropMetadata()) {
      for (String k : tag.metadata().keySet()) {
        if (!SdnbFormat.isFormatKey(k)) {
          out.add(Where.metadata(k) + ": the " + options.format().token()
              + " format cannot hold metadata (drop it explicitly to convert)");
        }
      }
    }
    return out;
  }

  /** A plan refused before anything was written: {@link #problems()} says why, one entry per problem. */
  public static final class Refused extends ModelFormatException {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    Refused(String fileName, List<String> problems) {
      super(fileName, "model to write", -1, String.join("; ", problems));
      this.problems = List.copyOf(problems);
    }

    /** Each problem: {@code "/tags/<tag>/<path>: <reason>"}. */
    public List<String> problems() {
      return problems;
    }
  }

  /**
   * The value {@code format} stores for metadata {@code key} given {@code value}, or {@code null}
   * when it keeps no such key: the SDNB writers (SDNB, its shards, SDZ's entries) write
   * {@code nd4j.format.version} and {@code nd4j.format.type} themselves and the shard keys per
   * shard; fb, zip-tags and the container keep none of the SDNB format keys
   * ({@link SdnbFormat#isFormatKey}). Every other key is kept as given.
   */
  public static String storedMetadata(ModelFormat format, String key, String value) {
    if (!SdnbFormat.isFormatKey(key)) {
      return value;
    }
    return Codecs.of(format).storedFormatKey(key, value);
  }

  /**
   * The metadata of {@code tag} that {@code format} would store otherwise than it is, among the
   * keys whose value differs from {@code committed}'s (the same tag as last committed; keys read
   * from a model are what its format wrote): "metadata/KEY: …" lines for a commit's problems.
   * Every route that sets metadata — {@code meta set}, {@code Files.write} of
   * {@code /metadata/KEY}, a mount's commit — passes here (docs/FILESYSTEM.md §7.4).
   */
  public static List<String> metadataProblems(Tag tag, Tag committed, ModelFormat format) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : tag.metadata().entrySet()) {
      String k = e.getKey();
      if (committed == null || Objects.equals(committed.metadata().get(k), e.getValue())) {
        continue;
      }
      String stored = storedMetadata(format, k, e.getValue());
      if (!e.getValue().equals(stored)) {
        out.add(Where.metadata(k) + ": the " + format.token() + " format " + (stored == null
            ? "does not keep this key (" + k + " is an SDNB format key)"
            : "writes this key itself ('" + stored + "')") + "; '" + e.getValue() + "' would not be stored");
      }
    }
    return out;
  }

  /**
   * The files that hold {@code tags} (oldest first) in {@code options}' format. {@code fileName}
   * names the model: the single file, or for {@link ModelFormat#SHARDED_SDNB} the base name
   * {@code <base>.sdnb} whose shards are {@code <base>.shard<k>-of-<N>.sdnb}. Several tags are
   * written as zip-tags, or as an SDZ whose newest tag is the model DL4J loads ({@code model.sdnb}
   * or its shards), each older one the SDNB entry {@code tag.<name>}, and their order in
   * {@code tags.txt} (docs/FORMATS.md).
   *
   * @throws ModelFormatException if the format cannot hold the tags ({@link Refused}: {@link #problems(List, WriteOptions)})
   */
  public static ContainerPlan plan(List<Tag> tags, String fileName, WriteOptions options) throws IOException {
    return plan(tags, fileName, options, null, true);
  }

  /**
   * The files that hold {@code tags}, as {@link #plan(List, String, WriteOptions)}, for a commit
   * of the model {@code previous} as it was read (its files still the stored ones): a shard set
   * written in its own format keeps its packing where it can, and each weight shard whose
   * contents are unchanged is planned as kept ({@link ContainerPlan.PlannedFile#keep}), not
   * written ({@link ShardReuse}). {@code null} plans every file afresh. Without {@code limitGiven}
   * (no shard limit was asked for), the set keeps its packing up to the size of its largest shard.
   */
  public static ContainerPlan plan(List<Tag> tags, String fileName, WriteOptions options, Model previous,
      boolean limitGiven) throws IOException {
    if (tags.isEmpty()) {
      throw new ModelFormatException(fileName, "model to write", 0, "a model holds at least one tag");
    }
    boolean oneDefault = tags.size() == 1 && tags.get(0).name().equals(Models.DEFAULT_TAG);
    if (!oneDefault && !options.format().holdsTags()) {
      throw new ModelFormatException(fileName, "model to write", 0,
          "the " + options.format().token() + " format holds one tag named default; "
          + Codecs.list(f -> f.holdsTags() && !f.sharded(), "and") + " hold several");
    }
    List<String> problems = problems(tags, options);
    if (!problems.isEmpty()) {
      throw new Refused(fileName, problems);
    }
    Codec.Request request = new Codec.Request(tags, fileName, options, previous,
        ShardReuse.of(previous, tags, options, limitGiven), ShardReuse.limit(previous, options, limitGiven));
    List<ContainerPlan.PlannedFile> files = new ArrayList<>();
    for (PlannedFile f : Codecs.of(options.format()).plan(request)) {
      files.add(f.body() == null ? ContainerPlan.PlannedFile.keep(f.name())
          : new ContainerPlan.PlannedFile(f.name(), f.body()::writeTo));
    }
    return new ContainerPlan(tags, options, files);
  }

  /**
   * Whether the model named {@code fileName} can be written as a shard set of {@code format}: only
   * a model named {@code <base>.<ext>} (any case) is one model with the shards
   * {@code <base>.shard<k>-of-<N>.<ext>}, {@code ext} the format's shard extension (sdnb, sdmc).
   */
  public static boolean canBeShardSet(String fileName, ModelFormat format) {
    String ext = ShardNames.setExtension(fileName);
    return ext != null && ext.equals(Codecs.of(format).shardExtension());
  }
}
