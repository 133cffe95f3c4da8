package org.modelfs.container;

import org.modelfs.model.ModelFormat;
import org.modelfs.format.ModelFormatException;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.format.unified.ContainerReader;
import org.modelfs.format.fb.FbFormat;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.format.sdnb.ShardedFormat;
import org.modelfs.format.sdz.SdzFormat;
import org.modelfs.format.ziptags.ZipTagsReader;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.Closer;
import org.modelfs.model.Model;

/**
 * Opens any supported model file by its content (docs/FORMATS.md §1 detection: the container's
 * {@code SAMEDIFF_MODEL}, SDNB magic, a zip with {@code tags.txt} and {@code <tag>/graph.fb} =
 * zip-tags, other zips = SDZ, else fb) into a {@link Model}
 * index; the writing side is {@link ModelWriter}.
 */
public final class Models {
  /** The tag name of formats without tags. */
  public static final String DEFAULT_TAG = "default";

  private Models() {}

  /**
   * Opens {@code path}: an fb, SDNB, SDZ or zip-tags file, one shard of a sharded SDNB, or the
   * base name of one ({@code model.sdnb} when only {@code model.shard<k>-of-<N>.sdnb} exist).
   */
  public static Model open(Path path) throws IOException {
    return closingOnFailure(closer -> open(path, closer));
  }


  private static Model open(Path path, Closer closer) throws IOException {
    String location = path.toString();
    if (!Files.exists(path)) {
      List<Path> shards = findShards(path);
      if (shards.isEmpty()) {
        throw new NoSuchFileException(location, null, "no model file, and no shard files of this base name");
      }
      return sharded(location, shards, closer);
    }
    ByteSource src = closer.register(openRegular(path));
    Path name = path.getFileName();
    ShardNames.Shard shard = name == null ? null : ShardNames.parseAny(name.toString());
    if (shard != null && (shard.ext().equals(ShardNames.SDNB) ? SdnbFormat.sniff(src) : ContainerReader.sniff(src))) {
      src.close();
      return sharded(location, findShards(path), closer);
    }
    return single(location, src, closer);
  }

  /**
   * Opens the model held by the one file {@code src} (fb, SDNB, SDZ or zip-tags, by its content;
   * an SDNB is read as a single file, whatever it is called) under the name {@code location}.
   * For storage that is not a file system path of its own (an object store's ranged reads). The
   * model owns {@code src}: closing the model, or a failure to open it, closes it.
   */
  public static Model open(String location, ByteSource src) throws IOException {
    return closingOnFailure(closer -> single(location, closer.register(src), closer));
  }

  /**
   * Opens the shards {@code shards} (shard 0 first) as one sharded model named {@code location};
   * the model owns them as {@link #open(String, ByteSource)} owns its source.
   */
  public static Model openShardSources(String location, List<ByteSource> shards) throws IOException {
    return openShardSources(location, shards, List.of());
  }

  /**
   * {@link #openShardSources(String, List)}, each shard stored under the file name
   * {@code names.get(k)} ({@code m.shard1-of-4.sdnb}; an object store's key without its
   * directory): a commit of the model may then keep a shard that it did not change
   * ({@code model.ShardLayout#readFrom}). Empty when the shards have no such names.
   */
  public static Model openShardSources(String location, List<ByteSource> shards, List<String> names)
      throws IOException {
    return closingOnFailure(closer -> {
      for (ByteSource s : shards) {
        closer.register(s);
      }
      return shardSet(location, shards, names, closer);
    });
  }

