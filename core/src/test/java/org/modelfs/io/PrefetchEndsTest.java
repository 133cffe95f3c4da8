package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ParallelReads#prefetchEnds}: every shard's head and tail are asked for before any answer
 * (each prefetch waits until all have started: a sequential or few-at-a-time prefetch fails the
 * bounded wait), so an open's round trips do not grow with the shard count; sources that do not
 * prefetch are left alone; the lowest shard's failure is the error. And {@link MissingBlocks}'s
 * runs. Time-free.
 */
class PrefetchEndsTest {
  /** A source of {@code size} bytes that records the ranges it is asked to prefetch. */
  private static class Remote implements ByteSource {
    final String name;
    final long size;
    final Set<String> asked = ConcurrentHashMap.newKeySet();
    final CountDownLatch all;
    final IOException fails;

    Remote(String name, long size, CountDownLatch all, IOException fails) {
      this.name = name;
      this.size = size;
      this.all = all;
      this.fails = fails;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long size() {
      return size;
    }

    @Override
    public int read(ByteBuffer dst, long position) {
      throw new AssertionError("prefetching reads nothing");
    }

    @Override
    public boolean prefetches() {
      return true;
    }

    @Override
    public void prefetch(long position, long length) throws IOException {
      asked.add(position + "+" + length);
      all.countDown();
      try {
        assertTrue(all.await(30, TimeUnit.SECONDS), "the shards' ends were not asked for at once");
      } catch (InterruptedException e) {
        throw new InterruptedIOException();
      }
      if (fails != null) {
        throw fails;
      }
    }

    @Override
    public void close() {}
  }

  @Test
  void everyShardsHeadAndTailAreAskedForBeforeAnyIsAnswered() throws IOException {
    int n = 30; // more than ParallelReads.AT_ONCE; two ends each: 60 ≤ PREFETCH_AT_ONCE
    CountDownLatch all = new CountDownLatch(2 * n);
    List<ByteSource> shards = new ArrayList<>();
    List<Remote> remote = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Remote r = new Remote("shard" + i, 64L << 20, all, null);
      remote.add(r);
      shards.add(r);
      shards.add(new HeapSource("local" + i, new byte[16])); // prefetches nothing: not asked, not waited for
    }
    ParallelReads.prefetchEnds(shards);
    for (Remote r : remote) {
      assertEquals(Set.of("0+1", ((64L << 20) - 1) + "+1"), r.asked, r.name);
    }
  }

  @Test
  void aSmallShardIsAskedForItsHeadAlone() throws IOException {
    Remote r = new Remote("small", ParallelReads.TAIL_APART, new CountDownLatch(1), null);
    ParallelReads.prefetchEnds(List.of(r));
    assertEquals(Set.of("0+1"), r.asked);
  }

  @Test
  void theLowestFailingShardIsTheError() {
    CountDownLatch all = new CountDownLatch(6);
    IOException third = new IOException("shard2: was replaced");
    List<ByteSource> shards = List.of(new Remote("shard0", 8L << 20, all, null),
        new Remote("shard1", 8L << 20, all, null), new Remote("shard2", 8L << 20, all, third));
    assertSame(third, assertThrows(IOException.class, () -> ParallelReads.prefetchEnds(shards)));
  }

  /** A source of {@code size} bytes whose prefetches run {@code onPrefetch} and are recorded in {@code log}. */
  private static ByteSource logged(String name, long size, List<String> log, ParallelReads.Next onPrefetch) {
    return new Remote(name, size, new CountDownLatch(0), null) {
      @Override
      public void prefetch(long position, long length) throws IOException {
        onPrefetch.fetch(this);
        log.add(name + "@" + position);
      }
    };
  }

