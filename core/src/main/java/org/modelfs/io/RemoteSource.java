package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;

/**
 * A source whose reads go to a server, each a round trip (an object store's ranged GET, an HDFS
 * DataNode's positional read): the checks every read and prefetch of one makes, in one place, so
 * that every store answers them alike. A read of a closed source throws
 * {@link ClosedChannelException}, a negative position {@link IllegalArgumentException} naming the
 * source, a position at or past the end returns -1, an empty buffer 0 — before anything is asked
 * of the server. It {@link #prefetches}; a prefetch of a closed source throws as its read would.
 * {@link #close} releases what it holds once. Nothing has a position: any number of threads read
 * at once, as long as the store's own part ({@link #readAt}, {@link #prefetchAt}) is thread-safe.
 *
 * <p>{@link BlockSource} is the one for stores that fetch byte ranges (S3, Azure Blob);
 * {@link KeptRanges} keeps what a store that reads straight into the caller's buffer (HDFS)
 * prefetched.
 */
public abstract class RemoteSource implements ByteSource {
  private final String name;
  private final long size;
  private volatile boolean closed;

  /**
   * @param name the source as the user names it, for messages
   * @param size its bytes, as they were when it was opened (the end of every read)
   */
  protected RemoteSource(String name, long size) {
    this.name = name;
    this.size = size;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final long size() {
    return size;
  }

  @Override
  public final int read(ByteBuffer dst, long position) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    if (position < 0) {
      throw new IllegalArgumentException(name + ": negative position " + position);
    }
    if (position >= size) {
      return -1;
    }
    int want = (int) Math.min(dst.remaining(), size - position);
    if (want == 0) {
      return 0;
    }
    return readAt(dst, position, want);
  }

  /**
   * Reads up to {@code want} bytes at {@code position} into {@code dst} ({@code want} is at least
   * one and fits in {@code dst}; the position is inside the source); returns how many, as
   * {@link ByteSource#read} does.
   */
  protected abstract int readAt(ByteBuffer dst, long position, int want) throws IOException;

  @Override
  public final boolean prefetches() {
    return true;
  }

  @Override
  public final void prefetch(long position, long length) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    prefetchAt(position, length);
  }

  /** {@link ByteSource#prefetch} of an open source (the range may be empty or past the end: then nothing). */
  protected abstract void prefetchAt(long position, long length) throws IOException;

  @Override
  public final void close() throws IOException {
    if (!closed) {
      closed = true;
      release();
    }
  }

  /** Drops what this source holds (its cached bytes, its stream); called once, by the first {@link #close}. */
  protected abstract void release() throws IOException;
}
