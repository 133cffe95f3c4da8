package org.modelfs.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;

/** Real FIFOs for tests: made by {@code mkfifo(1)}, read by a {@code cat(1)} child. */
public final class Fifos {
  private Fifos() {}

  /** Makes a FIFO at {@code p}; the test is skipped where {@code mkfifo} is missing or fails. */
  public static void make(Path p) throws Exception {
    Process mk;
    try {
      mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("mkfifo unavailable: " + e);
      return;
    }
    Assumptions.assumeTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo failed");
  }

  /**
   * A {@code cat} reading the FIFO; every byte it read is put in {@code got} at end of file
   * (nothing if it is killed first). The caller destroys the process.
   */
  public static Process reader(Path fifo, AtomicReference<byte[]> got) throws IOException {
    Process cat = new ProcessBuilder("cat", fifo.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    Thread reader = new Thread(() -> {
      try (InputStream in = cat.getInputStream()) {
        got.set(in.readAllBytes());
      } catch (IOException e) {
        got.set(new byte[0]);
      }
    });
    reader.setDaemon(true);
    reader.start();
    return cat;
  }

  /**
   * What the reader got once {@code cat} ended within {@code seconds} and its bytes were
   * collected; {@code null} if it had not (no end of file: the FIFO was replaced under it).
   */
  public static byte[] await(Process cat, AtomicReference<byte[]> got, long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    if (!cat.waitFor(seconds, TimeUnit.SECONDS)) {
      return null;
    }
    while (got.get() == null && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return got.get();
  }
}
