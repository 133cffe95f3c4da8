package org.modelfs.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Parses several sources at once, at most {@value #AT_ONCE} at a time, results in the sources'
 * order: a shard set in an object store is opened in the round trips of one shard's index, not
 * of every shard's one after another (issue 34). The reads are I/O-bound, so they run on threads
 * of their own (daemon, gone when the parse ends), not on the CPU-sized {@link DeflateWorkers}.
 *
 * <p>What the caller sees does not depend on timing: every parse has ended when
 * {@link #parseAll} returns, and the caller takes the outcomes in the sources' order
 * ({@link Results#get}), so a shard set's checks run, and fail, exactly as a shard-by-shard open
 * ran them. A single source is parsed in the caller's thread.
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

  /**
   * {@code parser} applied to every source, all parses finished (none still reads when this
   * returns); {@link Results#get} gives source k's result or throws its failure.
   */
  public static <T> Results<T> parseAll(List<? extends ByteSource> sources, Parser<T> parser) throws IOException {
    List<Future<T>> futures = new ArrayList<>(sources.size());
    if (sources.size() < 2) {
      for (ByteSource s : sources) {
        futures.add(done(s, parser));
      }
      return new Results<>(futures);
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(AT_ONCE, sources.size()), r -> {
      Thread t = new Thread(r, "modelfs-shard-open-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      for (ByteSource s : sources) {
        futures.add(pool.submit(() -> parser.parse(s)));
      }
      pool.shutdown();
      while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
        // every parse ends: a read ends or fails
      }
      return new Results<>(futures);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException x = new InterruptedIOException("interrupted while opening the shards");
      x.initCause(e);
      throw x;
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> Future<T> done(ByteSource s, Parser<T> parser) {
    CompletableFuture<T> f = new CompletableFuture<>();
    try {
      f.complete(parser.parse(s));
    } catch (IOException | RuntimeException | Error e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /** The parses' outcomes, by the sources' index. */
  public static final class Results<T> {
    private final List<Future<T>> futures;

    private Results(List<Future<T>> futures) {
      this.futures = futures;
    }

    /** Source k's result, or its parse's failure thrown as it was (a caller reading k in order fails as a sequential parse would). */
    public T get(int k) throws IOException {
      try {
        return futures.get(k).get();
      } catch (InterruptedException e) { // not reached: every future is done
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while opening the shards");
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

    /** Every result, in order; the lowest index's failure if any failed. */
    public List<T> all() throws IOException {
      List<T> out = new ArrayList<>(futures.size());
      for (int k = 0; k < futures.size(); k++) {
        out.add(get(k));
      }
      return out;
    }
  }
}