  private static Model single(String location, ByteSource src, Closer closer) throws IOException {
    if (ContainerReader.sniff(src)) {
      return new Model(location, ModelFormat.CONTAINER, ContainerReader.read(src), closer);
    }
    if (SdnbFormat.sniff(src)) {
      return new Model(location, ModelFormat.SDNB, List.of(SdnbFormat.read(src, DEFAULT_TAG)), closer);
    }
    if (SdzFormat.sniff(src)) {
      if (ZipTagsReader.sniff(src)) {
        return new Model(location, ModelFormat.ZIP_TAGS, ZipTagsReader.read(src, closer), closer);
      }
      SdzFormat.Read read = SdzFormat.readModel(src, closer, DEFAULT_TAG);
      return new Model(location, ModelFormat.SDZ, read.tags(), read.shards(), closer);
    }
    try {
      return new Model(location, ModelFormat.FB, List.of(FbFormat.read(src, DEFAULT_TAG)), closer);
    } catch (org.modelfs.format.BudgetExceededException e) {
      throw e; // a FlatGraph, too costly to unfold: saying "not a SameDiff model" would mislead
    } catch (ModelFormatException e) {
      if (e.offset() < 0 || e.offset() >= src.size()) {
        // the first 4 bytes, read as a FlatBuffer's root offset, point outside the file (a text
        // file, say): the problem is at offset 0, not at the number they make
        throw new ModelFormatException(location, "model file", 0, "not a SameDiff model: no SAMEDIFF_MODEL, SDNB or ZIP magic at"
            + " its start, and no FlatGraph FlatBuffer (" + (src.size() < 4 ? "only " + src.size() + " bytes"
            : "the root offset it would start with points outside its " + src.size() + " bytes") + ")", e);
      }
      throw new ModelFormatException(location, "model file", e.offset(),
          "not a SameDiff model: no SAMEDIFF_MODEL, SDNB or ZIP magic, and not a FlatGraph FlatBuffer (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Opens the shard files {@code shards} (shard 0 first, whatever their names: a commit reads
   * its temporaries back before renaming them) as one sharded model.
   */
  public static Model openShards(String location, List<Path> shards) throws IOException {
    return closingOnFailure(closer -> sharded(location, shards, closer));
  }

  /** How a model is opened with the sources registered in a closer. */
  @FunctionalInterface
  private interface Opener {
    Model open(Closer closer) throws IOException;
  }

  /** Runs {@code opener}; if it fails, every source it had opened is closed. */
  private static Model closingOnFailure(Opener opener) throws IOException {
    Closer closer = new Closer();
    try {
      return opener.open(closer);
    } catch (IOException | RuntimeException e) {
      try {
        closer.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }


  private static Model sharded(String location, List<Path> shards, Closer closer) throws IOException {
    List<ByteSource> sources = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Path p : shards) {
      sources.add(closer.register(openRegular(p)));
      Path n = p.getFileName();
      names.add(n != null && Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? n.toString() : null);
    }
    return shardSet(location, sources, names, closer);
  }

  /**
   * The model of open shards, shard 0 first: a container's (by its magic) or an SDNB's; {@code files}
   * are the file names they were read from (ShardLayout#files), empty when they are not files.
   */
  private static Model shardSet(String location, List<ByteSource> shards, List<String> files, Closer closer)
      throws IOException {
    if (ContainerReader.sniff(shards.get(0))) {
      ContainerReader.ShardSet set = ContainerReader.readShardSet(shards);
      return new Model(location, ModelFormat.SHARDED_CONTAINER, set.tags(), set.layout().withFiles(files), closer);
    }
    ShardedFormat.Read set = ShardedFormat.readSet(shards, DEFAULT_TAG);
    return new Model(location, ModelFormat.SHARDED_SDNB, List.of(set.tag()), set.layout().withFiles(files), closer);
  }

  /**
   * Opens a model file for reading, refusing anything but a regular file first: a directory, a
   * device or a named pipe (which would block the open forever) is not a model.
   */
  private static ByteSource openRegular(Path p) throws IOException {
    if (!Files.isRegularFile(p)) {
      String what = Files.isDirectory(p) ? "a directory" : "not a regular file (device, pipe or socket)";
      throw new ModelFormatException(p.toString(), "model file", 0, "is " + what + ", not a model file");
    }
    return ChannelSource.open(p);
  }

  /**
   * The complete, ordered shard files of the sharded model that {@code path} (a base name —
   * {@code model.sdnb}, {@code model.sdmc} or {@code model} — or any shard) belongs to; empty if
   * there are none.
   *
   * @throws ModelFormatException if shards disagree on N or some are missing
   */
  public static List<Path> findShards(Path path) throws IOException {
    Path fileName = path.getFileName();
    if (fileName == null) {
      return List.of();
    }
    String name = fileName.toString();
    ShardNames.Shard shard = ShardNames.parseAny(name);
    String ext = shard != null ? shard.ext() : ShardNames.setExtension(name);
    if (shard == null && ext == null && name.indexOf('.') > 0) {
      return List.of(); // only model.sdnb, model.sdmc (or model) is the base name of a shard set
    }
    String base = ShardNames.base(name);
    Path dir = path.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> found = List.of();
    for (String e : ext != null ? List.of(ext) : List.of(ShardNames.SDNB, ShardNames.CONTAINER)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
        found = ShardNames.completeSet(base, e, ds, p -> p.getFileName().toString(), n -> dir.resolve(n).toString());
      }
      if (!found.isEmpty()) {
        return found; // a bare base: SDNB shards first, as before containers existed
      }
    }
    return found;
  }
}
