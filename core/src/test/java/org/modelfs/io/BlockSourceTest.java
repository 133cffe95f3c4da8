package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link BlockSource} held to what every store's source does, with a fake store in memory that
 * records the ranges it is asked for: the checks before any request, an aligned block per small
 * read, forward walks in doubling runs up to the cap, large reads in ranges of at most the fetch
 * limit sent at once, prefetches as one fetch of the missing runs up to their cap, the store's
 * failure thrown as it was, a short answer refused, and many readers at once reading the object's
 * bytes (against the bytes themselves, random reads).
 */
class BlockSourceTest {
  private static final int B = 4096;
  /** 8 blocks per range at most, runs of up to 8 blocks, prefetches of up to 6, 2 ranges per large read. */
  private static final BlockSource.Shape SHAPE = new BlockSource.Shape(B, 8 * B, 8, 6, 2);

  /** The fake store's object: its fetches recorded as "block+blocks" (or bytes when not whole blocks), one list per fetch. */
  private static final class Fake extends BlockSource {
    final byte[] bytes;
    final List<List<String>> fetches = Collections.synchronizedList(new ArrayList<>());
    volatile IOException fails;
    volatile int shortBy;
    final AtomicLong bytesFetched = new AtomicLong();

    Fake(byte[] bytes, Cache cache) {
      super("bucket/model.fb", bytes.length, SHAPE, cache);
      this.bytes = bytes;
    }

    Fake(byte[] bytes) {
      this(bytes, new BlockLru(64));
    }

    @Override
    protected void fetch(long[] positions, int[] lengths, Fetched got) throws IOException {
      List<String> asked = new ArrayList<>();
      for (int i = 0; i < positions.length; i++) {
        assertTrue(positions[i] >= 0 && lengths[i] > 0 && positions[i] + lengths[i] <= bytes.length,
            "a range inside the object: " + positions[i] + "+" + lengths[i]);
        assertTrue(lengths[i] <= SHAPE.maxFetch(), "a range within the fetch limit: " + lengths[i]);
        asked.add(positions[i] % B == 0 && (lengths[i] % B == 0 || positions[i] + lengths[i] == bytes.length)
            ? positions[i] / B + "+" + (lengths[i] + B - 1) / B : positions[i] + "+" + lengths[i] + "b");
      }
      fetches.add(asked);
      bytesFetched.addAndGet(Arrays.stream(lengths).asLongStream().sum());
      if (fails != null) {
        throw fails;
      }
      for (int i = 0; i < positions.length; i++) {
        int from = (int) positions[i];
        got.got(i, Arrays.copyOfRange(bytes, from, from + lengths[i] - shortBy));
      }
    }

    /** The fetches since the last call. */
    List<List<String>> take() {
      synchronized (fetches) {
        List<List<String>> out = new ArrayList<>(fetches);
        fetches.clear();
        return out;
      }
    }
  }

