package org.modelfs.io;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.function.LongConsumer;

/**
 * Reports how far a file being written has grown: a daemon thread reads the channel's size every
 * {@value #POLL_MILLIS} ms and passes {@code base + size} to a listener (the CLI's progress
 * line). Nothing on the writing path changes: the writer never waits for it, and a listener
 * that throws only stops the reports.
 */
public final class WriteProgress implements AutoCloseable {
  static final long POLL_MILLIS = 200;

  private final SeekableByteChannel channel;
  private final LongConsumer listener;
  private final long base;
  private final Thread thread;
  private volatile boolean stop;

  private WriteProgress(SeekableByteChannel channel, LongConsumer listener, long base) {
    this.channel = channel;
    this.listener = listener;
    this.base = base;
    this.thread = new Thread(this::run, "modelfs-progress");
    thread.setDaemon(true);
  }

  /**
   * Starts reporting the growth of {@code channel}; {@code base} bytes were written before it
   * (earlier files of the same commit). A {@code null} listener reports nothing.
   */
  public static WriteProgress start(SeekableByteChannel channel, LongConsumer listener, long base) {
    WriteProgress p = new WriteProgress(channel, listener, base);
    if (listener != null) {
      p.thread.start();
    }
    return p;
  }

  private void run() {
    try {
      while (!stop) {
        listener.accept(base + channel.size());
        Thread.sleep(POLL_MILLIS);
      }
    } catch (IOException | RuntimeException e) {
      // the channel was closed, or the listener failed: reports end, the write goes on
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops reporting; the last report is the file's final size. Returns {@code base} + that size. */
  @Override
  public void close() {
    stop = true;
    long end = base;
    try {
      thread.join();
      end = base + channel.size();
      if (listener != null) {
        listener.accept(end);
      }
    } catch (IOException | RuntimeException e) {
      // the channel is gone: nothing more to report
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
