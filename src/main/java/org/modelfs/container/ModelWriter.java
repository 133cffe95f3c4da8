package org.modelfs.container;

import org.modelfs.model.ModelFormat;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.modelfs.format.fb.FbFormat;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.format.sdnb.ShardedFormat;
import org.modelfs.format.sdz.SdzFormat;
import org.modelfs.format.ziptags.ZipTagsWriter;
import org.modelfs.store.CommitRecord;
import org.modelfs.store.Durable;
import org.modelfs.io.EarlyWriteback;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.Tag;

/**
 * Writes one tag as a complete model file in any supported format. Each file is written to a
 * temporary name in the target directory, forced to disk and renamed over the target, so a
 * failed write never leaves a half-written model under the real name.
 */
public final class ModelWriter {
  private ModelWriter() {}

  /** Reasons {@code tag} cannot be written with {@code options}; empty if it can. */
  public static List<String> problems(Tag tag, WriteOptions options) {
    List<String> out = new ArrayList<>();
    if (options.format() == ModelFormat.FB) {
      out.addAll(FbFormat.problems(tag));
      if (!options.dropMetadata()) {
        for (String k : tag.metadata().keySet()) {
          if (!SdnbFormat.isFormatKey(k)) {
            out.add("metadata/" + k + ": the fb format cannot hold metadata (drop it explicitly to convert)");
          }
        }
      }
    }
    if (options.format() == ModelFormat.ZIP_TAGS) {
      out.addAll(ZipTagsWriter.problems(tag));
    }
    return out;
  }

  /**
   * Writes {@code tag} to {@code out}. For {@link ModelFormat#SHARDED_SDNB}, {@code out} names
   * the base ({@code dir/model.sdnb} → {@code dir/model.shard0-of-N.sdnb} …) and stale shards of
   * that base with another N are removed. Returns the files written.
   */
  public static List<Path> write(Tag tag, Path out, WriteOptions options) throws IOException {
    List<String> problems = problems(tag, options);
    if (!problems.isEmpty()) {
      throw new ModelFormatException(out.toString(), "model to write", 0, String.join("; ", problems));
    }
    String file = String.valueOf(out.getFileName());
    switch (options.format()) {
      case FB -> {
        atomically(out, o -> FbFormat.write(tag, o, file));
        return List.of(out);
      }
      case SDNB -> {
        SdnbFormat.Prepared p = SdnbFormat.prepare(tag, GraphWriter.Mode.SDNB, Set.of(), SdnbFormat.metadataFor(tag, -1, false), file);
        atomically(out, p::writeTo);
        return List.of(out);
      }
      case SHARDED_SDNB -> {
        return writeSharded(tag, out, options);
      }
      case SDZ -> {
        return writeSdz(sdzParts(tag, options, file), out, options);
      }
      case ZIP_TAGS -> {
        return writeSdz(ZipTagsWriter.parts(List.of(tag), file), out, options);
      }
      default -> throw new ModelFormatException(out.toString(), "model to write", 0,
          "writing " + options.format() + " is not supported yet");
    }
  }

  /**
   * Writes several tags (oldest first) as one file: as zip-tags, or as an SDZ with the newest
   * as the model DL4J loads ({@code model.sdnb} or its shards), each older one as the SDNB entry
   * {@code tag.<name>}, and their order in {@code tags.txt} (docs/FORMATS.md).
   */
  public static List<Path> writeTags(List<Tag> tags, Path out, WriteOptions options) throws IOException {
    if (tags.size() == 1 && tags.get(0).name().equals(Models.DEFAULT_TAG)) {
      return write(tags.get(0), out, options);
    }
    if (!options.format().holdsTags()) {
      throw new ModelFormatException(out.toString(), "model to write", 0,
          "the " + options.format().token() + " format holds one tag named default; sdz and zip-tags hold several");
    }
    String file = String.valueOf(out.getFileName());
    if (options.format() == ModelFormat.ZIP_TAGS) {
      List<String> problems = new ArrayList<>();
      for (Tag t : tags) {
        problems.addAll(problems(t, options));
      }
      if (!problems.isEmpty()) {
        throw new ModelFormatException(out.toString(), "model to write", 0, String.join("; ", problems));
      }
      return writeSdz(ZipTagsWriter.parts(tags, file), out, options);
    }
    Tag newest = tags.get(tags.size() - 1);
    List<String> problems = problems(newest, options);
    if (!problems.isEmpty()) {
      throw new ModelFormatException(out.toString(), "model to write", 0, String.join("; ", problems));
    }
    List<SdzFormat.Part> parts = new ArrayList<>(sdzParts(newest, options, file));
    parts.addAll(SdzFormat.olderTagParts(tags, file));
    return writeSdz(parts, out, options);
  }

