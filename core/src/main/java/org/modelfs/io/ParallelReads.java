package org.modelfs.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
  /** Requests in flight when a shard set's ends are fetched ({@link #prefetchEnds}): two per shard for 32 shards. */
  public static final int PREFETCH_AT_ONCE = 64;
  /** The size up to which a source's tail is taken to lie in its first block (no second request for it). */
  public static final long TAIL_APART = 1 << 20;
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
    List<Callable<T>> jobs = new ArrayList<>(sources.size());
    for (ByteSource s : sources) {
      jobs.add(() -> parser.parse(s));
    }
    return runAll(jobs, AT_ONCE);
  }

  /**
   * Fetches the first and the last block of every source that {@link ByteSource#prefetches} — the
   * bytes every shard format reads first (a header; SDNB's manifest at the end) — all at once, up
   * to {@value #PREFETCH_AT_ONCE} requests in flight, and returns when they are held: opening a shard
   * set then costs one round trip for all its shards' ends, not one (or two) per shard after shard
   * 0's magic (issue 34). A source of at most {@value #TAIL_APART} bytes is asked for its head alone.
   * The first failure, in the sources' order, is thrown (as a read of those bytes would throw it).
   */
  public static void prefetchEnds(List<? extends ByteSource> sources) throws IOException {
    List<Callable<Void>> jobs = new ArrayList<>();
    for (ByteSource s : sources) {
      if (!s.prefetches()) {
        continue;
      }
      long size = s.size();
      jobs.add(() -> {
        s.prefetch(0, 1);
        return null;
      });
      if (size > TAIL_APART) {
        jobs.add(() -> {
          s.prefetch(size - 1, 1);
          return null;
        });
      }
    }
    runAll(jobs, PREFETCH_AT_ONCE).all();
  }

  /** Opens one source (it may ask a server, from any thread). */
  @FunctionalInterface
  public interface Opening {
    ByteSource open() throws IOException;
  }

  /**
   * The sources {@code opens} open, all opened at once (up to {@value #PREFETCH_AT_ONCE} at a
   * time), in their order: a store whose every open asks its server (HDFS: the NameNode's
   * {@code open} and file status) opens a shard set in the round trips of one shard. If any open
   * fails, every source that did open is closed and the failure of the lowest index is thrown.
   */
  public static List<ByteSource> openAll(List<? extends Opening> opens) throws IOException {
    List<Callable<ByteSource>> jobs = new ArrayList<>(opens.size());
    for (Opening o : opens) {
      jobs.add(o::open);
    }
    Results<ByteSource> r = runAll(jobs, PREFETCH_AT_ONCE);
    List<ByteSource> out = new ArrayList<>(jobs.size());
    Exception first = null;
    for (int k = 0; k < jobs.size(); k++) {
      try {
        out.add(r.get(k));
      } catch (IOException | RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    if (first == null) {
      return out;
    }
    try {
      Closer.closeAll(out);
    } catch (IOException suppressed) {
      first.addSuppressed(suppressed);
    }
    if (first instanceof IOException io) {
      throw io;
    }
    throw (RuntimeException) first;
  }

  /** Every job run, at most {@code atOnce} at a time (one alone in the caller's thread), all ended on return. */
  private static <T> Results<T> runAll(List<Callable<T>> jobs, int atOnce) throws IOException {
    List<Future<T>> futures = new ArrayList<>(jobs.size());
    if (jobs.size() < 2) {
      for (Callable<T> j : jobs) {
        futures.add(done(j));
      }
      return new Results<>(futures);
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(atOnce, jobs.size()), r -> {
      Thread t = new Thread(r, "modelfs-shard-open-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      for (Callable<T> j : jobs) {
        futures.add(pool.submit(j));
      }
      pool.shutdown();
      while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
        // every job ends: a read ends or fails
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

  private static <T> Future<T> done(Callable<T> job) {
    CompletableFuture<T> f = new CompletableFuture<>();
    try {
      f.complete(job.call());
    } catch (Exception | Error e) {
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
