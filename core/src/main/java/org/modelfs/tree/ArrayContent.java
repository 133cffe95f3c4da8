package org.modelfs.tree;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.modelfs.model.ArrayStreams;
import org.modelfs.io.ByteSource;
import org.modelfs.model.ArrayData;

/**
 * The content of a {@code params/…} or {@code updater/…} file: the array's elements
 * little-endian, read by position straight from where the array is stored. Big-endian (legacy)
 * arrays are swapped on the way: whole elements in the reader's buffer, a partial one at either
 * end through a small one.
 */
public final class ArrayContent implements Content {
  /** Largest piece of a big-endian array swapped per call. */
  private static final int SWAP_CHUNK = 64 * 1024;

  private final ArrayData array;

  ArrayContent(ArrayData array) {
    this.array = array;
  }

  /** The array this file shows. */
  public ArrayData array() {
    return array;
  }

  @Override
  public long size() {
    return array.length();
  }

  @Override
  public org.modelfs.io.ReadCheck newCheck() {
    // the file's bytes are the source's, position for position, only when nothing is converted
    return array.bigEndian() ? null : shifted(array.source().newCheck(), array.offset());
  }

  private static org.modelfs.io.ReadCheck shifted(org.modelfs.io.ReadCheck c, long offset) {
    return c == null || offset == 0 ? c : (bytes, position) -> c.passed(bytes, offset + position);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    long length = array.length();
    if (position >= length) {
      return -1;
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    int n = (int) Math.min(dst.remaining(), length - position);
    if (!array.bigEndian()) {
      if (n == dst.remaining()) { // the common case: no window object per read
        array.source().readFully(dst, array.offset() + position);
        return n;
      }
      ByteBuffer window = dst.slice(dst.position(), n);
      array.source().readFully(window, array.offset() + position);
      dst.position(dst.position() + n);
      return n;
    }
    int width = array.dtype().width();
    int whole = position % width == 0 ? n - n % width : 0;
    if (whole == 0) {
      return readSwapped(dst, position, Math.min(n, SWAP_CHUNK));
    }
    if ((width == 2 || width == 4 || width == 8) && whole >= WINDOW_READ) {
      // one pass: swapped while copied from the mapped file into dst (no read, then swap); small
      // random reads keep the read-then-swap path, which maps nothing
      ByteBuffer from = array.source().window(array.offset() + position, whole);
      if (from != null && from.remaining() >= width) {
        int k = from.remaining() - from.remaining() % width;
        swapCopy(from.limit(k), dst, width);
        if (k == n || !dst.hasRemaining()) {
          return k;
        }
        int rest = read(dst, position + k); // the part past the window's edge, or a last partial element
        return rest < 0 ? k : k + rest;
      }
    }
    // whole elements: read straight into dst and swapped there; a partial last one after them
    ByteBuffer window = dst.slice(dst.position(), whole);
    array.source().readFully(window, array.offset() + position);
    ArrayStreams.swap(window, 0, whole, width);
    dst.position(dst.position() + whole);
    return whole == n ? n : whole + readSwapped(dst, position + whole, n - whole);
  }

  /** Reads at least this long are swap-copied from mapped windows of the file. */
  static final int WINDOW_READ = 64 << 10;

  /**
   * Copies the big-endian elements of {@code from} (whole ones) into {@code dst} little-endian in
   * one pass: the JDK copies between views of different byte order swapping as it goes.
   */
  static void swapCopy(ByteBuffer from, ByteBuffer dst, int width) {
    int k = from.remaining();
    ByteBuffer to = dst.slice(dst.position(), k).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    ByteBuffer be = from.slice().order(java.nio.ByteOrder.BIG_ENDIAN);
    switch (width) {
      case 2 -> to.asShortBuffer().put(be.asShortBuffer());
      case 4 -> to.asIntBuffer().put(be.asIntBuffer());
      default -> to.asLongBuffer().put(be.asLongBuffer());
    }
    dst.position(dst.position() + k);
  }

  /** Reads the whole elements around {@code [position, position + n)}, swaps them, copies out. */
  private int readSwapped(ByteBuffer dst, long position, int n) throws IOException {
    int width = array.dtype().width();
    long first = position - position % width;
    long end = Math.min(array.length(), position + n);
    long last = end + (width - end % width) % width;
    ByteBuffer buf = ByteBuffer.allocate((int) (last - first));
    array.source().readFully(buf, array.offset() + first);
    ArrayStreams.swap(buf, 0, buf.capacity() - buf.capacity() % width, width);
    buf.position((int) (position - first)).limit((int) (end - first));
    int got = buf.remaining();
    dst.put(buf);
    return got;
  }

  @Override
  public ByteSource.Mappable mappable() throws IOException {
    if (array.bigEndian() || array.length() == 0) {
      return null;
    }
    return array.source().mappable(array.offset());
  }
}
