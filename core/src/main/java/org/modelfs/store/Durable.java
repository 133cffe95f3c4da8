package org.modelfs.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * The file steps every commit is made of: create a file that did not exist (never through a
 * link), force its bytes to disk, rename it atomically over its target, force the directory so
 * the rename itself survives a power cut; and {@link #stamp}, what says "the same file". Where
 * the file's provider cannot force (no {@code FileChannel}, directories that cannot be opened),
 * the step is skipped: that provider gives no durability to ask for.
 */
public final class Durable {
  private static final Set<StandardOpenOption> CREATE_NEW = Set.of(StandardOpenOption.CREATE_NEW,
      StandardOpenOption.WRITE, StandardOpenOption.READ);

  private Durable() {}

  /**
   * Creates {@code file}, which must not exist ({@code CREATE_NEW}: a planted link or file at the
   * name fails the call instead of being written through), open for reading and writing.
   */
  public static SeekableByteChannel createNew(Path file) throws IOException {
    try {
      return FileChannel.open(file, CREATE_NEW);
    } catch (UnsupportedOperationException e) {
      return Files.newByteChannel(file, CREATE_NEW);
    }
  }

  /** Forces what was written through {@code ch} to the storage device. */
  public static void force(SeekableByteChannel ch) throws IOException {
    if (ch instanceof FileChannel fc) {
      fc.force(true);
    }
  }

  /** Forces the directory entry changes of {@code dir} (renames, deletes); best effort. */
  public static void forceDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // not every provider (or OS) can open a directory as a channel; the rename stays atomic
    }
  }

  /** Renames {@code from} over {@code to} atomically (plain replace where atomic moves don't exist). */
  public static void rename(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * What identifies the file now at {@code p} (not following a link): its file key (device and
   * inode) where the provider has one, with size and modification time; {@code null} if nothing
   * is there.
   */
  public static Stamp stamp(Path p) throws IOException {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    return new Stamp(a.fileKey() == null ? null : a.fileKey().toString(), a.size(),
        a.lastModifiedTime().toMillis(), a.isRegularFile());
  }

  /**
   * A file's identity at one moment. Two stamps are equal when they name the same file (same key)
   * unchanged (same size and time); without file keys, size and time alone.
   */
  public record Stamp(String key, long size, long modifiedMillis, boolean regular) {
    /** Whether both name the same file, whatever happened to its content. */
    public boolean sameFile(Stamp o) {
      return o != null && key != null && key.equals(o.key);
    }

    /** {@link #sameFile} where the provider has file keys, else equal size and time. */
    public boolean sameFileOrEqual(Stamp o) {
      return key != null ? sameFile(o) : equals(o);
    }
  }
}
