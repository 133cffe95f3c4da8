package org.modelfs.format.badinput;

import java.io.FileInputStream;
import org.junit.jupiter.api.Assertions;
import org.modelfs.container.Models;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.format.badinput.BadInput.assertFormatError;
import static org.modelfs.format.badinput.BadInput.assertRefused;
import static org.modelfs.format.badinput.BadInput.openAndReadAll;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;

/**
 * Paths that are not regular model files: a directory, a missing file, a symlink loop, a named
 * pipe, device files. None may hang or fail with anything but an IOException.
 */
class ModelPathBadInputTest {
  @TempDir Path dir;

  @Test
  void directoryIsRefused() throws IOException {
    Path d = Files.createDirectory(dir.resolve("model.sdnb"));
    assertFormatError(d, "a directory");
  }

  @Test
  void missingFileIsAnIoException() {
    IOException e = BadInput.timed(() -> openAndReadAll(dir.resolve("nothing.fb"), "missing file"));
    assertInstanceOf(NoSuchFileException.class, e);
    assertTrue(e.getMessage().contains("nothing.fb"), e.getMessage());
  }

  @Test
  void missingShardBaseIsAnIoException() {
    IOException e = BadInput.timed(() -> openAndReadAll(dir.resolve("nothing.sdnb"), "missing base name"));
    assertTrue(e != null && e.getMessage().contains("nothing.sdnb"), String.valueOf(e));
  }

  @Test
  void symlinkLoopIsAnIoException() throws IOException {
    Path a = dir.resolve("a.fb");
    Path b = dir.resolve("b.fb");
    try {
      Files.createSymbolicLink(a, b);
      Files.createSymbolicLink(b, a);
    } catch (UnsupportedOperationException | IOException e) {
      Assumptions.abort("no symbolic links here: " + e);
    }
    IOException e = BadInput.timed(() -> openAndReadAll(a, "symlink loop"));
    assertTrue(e != null, "a symlink loop cannot be opened");
  }

  @Test
  void devNullIsRefused() {
    Path p = Path.of("/dev/null");
    Assumptions.assumeTrue(Files.exists(p));
    assertRefused(p, "/dev/null");
  }

  @Test
  void devZeroIsRefusedWithoutReadingForever() {
    Path p = Path.of("/dev/zero");
    Assumptions.assumeTrue(Files.exists(p));
    assertRefused(p, "/dev/zero");
  }

  /**
   * A named pipe with no writer: opening it for reading blocks in the operating system. The
   * reader must not hang on it (it is not a regular file).
   */
  @Test
  void namedPipeDoesNotHang() throws Exception {
    Path fifo = mkfifo(dir.resolve("pipe.fb"));
    assertNoHangOnPipe(fifo, fifo, "named pipe");
  }

  /** The same, when the pipe sits where a weight shard of a sharded model should be. */
  @Test
  void namedPipeAsWeightShardDoesNotHang() throws Exception {
    Path shards = Files.createDirectories(dir.resolve("sharded"));
    Samples.writeSynthetic(dir, shards.resolve("model.sdnb"),
        WriteOptions.of(ModelFormat.SHARDED_SDNB)
            .withMaxShardBytes(ShardedBadInputTest.LIMIT));
    Path s1 = shards.resolve(ShardedBadInputTest.S1);
    Files.delete(s1);
    mkfifo(s1);
    assertNoHangOnPipe(s1, shards.resolve("model.sdnb"), "named pipe in place of shard 1");
  }

  private static Path mkfifo(Path fifo) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("mkfifo not available: " + e);
      return fifo;
    }
    Assumptions.assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo failed");
    return fifo;
  }

  private static void assertNoHangOnPipe(Path fifo, Path open, String what) throws Exception {
    try {
      IOException e = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(2),
          () -> openAndReadAll(open, what), "Models.open hangs on a " + what + " without writer");
      assertTrue(e != null, "a named pipe is not a model");
      assertInstanceOf(ModelFormatException.class, e);
    } finally {
      // Release a reader still blocked in open(2): open the write end once, then close it (with
      // a reader of our own, so that the writer never blocks either).
      Thread w = new Thread(() -> {
        try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
          out.flush();
        } catch (IOException ignored) {
          // gone
        }
      }, "fifo-release-writer");
      Thread r = new Thread(() -> {
        try (FileInputStream in = new FileInputStream(fifo.toFile())) {
          in.readAllBytes();
        } catch (IOException ignored) {
          // gone
        }
      }, "fifo-release-reader");
      w.setDaemon(true);
      r.setDaemon(true);
      w.start();
      r.start();
      w.join(2000);
      r.join(100); // may stay blocked if the writer paired with a stuck reader: a daemon, harmless
    }
  }
}
