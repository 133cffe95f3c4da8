package org.modelfs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * This JVM's open file descriptors, from {@code /proc/self/fd} (Linux): how many, how many point
 * at deleted files ({@code (deleted)}: replaced containers, unlinked journal or cache files) and
 * how many bytes those hold — space {@code df} sees and {@code ls} does not.
 *
 * @param open descriptors open
 * @param deleted descriptors on deleted files
 * @param deletedBytes bytes of those deleted files
 */
public record Descriptors(int open, int deleted, long deletedBytes) {
  private static final Path FD = Path.of("/proc/self/fd");

  /** Whether this system has {@code /proc/self/fd}. */
  public static boolean available() {
    return Files.isDirectory(FD);
  }

  /** The descriptors open now. */
  public static Descriptors now() throws IOException {
    int open = 0;
    int deleted = 0;
    long bytes = 0;
    try (Stream<Path> s = Files.list(FD)) {
      for (Path fd : (Iterable<Path>) s::iterator) {
        String target;
        try {
          target = Files.readSymbolicLink(fd).toString();
        } catch (NoSuchFileException e) {
          continue; // closed meanwhile (e.g. the listing's own descriptor)
        }
        open++;
        if (target.endsWith(" (deleted)")) {
          deleted++;
          try {
            bytes += Files.size(fd); // stat follows the link to the inode, deleted or not
          } catch (NoSuchFileException e) {
            // closed meanwhile
          }
        }
      }
    }
    return new Descriptors(open, deleted, bytes);
  }

  /** Bytes of the regular files under {@code dir} (0 when it does not exist). */
  public static long bytesUnder(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      long total = 0;
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          total += Files.size(p);
        }
      }
      return total;
    }
  }

  /** Bytes of the journal directories beside {@code model} ({@code .<name>.modelfs-journal-*}). */
  public static long journalBytes(Path model) throws IOException {
    String prefix = "." + model.getFileName() + ".modelfs-journal-";
    long total = 0;
    try (Stream<Path> s = Files.list(model.toAbsolutePath().getParent())) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (p.getFileName().toString().startsWith(prefix)) {
          total += bytesUnder(p);
        }
      }
    }
    return total;
  }
}
