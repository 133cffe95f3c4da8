package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.hostile.HostileSupport.create;
import static org.modelfs.hostile.HostileSupport.pattern;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/** Fault 8: an interrupted reader must not make the mount read another container's bytes. */
class InterruptHostileTest {
  private static final int FLOATS = 1_000_000; // 4 MB a param

  @TempDir Path tmp;

  /**
   * Fault 8: mount A of m.fb; mount B of the same file replaces every param and commits; a
   * thread of A reading /params/x is interrupted (future.cancel(true)); then another thread of
   * A reads /params/y: A's old bytes of y or an IOException, never other bytes.
   * FAILS TODAY: A reopens the container by its path after the interrupt closed its channel, and
   * so reads y from B's new file: y comes back as B's new bytes of y. (With a loop that checks
   * isInterrupted() between reads the interrupt can miss the channel and the test passes: the
   * read must be the thing interrupted.)
   */
  @Test
  void fault8_afterAnInterruptAReadsItsOwnContainerOrFails() throws Exception {
    Map<String, byte[]> params = new LinkedHashMap<>();
    params.put("x", pattern(FLOATS, 1));
    params.put("y", pattern(FLOATS, 2));
    params.put("z", pattern(FLOATS, 3));
    Path m = create(tmp.resolve("m.fb"), Map.of(), params);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (FileSystem a = ModelFileSystems.open(m)) { // a plain mount that only reads
      try (FileSystem b = ModelFileSystems.open(m)) {
        for (Map.Entry<String, byte[]> e : params.entrySet()) {
          Files.write(b.getPath("/params/" + e.getKey()), pattern(FLOATS, 10 + e.getKey().charAt(0)));
        }
      } // B commits: m.fb is replaced
      CountDownLatch reading = new CountDownLatch(1);
      Future<?> f = pool.submit((Callable<Void>) () -> {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        try (FileChannel ch = FileChannel.open(a.getPath("/params/x"))) {
          long size = ch.size();
          for (long pos = 0; ; pos = (pos + buf.capacity()) % size) { // until ClosedByInterruptException
            buf.clear();
            ch.read(buf, pos);
            reading.countDown();
          }
        }
      });
      assertTrue(reading.await(30, TimeUnit.SECONDS), "the reader never read");
      Thread.sleep(20);
      f.cancel(true);
      try {
        f.get(10, TimeUnit.SECONDS);
      } catch (ExecutionException | CancellationException e) {
        // cancelled or ClosedByInterruptException: expected
      }
      Future<byte[]> y = pool.submit(() -> Files.readAllBytes(a.getPath("/params/y")));
      byte[] got;
      try {
        got = y.get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        assertTrue(e.getCause() instanceof IOException, "not an IOException: " + e.getCause());
        return; // an IOException is allowed
      }
      boolean isB = Arrays.equals(got, pattern(FLOATS, 10 + 'y'));
      assertArrayEquals(params.get("y"), got, "A read y after the interrupt: not A's old bytes of y"
          + (isB ? " but B's new bytes of y" : ""));
    } finally {
      pool.shutdownNow();
    }
  }
}
