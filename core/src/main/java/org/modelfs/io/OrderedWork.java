package org.modelfs.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Tasks run on {@link DeflateWorkers}, their results handed to a sink in the caller's thread in
 * the order the tasks were submitted, with at most {@code inFlight} tasks outstanding: what the
 * sink receives never depends on thread timing, and memory is bounded whatever the number of
 * tasks. A task that fails stops the work: the next {@link #submit} or wait cancels everything
 * outstanding and throws an {@link IOException} naming {@code what}; an interrupt of the caller
 * while it waits does the same with an {@link InterruptedIOException} (the interrupt status stays
 * set). {@link #close} without {@link #finish} cancels what is outstanding. One caller thread.
 *
 * @param <R> a task's result
 */
public final class OrderedWork<R> implements AutoCloseable {
  /** Receives the results in submission order, in the caller's thread. */
  public interface Sink<R> {
    void accept(R result) throws IOException;
  }

  private final DeflateWorkers workers;
  private final Sink<R> sink;
  private final String what;
  private final ArrayDeque<Future<R>> pending = new ArrayDeque<>();
  /** The first failure of any task, seen before its turn comes. */
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** @param what the file and structure being written, for messages */
  public OrderedWork(DeflateWorkers workers, Sink<R> sink, String what) {
    this.workers = workers;
    this.sink = sink;
    this.what = what;
  }

  /** Submits {@code task}, first handing finished results to the sink while too many are in flight. */
  public void submit(Callable<R> task) throws IOException {
    Throwable failed = failure.get();
    if (failed != null) {
      abort();
      throw failed(failed);
    }
    while (pending.size() >= workers.inFlight()) {
      writeHead();
    }
    Callable<R> noted = () -> {
      try {
        return task.call();
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
        throw t;
      }
    };
    try {
      pending.add(workers.executor().submit(noted));
    } catch (RejectedExecutionException e) {
      abort();
      throw new IOException(what + ": the compression pool refused a block", e);
    }
  }

  /** Waits for every task and hands each result to the sink, in order. */
  public void finish() throws IOException {
    while (!pending.isEmpty()) {
      writeHead();
    }
  }

  private void writeHead() throws IOException {
    R r;
    try {
      r = pending.peekFirst().get();
    } catch (InterruptedException e) {
      abort();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(what + ": interrupted while waiting for a compressed block");
    } catch (ExecutionException e) {
      abort();
      throw failed(e.getCause());
    }
    pending.removeFirst();
    boolean written = false;
    try {
      sink.accept(r);
      written = true;
    } finally {
      if (!written) {
        abort();
      }
    }
  }

  private IOException failed(Throwable cause) {
    return new IOException(what + ": compressing a block failed: " + cause, cause);
  }

  /** Cancels every outstanding task (a running one ends its block, unused; queued ones never run). */
  private void abort() {
    for (Future<R> f : pending) {
      f.cancel(true);
    }
    pending.clear();
  }

  /** Cancels what is still outstanding: after {@link #finish}, nothing. */
  @Override
  public void close() {
    abort();
  }
}
