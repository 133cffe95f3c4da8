package org.modelfs.format.fb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * A UTF8 buffer in the older layout (docs/FORMATS.md §3.8: a big-endian int64 count {@code n},
 * {@code n + 1} big-endian int64 offsets, the string bytes) presented in the M2.1 layout:
 * {@code n + 1} little-endian offsets, then the same string bytes. Nothing is copied: each read
 * of the offset header converts just the offsets it covers (at most {@link #BATCH} per call), and
 * checks each against the one before and the number of string bytes — an offset that breaks
 * the order fails that read with a {@link ModelFormatException}; string bytes are read in place.
 */
final class LegacyUtf8Source implements ByteSource {
  /** Most offsets converted per read. */
  static final int BATCH = 512;

  private final ByteSource parent;
  private final String file;
  private final long start;
  private final long count;
  private final long strings;

  /**
   * @param parent where the buffer is
   * @param file the file name for messages
   * @param start offset of the buffer (its count) in {@code parent}
   * @param n the number of strings
   * @param bufferLength the buffer's byte length ({@code 8 + 8(n + 1) + string bytes})
   */
  LegacyUtf8Source(ByteSource parent, String file, long start, long n, long bufferLength) {
    this.parent = parent;
    this.file = file;
    this.start = start;
    this.count = n + 1;
    this.strings = bufferLength - 8 - 8 * count;
  }

  @Override
  public String name() {
    return parent.name();
  }

  @Override
  public long size() {
    return 8 * count + strings;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    long header = 8 * count;
    if (position >= size()) {
      return -1;
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    if (position >= header) {
      long avail = size() - position;
      ByteBuffer window = dst.remaining() > avail ? dst.slice(dst.position(), (int) avail) : dst;
      int n = parent.read(window, start + 8 + position);
      if (n > 0 && window != dst) {
        dst.position(dst.position() + n);
      }
      return n;
    }
    long first = position / 8;
    long last = Math.min(count - 1, Math.min(first + BATCH - 1, (position + dst.remaining() - 1) / 8));
    long from = Math.max(0, first - 1); // the one before, to check the order
    ByteBuffer be = ByteBuffer.allocate((int) (8 * (last - from + 1))).order(ByteOrder.BIG_ENDIAN);
    parent.readFully(be, start + 8 + 8 * from);
    ByteBuffer le = ByteBuffer.allocate((int) (8 * (last - first + 1))).order(ByteOrder.LITTLE_ENDIAN);
    long prev = 0;
    for (long i = from; i <= last; i++) {
      long off = be.getLong((int) (8 * (i - from)));
      if (off < prev || off > strings) {
        throw new ModelFormatException(file, "FlatArray.buffer (older UTF8 layout)", start + 8 + 8 * i,
            "string offset " + i + " is " + off + (off < prev ? ", less than the one before (" + prev + ")"
                : ", past the " + strings + " bytes of strings"));
      }
      prev = off;
      if (i >= first) {
        le.putLong(off);
      }
    }
    le.flip().position((int) (position - 8 * first));
    int n = Math.min(le.remaining(), dst.remaining());
    le.limit(le.position() + n);
    dst.put(le);
    return n;
  }

  @Override
  public Mappable mappable(long position) throws IOException {
    return position >= 8 * count ? parent.mappable(start + 8 + position) : null;
  }

  @Override
  public ByteSource viewOf() {
    return parent;
  }

  @Override
  public void close() {}
}