  private static byte[] content(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] read(ByteSource src, long position, int length) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(length);
    src.readFully(b, position);
    return b.array();
  }

  @Test
  void theChecksComeBeforeAnyRequest() throws IOException {
    Fake src = new Fake(content(10 * B, 1));
    assertEquals(-1, src.read(ByteBuffer.allocate(10), 10 * B));
    assertEquals(0, src.read(ByteBuffer.allocate(0), 5));
    IllegalArgumentException neg = assertThrows(IllegalArgumentException.class, () -> src.read(ByteBuffer.allocate(1), -1));
    assertEquals("bucket/model.fb: negative position -1", neg.getMessage());
    src.prefetch(10 * B, 100); // past the end: nothing
    src.prefetch(0, 0);
    assertEquals(List.of(), src.take());
    assertTrue(src.prefetches());
    src.close();
    assertThrows(ClosedChannelException.class, () -> src.read(ByteBuffer.allocate(1), 0));
    assertThrows(ClosedChannelException.class, () -> src.prefetch(0, 1));
    src.close(); // twice is once
    assertEquals(List.of(), src.take());
  }

  @Test
  void aSmallReadFetchesItsBlockOnceAndAForwardWalkDoublesUpToTheCap() throws IOException {
    byte[] c = content(40 * B + 100, 2);
    Fake src = new Fake(c);
    assertArrayEquals(Arrays.copyOfRange(c, 10, 20), read(src, 10, 10));
    assertArrayEquals(Arrays.copyOfRange(c, 3000, 3100), read(src, 3000, 100));
    assertEquals(List.of(List.of("0+1")), src.take());
    for (int at = B; at < 40 * B + 100; at += 1024) { // a Files.copy of the rest, in 1 KiB reads
      int n = Math.min(1024, c.length - at);
      assertArrayEquals(Arrays.copyOfRange(c, at, at + n), read(src, at, n));
    }
    assertEquals(List.of(List.of("1+2"), List.of("3+4"), List.of("7+8"), List.of("15+8"), List.of("23+8"),
        List.of("31+8"), List.of("39+2")), src.take(), "runs that double to 8 blocks, the last one short");
    read(src, 20 * B, 1); // cached: the LRU holds 64 blocks
    read(src, 100, 1);
    assertEquals(List.of(), src.take());
  }

  @Test
  void aReadAwayFromTheWalkFetchesOneBlock() throws IOException {
    Fake src = new Fake(content(40 * B, 3), new BlockLru(2));
    read(src, 0, 1);
    read(src, B, 1); // the walk: blocks 1 and 2
    read(src, 30 * B + 7, 1);
    read(src, 0, 1); // dropped by the two-block cache: fetched again, alone
    assertEquals(List.of(List.of("0+1"), List.of("1+2"), List.of("30+1"), List.of("0+1")), src.take());
  }

  @Test
  void aLargeReadIsRangesOfAtMostTheFetchLimitSentAtOnceAndNotCached() throws IOException {
    byte[] c = content(40 * B, 4);
    Fake src = new Fake(c);
    ByteBuffer dst = ByteBuffer.allocate(20 * B);
    int n = src.read(dst, 100);
    assertEquals(16 * B, n, "two ranges of eight blocks");
    assertArrayEquals(Arrays.copyOfRange(c, 100, 100 + 16 * B), Arrays.copyOf(dst.array(), n));
    assertEquals(List.of(List.of("100+32768b", (100 + 8 * B) + "+32768b")), src.take());
    ByteBuffer one = ByteBuffer.allocate(B);
    src.read(one, 39 * B);
    assertEquals(List.of(List.of("39+1")), src.take(), "exactly what it asks for");
    read(src, 200, 1);
    assertEquals(List.of(List.of("0+1")), src.take(), "a large read caches nothing");
  }

  @Test
  void aPrefetchFetchesTheMissingRunsAtOnceUpToItsCapAndTheWalkGoesOnFromThere() throws IOException {
    byte[] c = content(40 * B, 5);
    Fake src = new Fake(c);
    read(src, 2 * B, 1);
    src.take();
    src.prefetch(100, 20 * B); // blocks 0..5 at most; 2 is held
    assertEquals(List.of(List.of("0+2", "3+3")), src.take());
    for (int at = 0; at < 6 * B; at += 512) {
      assertArrayEquals(Arrays.copyOfRange(c, at, at + 512), read(src, at, 512));
    }
    assertEquals(List.of(), src.take(), "what was prefetched is read from the cache");
    src.prefetch(0, 6 * B);
    assertEquals(List.of(), src.take(), "held: nothing asked");
    read(src, 6 * B, 1);
    assertEquals(List.of(List.of("6+2")), src.take(), "the walk goes on after the prefetched blocks");
  }

  @Test
  void theStoresFailureIsThrownAsItWasAndNothingIsCached() throws IOException {
    Fake src = new Fake(content(40 * B, 6));
    FileSystemException changed = new FileSystemException("bucket/model.fb", null, "the model changed since it was mounted");
    src.fails = changed;
    assertSame(changed, assertThrows(IOException.class, () -> src.read(ByteBuffer.allocate(1), 0)));
    assertSame(changed, assertThrows(IOException.class, () -> src.read(ByteBuffer.allocate(5 * B), 0)));
    assertSame(changed, assertThrows(IOException.class, () -> src.prefetch(0, 3 * B)));
    src.take();
    src.fails = null;
    read(src, 0, 1);
    assertEquals(List.of(List.of("0+1")), src.take(), "the failed fetches cached nothing");
  }

  @Test
  void aStoreThatAnswersShortIsRefusedNamingTheSource() throws IOException {
    Fake src = new Fake(content(40 * B, 7));
    src.shortBy = 1;
    FileSystemException e = assertThrows(FileSystemException.class, () -> src.read(ByteBuffer.allocate(1), 5 * B));
    assertEquals("bucket/model.fb", e.getFile());
    assertTrue(e.getMessage().contains("a fetch of 4096 bytes at offset 20480 returned 4095 bytes"), e.getMessage());
    assertThrows(FileSystemException.class, () -> src.read(ByteBuffer.allocate(5 * B), 0));
    assertThrows(FileSystemException.class, () -> src.prefetch(0, 1));
  }

  @Test
  void closingDropsTheCachedBlocks() throws IOException {
    BlockLru cache = new BlockLru(8);
    Fake src = new Fake(content(10 * B, 8), cache);
    read(src, 0, 1);
    assertTrue(cache.get(0) != null);
    src.close();
    assertNull(cache.get(0));
  }

  @Test
  void manyReadersAtOnceReadTheObjectsBytes() throws Exception {
    byte[] c = content(100 * B + 33, 9);
    Fake src = new Fake(c, new BlockLru(16));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Void>> jobs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long seed = t;
        jobs.add(pool.submit(() -> {
          Random r = new Random(seed);
          for (int k = 0; k < 300; k++) {
            int at = r.nextInt(c.length);
            int len = 1 + r.nextInt(k % 10 == 0 ? 12 * B : 2 * B);
            if (k % 7 == 0) {
              src.prefetch(at, len);
            }
            ByteBuffer b = ByteBuffer.allocate(len);
            int n = src.read(b, at);
            assertTrue(n > 0 && n <= Math.min(len, c.length - at), "read " + n);
            assertArrayEquals(Arrays.copyOfRange(c, at, at + n), Arrays.copyOf(b.array(), n), "bytes at " + at);
          }
          return null;
        }));
      }
      for (Future<Void> f : jobs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The bound OBJECT-STORES.md §2 states for a parameter of P bytes walked forward in small reads
   * (a Files.copy): at most P + min(P, the longest run) + 2 blocks fetched, every byte right —
   * random parameters, starts and buffer sizes.
   */
  @Test
  void aForwardWalkFetchesAtMostTheDocumentedBound() throws IOException {
    Random r = new Random(34);
    byte[] c = content(300 * B + 77, 10);
    for (int k = 0; k < 60; k++) {
      Fake src = new Fake(c, new BlockLru(1024));
      int start = r.nextInt(c.length - 1);
      int p = 1 + r.nextInt(Math.min(c.length - start, 120 * B));
      int buf = 1 + r.nextInt(B - 1);
      for (int at = start; at < start + p; ) {
        int n = src.read(ByteBuffer.allocate(Math.min(buf, start + p - at)), at);
        assertTrue(n > 0);
        at += n;
      }
      long fetched = src.bytesFetched.get();
      long bound = p + Math.min(p, (long) SHAPE.runBlocks() * B) + 2L * B;
      assertTrue(fetched <= bound, "walk of " + p + " bytes from " + start + " in " + buf + "-byte reads fetched "
          + fetched + " > " + bound);
    }
  }

  @Test
  void aShapeWhoseRunsPassTheFetchLimitIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new BlockSource.Shape(B, 4 * B, 8, 4, 1));
    assertThrows(IllegalArgumentException.class, () -> new BlockSource.Shape(B, 4 * B, 4, 8, 1));
    assertThrows(IllegalArgumentException.class, () -> new BlockSource.Shape(B, B / 2, 1, 1, 1));
  }

  @Test
  void theLruKeepsAFetchsFirstBlockAsTheMostRecentlyUsed() {
    BlockLru lru = new BlockLru(3);
    lru.put(0, List.of(new byte[] {0}, new byte[] {1}, new byte[] {2}));
    lru.put(10, List.of(new byte[] {10}));
    assertNull(lru.get(2), "the run's last block was its least recently used");
    assertEquals(0, lru.get(0)[0]);
    assertEquals(1, lru.get(1)[0]);
  }
}
