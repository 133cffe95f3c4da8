package org.modelfs.io;

import java.nio.ByteBuffer;

/**
 * A source over bytes already in the heap (a section inflated within its budget). Closing it does
 * nothing.
 */
public final class HeapSource implements ByteSource {
  private final String name;
  private final byte[] bytes;

  public HeapSource(String name, byte[] bytes) {
    this.name = name;
    this.bytes = bytes;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return bytes.length;
  }

  @Override
  public int read(ByteBuffer dst, long position) {
    if (position >= bytes.length) {
      return -1;
    }
    int n = (int) Math.min(dst.remaining(), bytes.length - position);
    dst.put(bytes, (int) position, n);
    return n;
  }

  @Override
  public void close() {
    // nothing to release
  }
}
