package org.modelfs.io;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where blocks are compressed (docs/PERFORMANCE.md, "Issue 18 item 5"): an executor and how many
 * blocks one writer may have in flight. {@link #shared()} is one pool per JVM, created on first
 * use, of {@code availableProcessors} daemon threads that end after {@value #IDLE_SECONDS} s idle:
 * concurrent commits share the cores instead of each starting its own threads, and the pool
 * never keeps a JVM alive nor outlives its use by more than the idle time.
 *
 * @param executor runs the compression tasks; it never runs a task in the caller's thread
 * @param inFlight the most blocks a single writer has submitted and not yet written (≥ 1)
 */
public record DeflateWorkers(ExecutorService executor, int inFlight) {
  static final int IDLE_SECONDS = 10;

  public DeflateWorkers {
    if (inFlight < 1) {
      throw new IllegalArgumentException("in flight must be at least 1: " + inFlight);
    }
  }

  /** The shared pool; each writer may have twice as many blocks in flight as there are threads. */
  public static DeflateWorkers shared() {
    return Shared.WORKERS;
  }

  /** The lazily created pool (the holder idiom: made the first time a writer compresses). */
  private static final class Shared {
    static final DeflateWorkers WORKERS = create();

    private static DeflateWorkers create() {
      int n = Math.max(1, Runtime.getRuntime().availableProcessors());
      AtomicInteger count = new AtomicInteger();
      ThreadFactory daemons = r -> {
        Thread t = new Thread(r, "modelfs-deflate-" + count.incrementAndGet());
        t.setDaemon(true);
        return t;
      };
      ThreadPoolExecutor pool = new ThreadPoolExecutor(n, n, IDLE_SECONDS, TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(), daemons);
      pool.allowCoreThreadTimeOut(true);
      return new DeflateWorkers(pool, 2 * n);
    }
  }
}
