package org.modelfs.tree;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.modelfs.io.ReadCheck;
import org.modelfs.model.ArrayStreams;
import org.modelfs.io.ByteSource;
import org.modelfs.model.ArrayData;

/**
 * The content of a {@code params/…} or {@code updater/…} file: the array's elements
 * little-endian, read by position straight from where the array is stored. Big-endian arrays (fb,
 * legacy) are swapped on the way — whole elements swap-copied from a mapped window of the file
 * into the reader's buffer, or read there and swapped; a partial one at either end through a
 * small buffer — unless the mount shows stored byte orders ({@code byteOrder=stored},
 * docs/FILESYSTEM.md §4): then such a file shows its stored big-endian bytes unchanged.
 */
public final class ArrayContent implements Content {
  /** Largest piece of a big-endian array swapped per call. */
  private static final int SWAP_CHUNK = 64 * 1024;

  private final ArrayData array;
  /** The file shows the array's stored big-endian bytes as they are. */
  private final boolean showsBigEndian;

  ArrayContent(ArrayData array, boolean storedOrder) {
    this.array = array;
    this.showsBigEndian = storedOrder && array.bigEndian();
  }

  /**
   * Whether this file's bytes are big-endian (the stored bytes of a big-endian array in a mount
   * that shows stored byte orders) rather than little-endian: the {@code samediff:byteOrder}
   * attribute, and the order bytes written to this file are taken in.
   */
  public boolean showsBigEndian() {
    return showsBigEndian;
  }

  /** Whether the file's bytes are the stored ones, position for position (nothing swapped). */
  private boolean asStored() {
    return showsBigEndian || !array.bigEndian();
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
  public ReadCheck newCheck() {
    // the file's bytes are the source's, position for position, only when nothing is converted
    return !asStored() ? null : shifted(array.source().newCheck(), array.offset());
  }

  private static ReadCheck shifted(ReadCheck c, long offset) {
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
    if (asStored()) {
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
    if (width == 2 || width == 4 || width == 8) {
      // one pass: swapped while copied from the mapped file into dst (no read, then swap); the
      // windows are cached per source, so a random read finds its window already mapped
      ByteBuffer from = array.source().window(array.offset() + position, whole);
      if (from != null && from.remaining() >= width) {
        int k = from.remaining() - from.remaining() % width;
        ArrayStreams.swapCopy(from.limit(k), dst, width);
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
    if (!asStored() || array.length() == 0) {
      return null;
    }
    return array.source().mappable(array.offset());
  }
}
