package org.modelfs.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a mount's pending changes live until they are committed: the hidden directory
 * {@code .<model>.modelfs-journal} beside the model, one file per written array or value.
 * Bytes written through the file system stream into these files (the heap never holds them);
 * the container itself is never written. Closing deletes the journal.
 */
public final class Journal implements Closeable {
  private final Path dir;
  private final AtomicLong next = new AtomicLong();

  private Journal(Path dir) {
    this.dir = dir;
  }

  /** The journal directory of the model at {@code container}. */
  public static Path pathFor(Path container) {
    Path abs = container.toAbsolutePath();
    return abs.resolveSibling("." + abs.getFileName() + ".modelfs-journal");
  }

  /** Starts an empty journal, removing what a crashed writer left. Hold the writer lock. */
  public static Journal start(Path container) throws IOException {
    Path dir = pathFor(container);
    removeStale(container);
    Files.createDirectory(dir);
    return new Journal(dir);
  }

  /** Deletes the journal a crashed writer left, if any. Hold the writer lock. */
  public static void removeStale(Path container) throws IOException {
    deleteTree(pathFor(container));
  }

  /** A new, empty data file in the journal. */
  public Path newFile(String kind) throws IOException {
    return Files.createFile(dir.resolve(kind + "-" + next.incrementAndGet() + ".bin"));
  }

  @Override
  public void close() throws IOException {
    deleteTree(dir);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        Files.deleteIfExists(p);
      }
    }
    Files.deleteIfExists(dir);
  }
}
