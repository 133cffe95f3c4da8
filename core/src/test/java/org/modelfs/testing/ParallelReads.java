package org.modelfs.testing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Many threads reading at once, all starting together: each thread makes {@code reads} reads of
 * its own choosing (a random generator seeded by the thread's number), each into a cleared
 * little-endian buffer of one size, and says whether the bytes were right.
 */
public final class ParallelReads {
  private ParallelReads() {}

  /** One read: fill {@code buf} from a place chosen with {@code random}; return whether its bytes are right. */
  public interface Read {
    boolean readAndCheck(SplittableRandom random, ByteBuffer buf) throws Exception;
  }

  /** Runs {@code threads} × {@code reads} reads of {@code size} bytes; returns how many were wrong. */
  public static int wrong(int threads, int reads, int size, Read read) throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t;
        done.add(pool.submit(() -> {
          SplittableRandom random = new SplittableRandom(seed);
          ByteBuffer buf = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
          start.await();
          int wrong = 0;
          for (int r = 0; r < reads; r++) {
            buf.clear();
            if (!read.readAndCheck(random, buf)) {
              wrong++;
            }
          }
          return wrong;
        }));
      }
      int wrong = 0;
      for (Future<Integer> f : done) {
        wrong += f.get();
      }
      return wrong;
    } finally {
      pool.shutdownNow();
    }
  }
}
