package org.modelfs.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Parses several sources at once, at most {@value #AT_ONCE} at a time, results in the sources'
 * order: a shard set in an object store is opened in the round trips of one shard's index, not
 * of every shard's one after another (issue 34). The reads are I/O-bound, so they run on threads
 * of their own, not on the CPU-sized {@link DeflateWorkers}: daemon threads shared by every
 * opening in the JVM, each ending after {@value #IDLE_SECONDS} s without work, so a process that
 * mounts often does not start some 40 threads per mount (issue 34: starting them spread a shard
 * set's requests over tens of milliseconds) and an idle one holds none.
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
  /** How long a thread of {@link #THREADS} waits for more work before it ends. */
  public static final int IDLE_SECONDS = 30;
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final ExecutorService THREADS = new ThreadPoolExecutor(0, Integer.MAX_VALUE,
      IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, "modelfs-io-" + NAMES.incrementAndGet());
        t.setDaemon(true);
        return t;
      });

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
    prefetchEnds(sources, s -> { });
  }

  /** What to fetch of a source once its ends are held (its index: {@link #prefetchEnds(List, Next)}). */
  @FunctionalInterface
  public interface Next {
    void fetch(ByteSource src) throws IOException;
  }

  /**
   * {@link #prefetchEnds(List)}, and {@code next} run for each source as soon as its own ends are
   * held, in the thread that fetched the second of them, so that what a format reads next (SDNB's
   * FlatGraph) is asked for while other sources' ends are still on their way, not after the
   * slowest of them (issue 34: the benchmark's 4 MiB FlatGraph waited some 40 ms for the ends of
   * 18 other shards). Returns when every end and every {@code next} has ended. Shard 0 is asked
   * for first, then the others from the smallest: a shard set's last, smallest shards hold its
   * smallest arrays, which SDNB keeps inline in the FlatGraph — the largest index to fetch next.
   */
  public static void prefetchEnds(List<? extends ByteSource> sources, Next next) throws IOException {
    List<Integer> order = new ArrayList<>();
    long[] sizes = new long[sources.size()];
    for (int k = 0; k < sources.size(); k++) {
      if (sources.get(k).prefetches()) {
        order.add(k);
        sizes[k] = sources.get(k).size();
      }
    }
    order.sort(Comparator.comparing((Integer k) -> k != 0).thenComparingLong(k -> sizes[k]).thenComparingInt(k -> k));
    List<Callable<Void>> jobs = new ArrayList<>();
    List<Integer> owners = new ArrayList<>();
    for (int k : order) {
      ByteSource s = sources.get(k);
      long size = sizes[k];
      AtomicInteger ends = new AtomicInteger(size > TAIL_APART ? 2 : 1);
      jobs.add(() -> {
        s.prefetch(0, 1);
        return thenNext(ends, next, s);
      });
      owners.add(k);
      if (size > TAIL_APART) {
        jobs.add(() -> {
          s.prefetch(size - 1, 1);
          return thenNext(ends, next, s);
        });
        owners.add(k);
      }
    }
    Results<Void> r = runAll(jobs, PREFETCH_AT_ONCE);
    Exception first = null;
    int firstOwner = Integer.MAX_VALUE;
    for (int j = 0; j < jobs.size(); j++) {
      try {
        r.get(j);
      } catch (IOException | RuntimeException e) {
        if (owners.get(j) < firstOwner) {
          first = e;
          firstOwner = owners.get(j);
        }
      }
    }
    if (first instanceof IOException io) {
      throw io;
    }
    if (first != null) {
      throw (RuntimeException) first;
    }
  }

  /** Runs {@code next} on {@code s} when this was the last of its ends to arrive. */
  private static Void thenNext(AtomicInteger ends, Next next, ByteSource s) throws IOException {
    if (ends.decrementAndGet() == 0) {
      next.fetch(s);
    }
    return null;
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

  /**
   * Every job run, at most {@code atOnce} at a time (one alone in the caller's thread), all ended
   * on return: {@code atOnce} workers on {@link #THREADS} take the jobs in order.
   */
  private static <T> Results<T> runAll(List<Callable<T>> jobs, int atOnce) throws IOException {
    List<Future<T>> futures = new ArrayList<>(jobs.size());
    if (jobs.size() < 2) {
      for (Callable<T> j : jobs) {
        futures.add(done(j));
      }
      return new Results<>(futures);
    }
    List<CompletableFuture<T>> outcomes = new ArrayList<>(jobs.size());
    for (int k = 0; k < jobs.size(); k++) {
      outcomes.add(new CompletableFuture<>());
    }
    AtomicInteger next = new AtomicInteger();
    Runnable worker = () -> {
      for (int k = next.getAndIncrement(); k < jobs.size(); k = next.getAndIncrement()) {
        complete(outcomes.get(k), jobs.get(k));
      }
    };
    List<Future<?>> workers = new ArrayList<>();
    try {
      for (int w = Math.min(atOnce, jobs.size()); w > 0; w--) {
        workers.add(THREADS.submit(worker));
      }
      for (Future<?> w : workers) {
        w.get(); // a worker ends when every job is taken and its own have ended
      }
    } catch (InterruptedException e) {
      next.set(jobs.size()); // no job not yet taken starts
      workers.forEach(w -> w.cancel(true));
      Thread.currentThread().interrupt();
      InterruptedIOException x = new InterruptedIOException("interrupted while opening the shards");
      x.initCause(e);
      throw x;
    } catch (ExecutionException e) {
      throw new IllegalStateException("a worker failed outside its jobs", e.getCause()); // complete() catches every job's failure
    }
    futures.addAll(outcomes);
    return new Results<>(futures);
  }

  private static <T> void complete(CompletableFuture<T> outcome, Callable<T> job) {
    try {
      outcome.complete(job.call());
    } catch (Exception | Error e) {
      outcome.completeExceptionally(e);
    }
  }

  private static <T> Future<T> done(Callable<T> job) {
    CompletableFuture<T> f = new CompletableFuture<>();
    complete(f, job);
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
