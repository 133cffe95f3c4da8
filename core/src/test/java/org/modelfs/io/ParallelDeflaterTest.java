package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ParallelDeflater}: one valid raw DEFLATE stream whatever the block boundaries, the same
 * bytes whatever the threads and the caller's write sizes, close to a serial stream's size; a
 * failed block or an interrupted caller stops the work with an {@link IOException}.
 */
class ParallelDeflaterTest {
  private static final int B = ParallelDeflater.BLOCK;
  private static final ExecutorService FOUR = Executors.newFixedThreadPool(4);
  private static final ExecutorService ONE = Executors.newSingleThreadExecutor();

  @AfterAll
  static void stop() {
    FOUR.shutdownNow();
    ONE.shutdownNow();
  }

  /** Text-like bytes (compressible, with repeats across block boundaries) or random ones. */
  static byte[] data(int n, boolean random) {
    byte[] b = new byte[n];
    Random r = new Random(n);
    if (random) {
      r.nextBytes(b);
      return b;
    }
    String[] words = {"weight ", "bias ", "layer0/W ", "0.125 ", "-3.5e-2 ", "\n", "gamma ", "beta "};
    int i = 0;
    while (i < n) {
      byte[] w = words[r.nextInt(words.length)].getBytes();
      int k = Math.min(w.length, n - i);
      System.arraycopy(w, 0, b, i, k);
      i += k;
    }
    return b;
  }

  static byte[] deflate(byte[] in, DeflateWorkers w, int level, int piece) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ParallelDeflater d = new ParallelDeflater(Channels.newChannel(out), level, w, "test")) {
      for (int i = 0; i < in.length || i == 0; i += piece) {
        d.write(ByteBuffer.wrap(in, i, Math.min(piece, in.length - i)));
      }
      ParallelDeflater.Result r = d.finish();
      CRC32 crc = new CRC32();
      crc.update(in);
      assertEquals(crc.getValue(), r.crc(), "CRC-32 of the input");
      assertEquals(in.length, r.size());
      assertEquals(out.size(), r.compressedSize());
    }
    return out.toByteArray();
  }

  static byte[] inflate(byte[] raw, int expected) throws Exception {
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(raw);
      byte[] out = new byte[expected + 1];
      int n = 0;
      while (!inf.finished()) {
        int k = inf.inflate(out, n, out.length - n);
        assertTrue(k > 0 || inf.finished() || !inf.needsInput(), "the stream ends before its final block");
        n += k;
      }
      assertEquals(0, inf.getRemaining(), "nothing after the final block");
      return Arrays.copyOf(out, n);
    } finally {
      inf.end();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 32 << 10, B - 1, B, B + 1, 2 * B, 5 * B + 12345})
  void everySizeAroundTheBlocksInflatesToTheInput(int n) throws Exception {
    for (boolean random : new boolean[] {false, true}) {
      byte[] in = data(n, random);
      byte[] z = deflate(in, new DeflateWorkers(FOUR, 3), -1, 1 << 16);
      assertArrayEquals(in, inflate(z, n), n + " bytes, random " + random);
    }
  }

  @Test
  void theBytesDependOnlyOnTheInputAndLevel() throws Exception {
    byte[] in = data(4 * B + 777, false);
    byte[] a = deflate(in, new DeflateWorkers(ONE, 1), 6, B);
    for (DeflateWorkers w : List.of(new DeflateWorkers(FOUR, 2), new DeflateWorkers(FOUR, 8), DeflateWorkers.shared())) {
      for (int piece : new int[] {7, 65536, 3 * B}) {
        assertArrayEquals(a, deflate(in, w, 6, piece), w.inFlight() + " in flight, writes of " + piece);
      }
    }
    assertArrayEquals(a, deflate(in, DeflateWorkers.shared(), -1, B), "-1 is level 6");
    assertTrue(deflate(in, DeflateWorkers.shared(), 1, B).length != a.length, "the level is used");
  }

  /** Each block is primed with the 32 KiB before it, so the stream is about as small as a serial one. */
  @Test
  void theRatioStaysCloseToASerialStream() throws Exception {
    byte[] in = data(6 * B, false);
    Deflater d = new Deflater(6, true);
    d.setInput(in);
    d.finish();
    byte[] buf = new byte[in.length];
    int serial = 0;
    while (!d.finished()) {
      serial += d.deflate(buf);
    }
    d.end();
    int parallel = deflate(in, DeflateWorkers.shared(), 6, B).length;
    assertTrue(parallel <= serial * 1.01 + 64, parallel + " bytes in parallel, " + serial + " serially");
  }

  /** Runs {@code before} ahead of each task, on {@code pool}. */
  static final class Decorated extends AbstractExecutorService {
    interface Before {
      void run() throws Exception;
    }

    private final ExecutorService pool;
    private final Before before;

    Decorated(ExecutorService pool, Before before) {
      this.pool = pool;
      this.before = before;
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> c) {
      return new FutureTask<>(() -> {
        before.run();
        return c.call();
      });
    }

    @Override
    public void execute(Runnable r) {
      pool.execute(r);
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return false;
    }

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean awaitTermination(long t, TimeUnit u) {
      return false;
    }
  }

  @Test
  void aFailedBlockStopsTheStreamWithAnIOException() throws Exception {
    AtomicInteger started = new AtomicInteger();
    Decorated pool = new Decorated(ONE, () -> {
      if (started.incrementAndGet() == 3) {
        throw new IllegalStateException("injected failure");
      }
    });
    byte[] in = data(40 * B, true);
    IOException e = assertThrows(IOException.class, () -> deflate(in, new DeflateWorkers(pool, 2), 6, B));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertTrue(e.getMessage().startsWith("test: compressing a block failed"), e.getMessage());
    ONE.submit(() -> null).get(); // whatever was queued before has run or been cancelled
    assertTrue(started.get() <= 3 + 2, "blocks after the failure are not compressed: " + started.get());
  }

  @Test
  void anInterruptedCallerGetsInterruptedIOExceptionAndTheBlocksAreCancelled() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    AtomicInteger cancelled = new AtomicInteger();
    ExecutorService blocking = Executors.newFixedThreadPool(2);
    AtomicReference<Throwable> got = new AtomicReference<>();
    AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
    DeflateWorkers stuck = new DeflateWorkers(new Decorated(blocking, () -> {
      try {
        never.await();
      } catch (InterruptedException e) {
        cancelled.incrementAndGet();
        throw e;
      }
    }), 2);
    Thread t = new Thread(() -> {
      Thread.currentThread().interrupt();
      try {
        deflate(data(8 * B, false), stuck, 6, B);
      } catch (Throwable x) {
        got.set(x);
      }
      stillInterrupted.set(Thread.currentThread().isInterrupted());
    });
    t.start();
    t.join();
    assertInstanceOf(InterruptedIOException.class, got.get());
    assertTrue(stillInterrupted.get(), "the interrupt status stays set");
    blocking.shutdown();
    // a block still waiting would wait forever: only cancel(true) (or never starting) ends it
    assertTrue(blocking.awaitTermination(60, TimeUnit.SECONDS), "the blocks in flight were cancelled");
    assertTrue(cancelled.get() <= 2, "no more than the blocks in flight were started");
  }

  @Test
  void theSharedPoolsThreadsAreDaemons() throws Exception {
    Thread[] seen = new Thread[1];
    DeflateWorkers.shared().executor().submit(() -> seen[0] = Thread.currentThread()).get();
    assertTrue(seen[0].isDaemon(), "a compression thread never keeps the JVM alive");
  }
}
