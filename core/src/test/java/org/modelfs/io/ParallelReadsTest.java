package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Opening a shard set issues every shard's reads before the first completes (up to
 * {@link ParallelReads#AT_ONCE}): the round trips of an open do not grow with the shard count.
 * Time-free: each parse waits until all the others have started.
 */
class ParallelReadsTest {
  private static List<ByteSource> sources(int n) {
    List<ByteSource> s = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      s.add(new HeapSource("shard" + i, new byte[] {(byte) i}));
    }
    return s;
  }

  @Test
  void everyShardIsReadBeforeTheFirstReadCompletes() throws IOException {
    int n = ParallelReads.AT_ONCE;
    CountDownLatch started = new CountDownLatch(n);
    List<Integer> got = ParallelReads.parseAll(sources(n), src -> {
      started.countDown();
      // a sequential open would wait here forever (bounded: the test fails instead of hanging)
      try {
        assertTrue(started.await(30, TimeUnit.SECONDS), "shard reads were not issued at once");
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException();
      }
      byte[] b = new byte[1];
      src.read(java.nio.ByteBuffer.wrap(b), 0);
      return (int) b[0];
    }).all();
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), got);
  }

  @Test
  void atMostEightAtOnceResultsInOrder() throws IOException {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<String> got = ParallelReads.parseAll(sources(40), src -> {
      most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      Thread.yield();
      inFlight.decrementAndGet();
      return src.name();
    }).all();
    assertEquals(40, got.size());
    for (int i = 0; i < 40; i++) {
      assertEquals("shard" + i, got.get(i));
    }
    assertTrue(most.get() <= ParallelReads.AT_ONCE, "in flight: " + most.get());
  }

  @Test
  void theLowestFailingShardIsTheErrorAsASequentialOpenWouldSay() {
    IOException e = assertThrows(IOException.class, () -> ParallelReads.parseAll(sources(12), src -> {
      if (src.name().equals("shard3") || src.name().equals("shard9")) {
        throw new IOException(src.name() + ": bad index");
      }
      return src.name();
    }).all());
    assertEquals("shard3: bad index", e.getMessage());
  }

  @Test
  void oneSourceIsReadInTheCallersThread() throws IOException {
    Thread caller = Thread.currentThread();
    assertEquals(List.of(true), ParallelReads.parseAll(sources(1), src -> Thread.currentThread() == caller).all());
  }

  @Test
  void openingsOneAfterAnotherShareTheirThreads() throws IOException {
    java.util.Set<Thread> used = java.util.concurrent.ConcurrentHashMap.newKeySet();
    for (int round = 0; round < 20; round++) {
      ParallelReads.parseAll(sources(ParallelReads.AT_ONCE), src -> {
        Thread t = Thread.currentThread();
        assertTrue(t.isDaemon() && t.getName().startsWith("modelfs-io-"), t.getName());
        used.add(t);
        return null;
      }).all();
    }
    // a thread per job would be 160; the shared threads wait for the next opening
    assertTrue(used.size() <= 4 * ParallelReads.AT_ONCE, used.size() + " threads for 20 openings of 8");
  }
}
