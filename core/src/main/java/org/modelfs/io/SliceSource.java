package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A window {@code [start, start + length)} of another source, seen as a source of its own (a
 * STORED zip entry inside its zip). Closing a slice does not close the parent.
 */
public final class SliceSource implements ByteSource {
  private final ByteSource parent;
  private final String name;
  private final long start;
  private final long length;

  public SliceSource(ByteSource parent, String name, long start, long length) {
    this.parent = parent;
    this.name = name;
    this.start = start;
    this.length = length;
  }

  /** The source this is a window of. */
  public ByteSource parent() {
    return parent;
  }

  /** Offset of this window's first byte in {@link #parent()}. */
  public long start() {
    return start;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public ByteBuffer window(long position, int length) throws IOException {
    if (position >= this.length) {
      return null;
    }
    return parent.window(start + position, (int) Math.min(length, this.length - position));
  }

  @Override
  public long size() {
    return length;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (position >= length) {
      return -1;
    }
    long avail = length - position;
    if (dst.remaining() > avail) {
      ByteBuffer sub = dst.slice(dst.position(), (int) avail);
      int n = parent.read(sub, start + position);
      if (n > 0) {
        dst.position(dst.position() + n);
      }
      return n;
    }
    return parent.read(dst, start + position);
  }

  @Override
  public Mappable mappable(long position) throws IOException {
    return parent.mappable(start + position);
  }

  @Override
  public ByteSource viewOf() {
    return parent;
  }

  @Override
  public void close() {}
}
