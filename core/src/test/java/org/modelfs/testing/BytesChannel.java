package org.modelfs.testing;

import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/** A read-only in-memory {@link SeekableByteChannel} over a byte array (test input). */
public final class BytesChannel implements SeekableByteChannel {
  private final byte[] bytes;
  private long position;
  private boolean open = true;

  public BytesChannel(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public int read(ByteBuffer dst) {
    if (position >= bytes.length) {
      return -1;
    }
    int n = (int) Math.min(dst.remaining(), bytes.length - position);
    dst.put(bytes, (int) position, n);
    position += n;
    return n;
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) {
    position = newPosition;
    return this;
  }

  @Override
  public long size() {
    return bytes.length;
  }

  @Override
  public SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
  }
}
