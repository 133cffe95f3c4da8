package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.modelfs.tree.Content;

/**
 * {@link MapCache} makes a copy outside its monitor (docs/ARCHITECTURE.md, lock order: the monitor
 * takes no other lock): a copy that is slow to read blocks neither a copy of other content nor a
 * commit's {@link MapCache#clear}, and a copy made across a clear is not kept.
 */
class MapCacheTest {
  /** Only a guard against a hang: a passing test never waits this long. */
  private static final long HANG_GUARD_SECONDS = 120;

  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final OpenResources resources = new OpenResources();
  private final MapCache cache = new MapCache(resources, "m.fb");

  @AfterEach
  void stop() throws IOException {
    pool.shutdownNow();
    resources.closeAll();
  }

  /** {@code size} bytes of {@code value}; the first read waits for {@code release} if one is given. */
  private static Content content(int size, byte value, CountDownLatch reading, CountDownLatch release) {
    return new Content() {
      @Override
      public long size() {
        return size;
      }

      @Override
      public int read(ByteBuffer dst, long position) throws IOException {
        if (release != null) {
          reading.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            throw new InterruptedIOException("the test stopped");
          }
        }
        if (position >= size) {
          return -1;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        for (int i = 0; i < n; i++) {
          dst.put(value);
        }
        return n;
      }
    };
  }

  private static byte first(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(1);
    ch.read(b, 0);
    return b.get(0);
  }

  @Test
  void aSlowCopyBlocksNeitherAnotherCopyNorAClear() throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Content slow = content(10, (byte) 1, reading, release);
    Future<FileChannel> slowCopy = pool.submit(() -> cache.channel(slow, "/params/slow"));
    reading.await();
    try {
      Content quick = content(10, (byte) 2, null, null);
      Future<FileChannel> other = pool.submit(() -> cache.channel(quick, "/params/quick"));
      FileChannel q = other.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      assertEquals(2, first(q));
      assertSame(q, cache.channel(quick, "/params/quick"), "kept");
      pool.submit(() -> {
        cache.clear();
        return null;
      }).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
      assertFalse(q.isOpen(), "a clear closes the copies it finds");
    } finally {
      release.countDown();
    }
    FileChannel s = slowCopy.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    assertFalse(s.isOpen(), "made across a clear: closed, so that its caller asks again");
    FileChannel again = cache.channel(slow, "/params/slow");
    assertTrue(again.isOpen());
    assertEquals(1, first(again));
    assertSame(again, cache.channel(slow, "/params/slow"));
  }

  @Test
  void atMostMaxCopiesStayOpen() throws IOException {
    FileChannel[] made = new FileChannel[MapCache.MAX_COPIES + 2];
    for (int i = 0; i < made.length; i++) {
      made[i] = cache.channel(content(4, (byte) i, null, null), "/params/p" + i);
    }
    int open = 0;
    for (FileChannel ch : made) {
      open += ch.isOpen() ? 1 : 0;
    }
    assertEquals(MapCache.MAX_COPIES, open);
    assertFalse(made[0].isOpen(), "least recently used first");
    assertEquals(MapCache.MAX_COPIES, resources.count(), "evicted copies are no longer registered");
  }
}
