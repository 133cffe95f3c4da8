package org.modelfs.io;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.testing.SlowRuns;

/**
 * window() of a pooled source whose descriptor another reader closes: no window, never an error
 * (found by the issue-18 review).
 */
class PooledWindowTest {
  @TempDir Path tmp;

  @Test
  void aWindowOfAPooledSourceRacingTheLimit() throws Exception {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    long windows = 20;
    try (RandomAccessFile f = new RandomAccessFile(a.toFile(), "rw")) {
      f.setLength(windows * MappedWindows.WINDOW);
    }
    try (RandomAccessFile f = new RandomAccessFile(b.toFile(), "rw")) {
      f.setLength(4096);
    }
    DescriptorPool pool = new DescriptorPool(1);
    ChannelSource sa = ChannelSource.pooled("a", a, pool, false);
    ChannelSource sb = ChannelSource.pooled("b", b, pool, false);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> seen = new AtomicReference<>();
    Thread other = new Thread(() -> {
      ByteBuffer buf = ByteBuffer.allocate(16);
      while (!stop.get()) {
        try {
          sb.read(buf.clear(), 0);
        } catch (Exception e) {
          seen.compareAndSet(null, e);
        }
      }
    });
    other.start();
    int failures = 0;
    Throwable first = null;
    // 3 s of racing by default, 20 s under -Pslow
    long end = System.nanoTime() + SlowRuns.count("race.seconds", 3, 20) * 1_000_000_000L;
    long calls = 0;
    while (System.nanoTime() < end && failures < 3) {
      for (long w = 0; w < windows; w++) {
        try {
          sa.window(w * MappedWindows.WINDOW + 8, 4096);
        } catch (Exception e) {
          failures++;
          if (first == null) {
            first = e;
          }
        }
        calls++;
      }
    }
    stop.set(true);
    other.join();
    Assertions.assertEquals(0, failures, "window() of a pooled source lent to another reader: " + first);
    sa.close();
    sb.close();
  }
}
