package org.modelfs.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;

/**
 * What the fuzz targets share: a scratch directory per JVM (in {@code /dev/shm} when there is
 * one, so a run does not wear a disk), and the walk that touches everything a mount shows of a
 * model.
 */
final class FuzzFiles {
  /** The most bytes read of one file of a mount: enough to reach every decoder, bounded per input. */
  static final int READ_CAP = 4 << 20;
  private static final Path ROOT = scratchRoot();

  private FuzzFiles() {}

  private static Path scratchRoot() {
    try {
      Path shm = Path.of("/dev/shm");
      Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
      Path dir = Files.createTempDirectory(base, "modelfs-fuzz-");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A new empty directory for one input (the previous input's is removed first). */
  static Path freshDir(String name) {
    Path dir = ROOT.resolve(name);
    deleteTree(dir);
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code bytes} to {@code dir/name}. */
  static Path write(Path dir, String name, byte[] bytes) {
    try {
      return Files.write(dir.resolve(name), bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Mounts {@code model} read-only and touches everything it shows: every directory listed,
   * both attribute views of every entry, the first {@link #READ_CAP} bytes of every file
   * (arrays, graph, graph.json, training.json, metadata). Returns the number of entries. Walks
   * with {@link Files#walkFileTree}, which passes on the provider's {@link IOException}s as they
   * are ({@code Files.walk}'s stream would wrap them in {@link UncheckedIOException}).
   */
  static int walk(Path model) throws IOException {
    int[] entries = {0};
    ByteBuffer buf = ByteBuffer.allocate(64 << 10);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      Files.walkFileTree(fs.getPath("/"), new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
          entries[0]++;
          Files.readAttributes(dir, "samediff:*");
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          entries[0]++;
          Files.readAttributes(file, "samediff:*");
          if (attrs.isRegularFile()) {
            readSome(file, buf);
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          throw e;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          if (e != null) {
            throw e;
          }
          return FileVisitResult.CONTINUE;
        }
      });
    }
    return entries[0];
  }

  private static void readSome(Path file, ByteBuffer buf) throws IOException {
    try (SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.READ)) {
      long read = 0;
      while (read < READ_CAP) {
        buf.clear();
        int n = ch.read(buf);
        if (n < 0) {
          break;
        }
        read += n;
      }
    }
  }

  /** Removes {@code dir} and everything below it (links are removed, never followed). */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
