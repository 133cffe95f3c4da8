package org.modelfs.hdfs;

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
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.io.ParallelReads;

/**
 * The files of one listing opened by inode and their ends fetched, <b>each file's ends as soon as
 * its own open answered</b>: what {@link ParallelReads#openAll} then
 * {@link ParallelReads#prefetchEnds} do in two waves, the second waiting for the slowest open
 * and starting its threads one by one after it (issue 34: a shard set of 19 files spent 30–80 ms
 * there at 20 ms RTT on two cores, a round trip being 20). Every job is given its thread at once,
 * the opens first, so the threads' starts overlap the NameNode's round trip; each file's head is read by
 * the thread that opened it, its tail (a file over {@link ParallelReads#TAIL_APART} bytes) by a
 * second one waiting for that open.
 *
 * <p>The outcome is that of the two waves: if an open fails, every source that opened is closed and
 * the failure of the lowest index is thrown; then, if a fetch failed, the sources are closed and
 * the lowest index's fetch failure is thrown.
 */
final class OpenWave {
  private static final AtomicInteger THREADS = new AtomicInteger();

  private OpenWave() {}

  /** A file's opening. */
  @FunctionalInterface
  interface Opening {
    HdfsSource open() throws IOException;
  }

  static List<ByteSource> open(List<Opening> opens) throws IOException {
    int n = opens.size();
    List<CompletableFuture<HdfsSource>> opened = new ArrayList<>(n);
    List<Callable<Void>> jobs = new ArrayList<>(2 * n);
    for (Opening o : opens) {
      CompletableFuture<HdfsSource> f = new CompletableFuture<>();
      opened.add(f);
      jobs.add(() -> {
        HdfsSource s;
        try {
          s = o.open();
        } catch (IOException | RuntimeException e) {
          f.completeExceptionally(e);
          return null; // reported as the open's failure
        }
        f.complete(s);
        s.prefetch(0, 1);
        return null;
      });
    }
    for (CompletableFuture<HdfsSource> f : opened) { // after every head: a queued tail never waits for an unstarted open
      jobs.add(() -> {
        HdfsSource s = f.exceptionally(e -> null).join();
        if (s != null && s.size() > ParallelReads.TAIL_APART) {
          s.prefetch(s.size() - 1, 1);
        }
        return null;
      });
    }
    List<Future<Void>> fetches = runAll(jobs); // every job has ended
    List<ByteSource> sources = new ArrayList<>(n);
    Throwable failed = null;
    for (CompletableFuture<HdfsSource> f : opened) {
      Throwable t = failure(f);
      if (t == null) {
        sources.add(f.join());
      }
      failed = failed != null ? failed : t;
    }
    for (int k = 0; k < n && failed == null; k++) { // file k's head is job k, its tail job n + k: in prefetchEnds' order
      failed = failure(fetches.get(k));
      failed = failed != null ? failed : failure(fetches.get(n + k));
    }
    if (failed == null) {
      opened.forEach(f -> f.join().endsFetched());
      return sources;
    }
    try {
      Closer.closeAll(sources);
    } catch (IOException suppressed) {
      failed.addSuppressed(suppressed);
    }
    if (failed instanceof IOException io) {
      throw io;
    }
    if (failed instanceof RuntimeException r) {
      throw r;
    }
    if (failed instanceof Error e) {
      throw e;
    }
    throw new IOException(failed);
  }

  /** What {@code f} failed with, or {@code null} (every future here is done). */
  private static Throwable failure(Future<?> f) {
    try {
      f.get();
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) { // not reached: done
      Thread.currentThread().interrupt();
      return new InterruptedIOException("interrupted while opening the model's files");
    }
  }

  /** Every job on a thread of its own (up to {@link ParallelReads#PREFETCH_AT_ONCE}), all ended on return. */
  private static List<Future<Void>> runAll(List<Callable<Void>> jobs) throws IOException {
    int threads = Math.min(ParallelReads.PREFETCH_AT_ONCE, jobs.size());
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "modelfs-hdfs-open-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<Void>> out = new ArrayList<>(jobs.size());
      for (Callable<Void> j : jobs) {
        out.add(pool.submit(j));
      }
      pool.shutdown();
      while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
        // every job ends: an open or a read ends or fails
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException x = new InterruptedIOException("interrupted while opening the model's files");
      x.initCause(e);
      throw x;
    } finally {
      pool.shutdownNow();
    }
  }
}
