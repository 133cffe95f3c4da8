package org.modelfs.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import org.modelfs.format.Codec;
import org.modelfs.format.Codecs;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.io.ChannelSource;

/**
 * A model's one identity, whatever spelling reached it: the real directory it lives in and its
 * key name. Every file ModelFS keeps beside a model (lock, journal, commit record, temporaries,
 * {@link SidecarNames}) is named after the key, so every spelling shares one lock and one
 * recovery scope.
 *
 * <ul>
 *   <li>A single file is its own name: {@code bert.fb}, {@code bert.sdz}. A symbolic link to a
 *       model resolves to the real file: the model is committed where it really lives and the
 *       link keeps pointing at it.
 *   <li>A shard set and the single SDNB file of the same base are one model (a commit may turn one
 *       into the other): {@code m.sdnb}, {@code m.SDNB}, {@code m} (when shards of {@code m} exist)
 *       and {@code m.shard<k>-of-<N>.sdnb} all have the key {@code m.sdnb}; its single file is
 *       {@code <base>.sdnb} in any case of the extension. The same holds for a container and its
 *       shards ({@code m.sdmc}, {@code m.shard<k>-of-<N>.sdmc}: key {@code m.sdmc}).
 * </ul>
 *
 * <p>Two identities are equal when directory and key are; that is what the in-JVM lock table
 * and the mount registry compare.
 */
public final class ModelId {
  private final Path dir;
  private final String fileName;
  private final String shardBase;
  /** The extension of the shard set ({@code sdnb} or {@code sdmc}), or {@code null}. */
  private final String shardExt;

  private ModelId(Path dir, String fileName, String shardBase, String shardExt) {
    this.dir = dir;
    this.fileName = fileName;
    this.shardBase = shardBase;
    this.shardExt = shardExt;
  }

  /**
   * The identity of the model at {@code spelling} (which need not exist yet: the directory must).
   *
   * @throws NoSuchFileException if the directory does not exist
   */
  public static ModelId of(Path spelling) throws IOException {
    Path abs = spelling.toAbsolutePath();
    Path name = abs.getFileName();
    Path parent = abs.getParent();
    if (name == null || parent == null || name.toString().equals(".") || name.toString().equals("..")) {
      throw new FileSystemException(spelling.toString(), null, "names a directory, not a model file");
    }
    Path dir;
    try {
      dir = parent.toRealPath();
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(spelling.toString(), null, "the model's directory does not exist");
    }
    String n = name.toString();
    Path here = dir.resolve(n);
    if (Files.isSymbolicLink(here)) {
      Path real;
      try {
        real = here.toRealPath();
      } catch (NoSuchFileException e) {
        throw new NoSuchFileException(spelling.toString(), null, "a symbolic link to a file that does not exist");
      }
      dir = real.getParent();
      n = real.getFileName().toString();
      here = real;
    }
    ShardNames.Shard s = ShardNames.parseAny(n);
    if (s != null) {
      if (Files.isRegularFile(here, LinkOption.NOFOLLOW_LINKS) && !holdsShard(here, s.ext())) {
        return new ModelId(dir, n, null, null); // named like a shard, but a model of its own (an fb, say)
      }
      return new ModelId(dir, s.base() + "." + s.ext(), s.base(), s.ext());
    }
    boolean regular = Files.isRegularFile(here, LinkOption.NOFOLLOW_LINKS);
    String ext = ShardNames.setExtension(n);
    if (ext != null) {
      String base = n.substring(0, n.length() - ext.length() - 1);
      return new ModelId(dir, regular ? n : base + "." + ext, base, ext);
    }
    if (!regular && n.indexOf('.') <= 0 && !Files.exists(here, LinkOption.NOFOLLOW_LINKS)) {
      String found = anyShard(dir, n);
      if (found != null) {
        return new ModelId(dir, n + "." + found, n, found); // a shard set named by its bare base
      }
    }
    return new ModelId(dir, n, null, null);
  }

  /**
   * The extension of some shard of {@code base} in {@code dir} ({@code null} if none) — not whether the set is complete: a
   * commit that changes the shard count, or a crash in one, leaves a mixed set that is still
   * this model (and is what recovery must reach).
   */
  private static String anyShard(Path dir, String base) throws IOException {
    String found = null;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        ShardNames.Shard s = ShardNames.parseAny(p.getFileName().toString());
        if (s != null && s.base().equals(base) && (found == null || s.ext().equals(ShardNames.SDNB))) {
          found = s.ext(); // SDNB shards win when both kinds are there, as before containers existed
        }
      }
    }
    return found;
  }

  /**
   * Whether the regular file {@code file} starts as a shard of its family does (the magic of the
   * sharded format whose shards are {@code .<ext>}: SDNB for {@code .sdnb}, {@code SAMEDIFF_MODEL}
   * for {@code .sdmc}). A file that is too short or holds something else is no shard, whatever
   * its name.
   */
  public static boolean holdsShard(Path file, String ext) throws IOException {
    Codec family = Codecs.ofShardExtension(ext);
    try (ChannelSource src = ChannelSource.open(file)) {
      return family != null && family.sniff(src);
    }
  }

  /** This model written as a shard set: the base is the file name without its extension. */
  public ModelId asShardSet() {
    if (shardBase != null) {
      return this;
    }
    String base = ShardNames.base(fileName);
    return new ModelId(dir, base + "." + ShardNames.SDNB, base, ShardNames.SDNB);
  }

  /** The real directory the model lives in. */
  public Path dir() {
    return dir;
  }

  /** The single file's name (for a shard set: {@code <base>.sdnb}, which may not exist). */
  public String fileName() {
    return fileName;
  }

  /** The single file's path. */
  public Path file() {
    return dir.resolve(fileName);
  }

  /** The base of the shard set this model is or may become; {@code null} for other formats. */
  public String shardBase() {
    return shardBase;
  }

  /** The name every sidecar file is named after. */
  public String key() {
    return shardBase != null ? shardBase + "." + shardExt : fileName;
  }

  /**
   * Whether {@code name} is one of the files that make this model: its single file, or a shard
   * of its base.
   */
  public boolean isModelFile(String name) {
    if (name.equals(fileName)) {
      return true;
    }
    if (shardBase == null) {
      return false;
    }
    if (name.length() == shardBase.length() + 1 + shardExt.length() && name.startsWith(shardBase)
        && name.substring(shardBase.length()).equalsIgnoreCase("." + shardExt)) {
      return true; // the single file, however its extension is spelled (m.sdnb, m.SDNB)
    }
    ShardNames.Shard s = ShardNames.parseAny(name);
    return s != null && s.base().equals(shardBase) && s.ext().equals(shardExt);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ModelId m && m.dir.equals(dir) && m.key().equals(key());
  }

  @Override
  public int hashCode() {
    return dir.hashCode() * 31 + key().hashCode();
  }

  @Override
  public String toString() {
    return dir.resolve(key()).toString();
  }
}
