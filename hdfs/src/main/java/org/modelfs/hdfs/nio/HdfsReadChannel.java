package org.modelfs.hdfs.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * A read-only channel over one HDFS file: every read is a positional read
 * ({@code FSDataInputStream.read(position, …)}) at the channel's own position, so only the bytes
 * asked for are fetched.
 */
final class HdfsReadChannel implements SeekableByteChannel {
  private final FSDataInputStream in;
  private final long size;
  private final String name;
  private long position;
  private boolean open = true;

  HdfsReadChannel(FSDataInputStream in, long size, String name) {
    this.in = in;
    this.size = size;
    this.name = name;
  }

  @Override
  public synchronized int read(ByteBuffer dst) throws IOException {
    check();
    if (position >= size) {
      return -1;
    }
    int n = (int) Math.min(dst.remaining(), Math.min(size - position, 1 << 20));
    byte[] b = new byte[n];
    int got;
    try {
      got = in.read(position, b, 0, n);
    } catch (IOException e) {
      throw HdfsErrors.nio(e, name, "reading at offset " + position);
    }
    if (got > 0) {
      dst.put(b, 0, got);
      position += got;
    }
    return got;
  }

  @Override public int write(ByteBuffer src) { throw new NonWritableChannelException(); }
  @Override public SeekableByteChannel truncate(long size) { throw new NonWritableChannelException(); }
  @Override public synchronized long position() throws IOException { check(); return position; }
  @Override public long size() throws IOException { check(); return size; }
  @Override public synchronized boolean isOpen() { return open; }

  @Override
  public synchronized SeekableByteChannel position(long newPosition) throws IOException {
    check();
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position " + newPosition);
    }
    position = newPosition;
    return this;
  }

  @Override
  public synchronized void close() throws IOException {
    if (open) {
      open = false;
      in.close();
    }
  }

  private synchronized void check() throws ClosedChannelException {
    if (!open) {
      throw new ClosedChannelException();
    }
  }
}
