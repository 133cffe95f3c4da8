package org.modelfs.model;

import org.modelfs.io.CountingOutput;

import org.modelfs.io.ByteSource;
import org.modelfs.io.ReadCheck;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import org.modelfs.model.ArrayData;

/**
 * Streams an array's stored bytes to a channel in the byte order a writer needs: file to file in
 * the kernel when the order stays, else through one bounded buffer, swapping whole elements in
 * bulk — never the whole array in the heap.
 */
public final class ArrayStreams {
  /** Size of the copy buffer; a multiple of every element width. */
  static final int CHUNK = 1 << 20;
  /**
   * Arrays this large or larger are copied file to file by {@code FileChannel.transferTo} (in
   * the kernel) when they need no swap, or else through a direct buffer.
   */
  static final long TRANSFER_MIN = 64 * 1024;

  private ArrayStreams() {}

  /** Copies the array's elements little-endian to {@code out}. */
  public static void copyLittleEndian(ArrayData a, WritableByteChannel out) throws IOException {
    copy(a, out, a.bigEndian());
  }

  /** Copies the array's elements big-endian (legacy format A) to {@code out}. */
  public static void copyBigEndian(ArrayData a, WritableByteChannel out) throws IOException {
    copy(a, out, !a.bigEndian());
  }

  /**
   * Copies bytes {@code [offset, offset + length)} of {@code src} to {@code out} as they are (a
   * stored file or zip entry kept by a commit): inside the kernel where it can, else through a
   * buffer, feeding the source's read check as every copy does.
   */
  public static void copyBytes(ByteSource src, long offset, long length, WritableByteChannel out) throws IOException {
    copy(new ArrayData(DType.UINT8, new long[] {length}, 'c', length == 0, src, offset, length, false,
        ArrayData.Storage.RAW), out, false);
  }

  /** The array's elements little-endian, as a stream (for hashing, printing). */
  public static InputStream littleEndianStream(ArrayData a) {
    return new InputStream() {
      private final ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      private final ReadCheck check = a.source().newCheck();
      private long done;

      {
        buf.limit(0);
      }

      private boolean fill() throws IOException {
        if (buf.hasRemaining()) {
          return true;
        }
        if (done >= a.length()) {
          return false;
        }
        done += readChunk(a, done, buf, a.bigEndian(), check);
        return true;
      }

      @Override
      public int read() throws IOException {
        return fill() ? buf.get() & 0xff : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        if (!fill()) {
          return -1;
        }
        int n = Math.min(len, buf.remaining());
        buf.get(b, off, n);
        return n;
      }
    };
  }

  private static void copy(ArrayData a, WritableByteChannel out, boolean swap) throws IOException {
    ReadCheck check = a.source().newCheck();
    if (!swap && check == null && out instanceof CountingOutput co && a.length() >= TRANSFER_MIN) {
      ByteSource.Mappable m = a.source().mappable(a.offset());
      if (m != null && co.transferFrom(m.channel(), m.position(), a.length(), a.source().name())) {
        return;
      }
    }
    // large arrays through a direct buffer: a heap one costs the JDK a copy per read and per write
    int size = (int) Math.min(CHUNK, Math.max(a.length(), 1));
    ByteBuffer buf = a.length() >= TRANSFER_MIN ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    long done = 0;
    while (done < a.length()) {
      done += readChunk(a, done, buf, swap, check);
      while (buf.hasRemaining()) {
        out.write(buf);
      }
    }
  }

  /**
   * Reads the next chunk of {@code a} (from byte {@code done}) into {@code buf}, flipped for
   * reading and byte-swapped per element when {@code swap}; returns the bytes read. The buffer's
   * capacity is a multiple of every element width, so elements never straddle chunks.
   */
  private static int readChunk(ArrayData a, long done, ByteBuffer buf, boolean swap, ReadCheck check)
      throws IOException {
    buf.clear();
    buf.limit((int) Math.min(buf.capacity(), a.length() - done));
    int width = a.dtype().width();
    if (swap && check == null && (width == 2 || width == 4 || width == 8) && buf.remaining() % width == 0) {
      // one pass: swap-copied from a mapped window of the file, when the chunk lies in one
      ByteBuffer w = a.source().window(a.offset() + done, buf.remaining());
      if (w != null && w.remaining() == buf.remaining()) {
        swapCopy(w, buf, width);
        return buf.flip().limit();
      }
    }
    a.source().readFully(buf, a.offset() + done);
    buf.flip();
    if (check != null) {
      check.passed(buf, a.offset() + done);
    }
    if (swap) {
      swap(buf, a.dtype().width());
    }
    return buf.limit();
  }

  /**
   * Copies the elements of {@code from} (whole ones, {@code width} 2, 4 or 8 bytes) into
   * {@code dst} at its position with each element's bytes reversed, in one pass: the JDK copies
   * between views of different byte order swapping as it goes. Both positions are advanced.
   */
  public static void swapCopy(ByteBuffer from, ByteBuffer dst, int width) {
    int k = from.remaining();
    ByteBuffer to = dst.slice(dst.position(), k).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer be = from.slice().order(ByteOrder.BIG_ENDIAN);
    switch (width) {
      case 2 -> to.asShortBuffer().put(be.asShortBuffer());
      case 4 -> to.asIntBuffer().put(be.asIntBuffer());
      default -> to.asLongBuffer().put(be.asLongBuffer());
    }
    from.position(from.limit());
    dst.position(dst.position() + k);
  }

  /** Reverses the bytes of each {@code width}-byte element in {@code buf[position, limit)}. */
  static void swap(ByteBuffer buf, int width) {
    int start = buf.position();
    swap(buf, start, buf.limit() - (buf.limit() - start) % width, width);
  }

  /**
   * Reverses the bytes of each {@code width}-byte element in {@code buf[from, to)} (absolute
   * indices; {@code to - from} a multiple of {@code width}) without moving the buffer's position.
   * Widths 2, 4 and 8 go through a bulk copy between a big- and a little-endian view of the same
   * bytes, which the JDK does as one byte-swapping memory copy (defined for overlapping views);
   * a byte-at-a-time loop is ten to twenty times slower.
   */
  public static void swap(ByteBuffer buf, int from, int to, int width) {
    if (width <= 1 || to <= from) {
      return;
    }
    ByteBuffer region = buf.duplicate().clear().position(from).limit(to).slice();
    ByteBuffer be = region.duplicate().order(ByteOrder.BIG_ENDIAN);
    ByteBuffer le = region.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int n = (to - from) / width;
    switch (width) {
      case 2 -> le.asShortBuffer().put(0, be.asShortBuffer(), 0, n);
      case 4 -> le.asIntBuffer().put(0, be.asIntBuffer(), 0, n);
      case 8 -> le.asLongBuffer().put(0, be.asLongBuffer(), 0, n);
      default -> {
        for (int i = from; i + width <= to; i += width) {
          for (int lo = i, hi = i + width - 1; lo < hi; lo++, hi--) {
            byte t = buf.get(lo);
            buf.put(lo, buf.get(hi));
            buf.put(hi, t);
          }
        }
      }
    }
  }
}