  @Test
  void aSourcesIndexIsAskedForOnceItsOwnEndsAreHeldNotAfterEveryOthers() throws IOException {
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch firstIndexAsked = new CountDownLatch(1);
    long big = 64L << 20;
    ByteSource slow = logged("slow", big, log, src -> { // its ends arrive only after the other's index was asked for
      try {
        assertTrue(firstIndexAsked.await(30, TimeUnit.SECONDS), "the index waited for every shard's ends");
      } catch (InterruptedException e) {
        throw new InterruptedIOException();
      }
    });
    ByteSource quick = logged("quick", big, log, src -> { });
    ParallelReads.prefetchEnds(List.of(quick, slow), src -> {
      log.add(src.name() + " next");
      firstIndexAsked.countDown();
    });
    assertEquals(6, log.size(), log.toString());
    for (String name : List.of("quick", "slow")) {
      int next = log.indexOf(name + " next");
      assertTrue(next > log.indexOf(name + "@0") && next > log.indexOf(name + "@" + (big - 1)),
          name + "'s index after both its ends: " + log);
      assertEquals(next, log.lastIndexOf(name + " next"), "once: " + log);
    }
    assertTrue(log.indexOf("quick next") < log.indexOf("slow@0"), log.toString());
  }

  @Test
  void noIndexIsAskedForASourceWhoseEndsFailed() {
    IOException gone = new IOException("failing: was replaced");
    List<String> next = Collections.synchronizedList(new ArrayList<>());
    ByteSource failing = new Remote("failing", 64L << 20, new CountDownLatch(2), gone);
    assertSame(gone, assertThrows(IOException.class,
        () -> ParallelReads.prefetchEnds(List.of(failing), src -> next.add(src.name()))));
    assertEquals(List.of(), next);
  }

  @Test
  void missingBlocksAreRunsOfTheUnheldBoundedFromTheFirst() {
    Set<Long> held = new TreeSet<>(List.of(0L, 3L));
    // blocks of 10 bytes, a source of 95 bytes: [5, 95) is blocks 0..9, at most 6 from block 0
    List<MissingBlocks.Run> runs = MissingBlocks.of(5, 90, 95, 10, 6, held::contains);
    assertEquals(List.of(new MissingBlocks.Run(1, 10, 20), new MissingBlocks.Run(4, 40, 20)), runs);
    assertEquals(6, MissingBlocks.after(runs, 10));
    // the short last block
    assertEquals(List.of(new MissingBlocks.Run(8, 80, 15)), MissingBlocks.of(85, 100, 95, 10, 6, b -> false));
    // nothing: empty, past the end, all held
    assertEquals(List.of(), MissingBlocks.of(0, 0, 95, 10, 6, b -> false));
    assertEquals(List.of(), MissingBlocks.of(95, 5, 95, 10, 6, b -> false));
    assertEquals(List.of(), MissingBlocks.of(0, 95, 95, 10, 20, b -> true));
    assertEquals(-1, MissingBlocks.after(List.of(), 10));
  }

  @Test
  void openAllOpensEveryShardAtOnceAndClosesTheOpenedOnesWhenOneFails() throws IOException {
    int n = 20;
    CountDownLatch all = new CountDownLatch(n);
    List<ParallelReads.Opening> opens = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = "shard" + i;
      opens.add(() -> {
        all.countDown();
        try {
          assertTrue(all.await(30, TimeUnit.SECONDS), "the shards were not opened at once");
        } catch (InterruptedException e) {
          throw new InterruptedIOException();
        }
        return new HeapSource(name, new byte[1]);
      });
    }
    List<ByteSource> opened = ParallelReads.openAll(opens);
    assertEquals(n, opened.size());
    for (int i = 0; i < n; i++) {
      assertEquals("shard" + i, opened.get(i).name());
    }
    List<String> closed = Collections.synchronizedList(new ArrayList<>());
    IOException second = new IOException("shard2: was replaced or removed");
    List<ParallelReads.Opening> failing = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int k = i;
      failing.add(() -> {
        if (k == 2 || k == 4) {
          throw k == 2 ? second : new IOException("shard4");
        }
        return new Remote("shard" + k, 1, new CountDownLatch(0), null) {
          @Override
          public void close() {
            closed.add(name());
          }
        };
      });
    }
    assertSame(second, assertThrows(IOException.class, () -> ParallelReads.openAll(failing)));
    assertEquals(Set.of("shard0", "shard1", "shard3"), Set.copyOf(closed));
  }
}
