package org.modelfs.container;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.unified.ContainerWriter;
import org.modelfs.format.fb.Dl4jGraphRules;
import org.modelfs.format.fb.FbFormat;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.format.sdnb.ShardedFormat;
import org.modelfs.format.sdz.SdzFormat;
import org.modelfs.format.ziptags.ZipTagsWriter;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.EarlyWriteback;
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
    boolean allLaidOut = options.format() == ModelFormat.ZIP_TAGS || options.format().holdsTags() && options.format() != ModelFormat.SDZ;
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
    List<String> out = new ArrayList<>();
    if (options.format() == ModelFormat.FB) {
      out.addAll(FbFormat.problems(tag));
      if (!options.dropMetadata()) {
        for (String k : tag.metadata().keySet()) {
          if (!SdnbFormat.isFormatKey(k)) {
            out.add(Where.metadata(k) + ": the fb format cannot hold metadata (drop it explicitly to convert)");
          }
        }
      }
    }
    if (options.format() == ModelFormat.ZIP_TAGS) {
      out.addAll(ZipTagsWriter.problems(tag));
    }
    if (options.format() == ModelFormat.CONTAINER) {
      out.addAll(ContainerWriter.problems(tag, options.deflate()));
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
    if (format == ModelFormat.SDNB || format == ModelFormat.SHARDED_SDNB || format == ModelFormat.SDZ) {
      return switch (key) {
        case SdnbFormat.KEY_VERSION -> "1";
        case SdnbFormat.KEY_TYPE -> "APPENDED_BLOB";
        case SdnbFormat.KEY_SHARD_INDEX, SdnbFormat.KEY_SHARD_TYPE -> null;
        default -> value;
      };
    }
    return null;
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
    for (java.util.Map.Entry<String, String> e : tag.metadata().entrySet()) {
      String k = e.getKey();
      if (committed == null || java.util.Objects.equals(committed.metadata().get(k), e.getValue())) {
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
          "the " + options.format().token() + " format holds one tag named default; sdz, zip-tags and container hold several");
    }
    List<String> problems = problems(tags, options);
    if (!problems.isEmpty()) {
      throw new Refused(fileName, problems);
    }
    Tag newest = tags.get(tags.size() - 1);
    List<ContainerPlan.PlannedFile> files = new ArrayList<>();
    switch (options.format()) {
      case FB -> files.add(new ContainerPlan.PlannedFile(fileName, stream(o -> FbFormat.write(newest, o, fileName))));
      case SDNB -> {
        SdnbFormat.Prepared p = SdnbFormat.prepare(newest, GraphWriter.Mode.SDNB, Set.of(),
            SdnbFormat.metadataFor(newest, -1, false), fileName);
        files.add(new ContainerPlan.PlannedFile(fileName, stream(p::writeTo)));
      }
      case SHARDED_SDNB -> {
        String base = ShardNames.base(fileName);
        ShardReuse.Packing reuse = ShardReuse.of(previous, tags, options, limitGiven);
        List<Set<String>> sets = reuse != null ? reuse.sets()
            : ShardedFormat.plan(newest, ShardReuse.limit(previous, options, limitGiven));
        boolean[] kept = keptInPlace(reuse, previous, sets.size(), k -> ShardNames.name(base, k, sets.size() + 1));
        for (SdzFormat.Part part : shardParts(newest, base, sets, kept, base)) {
          files.add(part.content() == null ? ContainerPlan.PlannedFile.keep(part.name())
              : new ContainerPlan.PlannedFile(part.name(), stream(part.content()::writeTo)));
        }
      }
      case SDZ -> {
        List<SdzFormat.Part> parts = new ArrayList<>(sdzParts(newest, options, fileName,
            ShardReuse.of(previous, tags, options, limitGiven), previous, limitGiven));
        if (!oneDefault) {
          parts.addAll(SdzFormat.olderTagParts(tags, fileName));
        }
        files.add(new ContainerPlan.PlannedFile(fileName, zip(parts, options)));
      }
      case ZIP_TAGS -> files.add(new ContainerPlan.PlannedFile(fileName, zip(ZipTagsWriter.parts(tags, fileName), options)));
      case CONTAINER -> files.add(new ContainerPlan.PlannedFile(fileName, withWriteback(
          (ch, what) -> ContainerWriter.write(tags, ch, fileName, options.containerLevel()))));
      case SHARDED_CONTAINER -> files.addAll(containerShards(tags, fileName, options,
          ShardReuse.of(previous, tags, options, limitGiven), previous, limitGiven));
      default -> throw new ModelFormatException(fileName, "model to write", 0,
          "writing " + options.format() + " is not supported yet");
    }
    return new ContainerPlan(tags, options, files);
  }

  /**
   * Whether the model named {@code fileName} can be written as a shard set of {@code format}: only
   * a model named {@code <base>.sdnb} (any case) is one model with the shards
   * {@code <base>.shard<k>-of-<N>.sdnb}, and {@code <base>.sdmc} with {@code <base>.shard<k>-of-<N>.sdmc}.
   */
  public static boolean canBeShardSet(String fileName, ModelFormat format) {
    String ext = ShardNames.setExtension(fileName);
    return ext != null && ext.equals(format == ModelFormat.SHARDED_CONTAINER ? ShardNames.CONTAINER : ShardNames.SDNB);
  }

  /**
   * The files of a sharded container (docs/FORMATS.md §13.8): shard 0 holds every tag's metadata
   * and graph, each weight shard the arrays and updater state of a set of variables — packed by
   * the newest tag's sizes as SDNB shards are; a variable only older tags hold goes with the
   * first weight shard.
   */
  private static List<ContainerPlan.PlannedFile> containerShards(List<Tag> tags, String fileName, WriteOptions options,
      ShardReuse.Packing reuse, Model previous, boolean limitGiven) throws ModelFormatException {
    if (!canBeShardSet(fileName, ModelFormat.SHARDED_CONTAINER)) {
      throw new ModelFormatException(fileName, "model to write", -1,
          "a sharded container is named <base>.sdmc (its shards are <base>.shard<k>-of-<N>.sdmc)");
    }
    String base = ShardNames.base(fileName);
    if (reuse != null) {
      int n = reuse.sets().size() + 1;
      return containerShardFiles(tags, base, reuse.sets(),
          keptInPlace(reuse, previous, n - 1, k -> ShardNames.name(base, k, n, ShardNames.CONTAINER)), options.containerLevel());
    }
    List<Set<String>> sets = new ArrayList<>(ShardedFormat.plan(tags.get(tags.size() - 1),
        ShardReuse.limit(previous, options, limitGiven)));
    Set<String> placed = new java.util.HashSet<>();
    sets.forEach(placed::addAll);
    for (Tag t : tags) {
      for (org.modelfs.model.Variable v : t.variables()) {
        if (v.array() != null && placed.add(v.name())) {
          if (sets.isEmpty()) {
            sets.add(new java.util.LinkedHashSet<>());
          }
          sets.get(0).add(v.name());
        }
      }
      for (org.modelfs.model.UpdaterState u : t.updater()) {
        if (placed.add(u.paramName())) {
          if (sets.isEmpty()) {
            sets.add(new java.util.LinkedHashSet<>());
          }
          sets.get(0).add(u.paramName());
        }
      }
    }
    return containerShardFiles(tags, base, sets, new boolean[sets.size()], options.containerLevel());
  }

  /** The files of a sharded container whose weight shards hold {@code sets}; {@code kept[k - 1]}: shard k is kept. */
  private static List<ContainerPlan.PlannedFile> containerShardFiles(List<Tag> tags, String base, List<Set<String>> sets,
      boolean[] kept, int level) {
    int n = sets.size() + 1;
    List<ContainerPlan.PlannedFile> files = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      ContainerWriter.Part part = k == 0 ? ContainerWriter.Part.GRAPH : ContainerWriter.Part.WEIGHTS;
      Set<String> names = k == 0 ? Set.of() : sets.get(k - 1);
      ContainerWriter.Shard shard = new ContainerWriter.Shard(k, n, base);
      String name = ShardNames.name(base, k, n, ShardNames.CONTAINER);
      if (k > 0 && kept[k - 1]) {
        files.add(ContainerPlan.PlannedFile.keep(name));
        continue;
      }
      files.add(new ContainerPlan.PlannedFile(name, withWriteback(
          (ch, what) -> ContainerWriter.writeShard(tags, part, names, shard, ch, name, level))));
    }
    return files;
  }

  /**
   * Which weight shards of {@code reuse} stay where they are: those it keeps that the mount read
   * from a regular file under the very name the plan gives them ({@code nameOf.apply(k)}) — a
   * shard read through a link, or from a file of another spelling ({@code shard01-of-5}), is
   * written again (docs/FILESYSTEM.md §7.4).
   */
  private static boolean[] keptInPlace(ShardReuse.Packing reuse, Model previous, int weightShards,
      java.util.function.IntFunction<String> nameOf) {
    boolean[] kept = new boolean[weightShards];
    for (int k = 1; reuse != null && k <= weightShards; k++) {
      kept[k - 1] = reuse.kept()[k - 1] && previous.shards().readFrom(k, nameOf.apply(k));
    }
    return kept;
  }

  /** What writes the bytes of one file through a counting output. */
  @FunctionalInterface
  private interface Encoder {
    void writeTo(CountingOutput out) throws IOException;
  }

  /** A file streamed by {@code e}, forced in the background as it grows where the channel allows. */
  private static ContainerPlan.Body stream(Encoder e) {
    return withWriteback((ch, what) -> e.writeTo(new CountingOutput(ch)));
  }

  /** {@code body}, with the file forced in the background as it grows where the channel allows. */
  private static ContainerPlan.Body withWriteback(ContainerPlan.Body body) {
    return (SeekableByteChannel ch, String what) -> {
      if (ch instanceof FileChannel fc) {
        try (EarlyWriteback wb = EarlyWriteback.start(fc, what)) {
          body.writeTo(fc, what);
          wb.finish();
        }
      } else {
        body.writeTo(ch, what);
      }
    };
  }

  private static ContainerPlan.Body zip(List<SdzFormat.Part> parts, WriteOptions options) {
    return (ch, what) -> SdzFormat.write(parts, ch, options.deflate(), options.level(), what);
  }

  /**
   * The SDNB files of a model, named as they are in a zip. With {@code reuse}, the shards it
   * keeps are copied from {@code previous}' entries as they are stored (a deflated one without
   * inflating it: {@link SdzFormat.Body#of(org.modelfs.model.ShardLayout.Stored)}).
   */
  private static List<SdzFormat.Part> sdzParts(Tag tag, WriteOptions options, String file, ShardReuse.Packing reuse,
      Model previous, boolean limitGiven) throws IOException {
    if (!options.shardedSdz()) {
      return List.of(new SdzFormat.Part(SdzFormat.SINGLE_ENTRY, SdnbFormat.prepare(tag, GraphWriter.Mode.SDNB,
          Set.of(), SdnbFormat.metadataFor(tag, -1, false), file)));
    }
    if (reuse == null || previous.shards().stored().size() != reuse.sets().size() + 1) {
      List<Set<String>> plan = ShardedFormat.plan(tag, ShardReuse.limit(previous, options, limitGiven));
      return shardParts(tag, "model", plan, new boolean[plan.size()], file);
    }
    List<SdzFormat.Part> parts = new ArrayList<>();
    for (SdzFormat.Part p : shardParts(tag, "model", reuse.sets(), reuse.kept(), file)) {
      int k = parts.size();
      parts.add(p.content() != null ? p
          : new SdzFormat.Part(p.name(), SdzFormat.Body.of(previous.shards().stored().get(k))));
    }
    return parts;
  }

  /**
   * The SDNB shards of {@code tag} whose weight shards hold {@code plan} (shard k at k − 1); a
   * shard k with {@code kept[k - 1]} is named with no content (it is not written).
   */
  private static List<SdzFormat.Part> shardParts(Tag tag, String base, List<Set<String>> plan, boolean[] kept,
      String file) throws IOException {
    int n = plan.size() + 1;
    List<SdzFormat.Part> parts = new ArrayList<>();
    parts.add(new SdzFormat.Part(ShardNames.name(base, 0, n), SdnbFormat.prepare(tag, GraphWriter.Mode.SHARD_GRAPH,
        Set.of(), SdnbFormat.metadataFor(tag, 0, true), file)));
    for (int k = 1; k < n; k++) {
      String name = ShardNames.name(base, k, n);
      parts.add(kept[k - 1] ? new SdzFormat.Part(name, (SdzFormat.Body) null) : new SdzFormat.Part(name,
          SdnbFormat.prepare(tag, GraphWriter.Mode.SHARD_WEIGHTS, plan.get(k - 1), SdnbFormat.metadataFor(tag, k, false), file)));
    }
    return parts;
  }
}
