package org.modelfs.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The three steps every commit is made of: force a file's bytes to disk, rename it atomically
 * over its target, force the directory so the rename itself survives a power cut. Where the
 * file's provider cannot force (no {@code FileChannel}, directories that cannot be opened), the
 * step is skipped: that provider gives no durability to ask for.
 */
public final class Durable {
  private Durable() {}

  /** Forces the content of {@code file} to its storage device. */
  public static void force(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.force(true);
    } catch (UnsupportedOperationException e) {
      // the provider has no FileChannel: nothing to force
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
}