  /** Writes the zip to a temporary file beside {@code out}, forces it, renames it over {@code out}. */
  private static List<Path> writeSdz(List<SdzFormat.Part> parts, Path out, WriteOptions options) throws IOException {
    Path tmp = tempBeside(out);
    try {
      SdzFormat.write(parts, tmp, options.deflate());
      Durable.force(tmp);
      commit(tmp, out);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return List.of(out);
  }

  /** The SDNB files of a model, named as they are in a zip or a directory. */
  private static List<SdzFormat.Part> sdzParts(Tag tag, WriteOptions options, String file) throws IOException {
    if (!options.shardedSdz()) {
      return List.of(new SdzFormat.Part(SdzFormat.SINGLE_ENTRY, SdnbFormat.prepare(tag, GraphWriter.Mode.SDNB,
          Set.of(), SdnbFormat.metadataFor(tag, -1, false), file)));
    }
    return shardParts(tag, "model", options.maxShardBytes(), file);
  }

  private static List<SdzFormat.Part> shardParts(Tag tag, String base, long maxShardBytes, String file)
      throws IOException {
    List<Set<String>> plan = ShardedFormat.plan(tag, maxShardBytes);
    int n = plan.size() + 1;
    List<SdzFormat.Part> parts = new ArrayList<>();
    parts.add(new SdzFormat.Part(ShardNames.name(base, 0, n), SdnbFormat.prepare(tag, GraphWriter.Mode.SHARD_GRAPH,
        Set.of(), SdnbFormat.metadataFor(tag, 0, true), file)));
    for (int k = 1; k < n; k++) {
      parts.add(new SdzFormat.Part(ShardNames.name(base, k, n), SdnbFormat.prepare(tag, GraphWriter.Mode.SHARD_WEIGHTS,
          plan.get(k - 1), SdnbFormat.metadataFor(tag, k, false), file)));
    }
    return parts;
  }

  private static List<Path> writeSharded(Tag tag, Path out, WriteOptions options) throws IOException {
    Path dir = out.toAbsolutePath().getParent();
    String base = ShardNames.base(String.valueOf(out.getFileName()));
    List<SdzFormat.Part> parts = shardParts(tag, base, options.maxShardBytes(), base);
    List<Path> tmps = new ArrayList<>();
    List<Path> finals = new ArrayList<>();
    try {
      List<CommitRecord.Rename> renames = new ArrayList<>();
      for (SdzFormat.Part p : parts) {
        Path target = dir.resolve(p.name());
        Path tmp = tempBeside(target);
        tmps.add(tmp);
        writeForced(tmp, p.content()::writeTo);
        finals.add(target);
        renames.add(new CommitRecord.Rename(tmp.getFileName().toString(), p.name()));
      }
      // several files: renamed under a roll-forward record, finished on the next open after a crash
      CommitRecord.commit(dir, base, renames, staleShards(dir, base, parts.size()));
    } finally {
      for (Path t : tmps) {
        Files.deleteIfExists(t);
      }
    }
    return finals;
  }

  private static List<String> staleShards(Path dir, String base, int n) throws IOException {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        ShardNames.Shard s = ShardNames.parse(p.getFileName().toString());
        if (s != null && s.base().equals(base) && s.count() != n) {
          out.add(p.getFileName().toString());
        }
      }
    }
    return out;
  }

  /** What writes the bytes of one file. */
  @FunctionalInterface
  interface Body {
    void writeTo(CountingOutput out) throws IOException;
  }

  private static void atomically(Path out, Body body) throws IOException {
    Path tmp = tempBeside(out);
    try {
      writeForced(tmp, body);
      commit(tmp, out);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static void writeForced(Path tmp, Body body) throws IOException {
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      try (EarlyWriteback wb = EarlyWriteback.start(ch, tmp.toString())) {
        body.writeTo(new CountingOutput(ch));
        wb.finish();
      }
      ch.force(true);
    } catch (UnsupportedOperationException e) {
      // The target's provider has no FileChannel (e.g. some in-memory file systems).
      try (OutputStream os = Files.newOutputStream(tmp)) {
        body.writeTo(new CountingOutput(os));
      }
    }
  }

  /** A temporary name beside {@code out}: {@code .<name>.<hex>.tmp} (what recovery removes). */
  private static Path tempBeside(Path out) {
    Path dir = out.toAbsolutePath().getParent();
    return dir.resolve("." + out.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".tmp");
  }

  private static void commit(Path tmp, Path out) throws IOException {
    Durable.rename(tmp, out);
    Durable.forceDirectory(out.toAbsolutePath().getParent());
  }
}
