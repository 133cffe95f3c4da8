package org.modelfs.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Parses several sources at once, at most {@value #AT_ONCE} at a time, results in the sources'
 * order: a shard set in an object store is opened in the round trips of one shard's index, not
 * of every shard's one after another (issue 34). The reads are I/O-bound, so they run on threads
 * of their own (daemon, gone when the parse ends), not on the CPU-sized {@link DeflateWorkers}.
 *
 * <p>What the caller sees does not depend on timing: the results come in the sources' order, and
 * when parses fail the one of the lowest index is thrown, as a sequential parse would have thrown
 * it (the others, cancelled or failed, are dropped). One source, or a single-source list, is
 * parsed in the caller's thread.
 */
public final class ParallelReads {
  /** Sources parsed at once: requests in flight per shard set opening. */
  public static final int AT_ONCE = 8;
  private static final AtomicInteger THREADS = new AtomicInteger();

  private ParallelReads() {}

  /** Parses one source (it may read from it, from any thread). */
  @FunctionalInterface
  public interface Parser<T> {
    T parse(ByteSource src) throws IOException;
  }

  /** {@code parser} applied to every source, results in the sources' order. */
  public static <T> List<T> parseAll(List<? extends ByteSource> sources, Parser<T> parser) throws IOException {
    List<T> out = new ArrayList<>(sources.size());
    if (sources.size() < 2) {
      for (ByteSource s : sources) {
        out.add(parser.parse(s));
      }
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(AT_ONCE, sources.size()), r -> {
      Thread t = new Thread(r, "modelfs-shard-open-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<T>> futures = new ArrayList<>(sources.size());
      for (ByteSource s : sources) {
        futures.add(pool.submit(() -> parser.parse(s)));
      }
      for (Future<T> f : futures) {
        out.add(result(f));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> T result(Future<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException x = new InterruptedIOException("interrupted while opening the shards");
      x.initCause(e);
      throw x;
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException io) {
        throw io;
      }
      if (c instanceof RuntimeException re) {
        throw re;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IOException(c);
    }
  }
}
