package org.modelfs.container;

import org.modelfs.model.ModelFormat;
import org.modelfs.format.ModelFormatException;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.format.Codec;
import org.modelfs.format.Codecs;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.Closer;
import org.modelfs.io.ParallelReads;
import org.modelfs.model.Model;

/**
 * Opens any model file of a registered format by its content into a {@link Model} index: each
 * codec of {@link Codecs} is asked in its sniff order (docs/FORMATS.md §1: the container's
 * {@code SAMEDIFF_MODEL}, SDNB magic, a zip with {@code tags.txt} and {@code <tag>/graph.fb} =
 * zip-tags, other zips = SDZ, else fb), shard sets by their shard extension; the writing side is
 * {@link ModelWriter}.
 */
public final class Models {
  /** The tag name of formats without tags. */
  public static final String DEFAULT_TAG = Codec.DEFAULT_TAG;

  private Models() {}

  /**
   * Opens {@code path}: a model file, one shard of a shard set, or the base name of one
   * ({@code model.sdnb} when only {@code model.shard<k>-of-<N>.sdnb} exist).
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
    Codec set = shard == null ? null : Codecs.ofShardExtension(shard.ext());
    if (set != null && set.sniff(src)) {
      src.close();
      return sharded(location, findShards(path), closer);
    }
    return single(location, src, closer);
  }

  /**
   * Opens the model held by the one file {@code src} (any one-file format, by its content; an
   * SDNB is read as a single file, whatever it is called) under the name {@code location}.
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
   * {@link #openShardSources(String, List)}, the shards stored under the file names {@code names}
   * (shard 0 first): a store whose commit keeps unchanged shards where they are (a pointer naming
   * them again) says so, and a plan keeps a shard only when it was read under the name it plans.
   */
  public static Model openShardSources(String location, List<ByteSource> shards, List<String> names)
      throws IOException {
    return closingOnFailure(closer -> {
      for (ByteSource s : shards) {
        closer.register(s);
      }
      return shardSet(location, shards, List.copyOf(names), closer);
    });
  }

  private static Model single(String location, ByteSource src, Closer closer) throws IOException {
    Codec c = Codecs.reader(false, src);
    if (c == null) {
      throw new ModelFormatException(location, "model file", 0, "not a SameDiff model: no " + Codecs.magics()
          + " magic at its start");
    }
    return c.open(location, src, closer); // the fallback's reader says what the file lacks
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
      names.add(n != null && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? n.toString() : null);
    }
    return shardSet(location, sources, names, closer);
  }

  /**
   * The model of open shards, shard 0 first: a container's (by its magic) or an SDNB's; {@code files}
   * are the file names they were read from (ShardLayout#files), empty when they are not files.
   */
  private static Model shardSet(String location, List<ByteSource> shards, List<String> files, Closer closer)
      throws IOException {
    prefetch(shards, true); // an object store's shards: every head and tail in one round trip, each index as its ends arrive
    Codec c = Codecs.reader(true, shards.get(0));
    if (c == null) {
      throw new ModelFormatException(location, "model file", 0, "shard 0 is none of "
          + Codecs.list(ModelFormat::sharded, "or"));
    }
    return c.openShards(location, shards, files, closer); // the fallback's reader says what shard 0 lacks
  }

  /**
   * What an opening from an object store fetches before it parses: every source's first and last
   * blocks at once, and each one's index (its codec's {@link Codec#prefetchIndex}: SDNB's FlatGraph)
   * as soon as that source's own ends are held ({@link ParallelReads#prefetchEnds(List,
   * ParallelReads.Next)}); nothing for sources that do not prefetch (local files). {@code sharded}:
   * the sources are a shard set's. A format error found while asking is not thrown here: the
   * reader meets it again and reports it in the shards' order, as a shard-by-shard open would.
   */
  public static void prefetch(List<ByteSource> sources, boolean sharded) throws IOException {
    ParallelReads.prefetchEnds(sources, src -> {
      Codec c = Codecs.reader(sharded, src); // its magic, from the head just fetched
      if (c == null) {
        return;
      }
      try {
        c.prefetchIndex(src);
      } catch (ModelFormatException reportedByTheReader) {
        // the parse reads the same bytes and throws this, after any error of a lower shard
      }
    });
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
    for (String e : ext != null ? List.of(ext) : Codecs.shardExtensions()) {
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
