package org.modelfs.exchange;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.function.LongConsumer;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.Shapes;

/**
 * Streams an array's elements from a range of a {@link FileChannel} to a channel: as they are,
 * byte-swapped, or transposed between f (column-major) and c (row-major) order. Memory is
 * bounded whatever the array's size: a 1 MiB buffer for plain copies; for a transpose a slab of
 * at most 16 MiB (direct, not heap) plus read-only mappings of the source.
 *
 * <p>The transpose writes its output strictly in order, so the output can be any writable
 * channel (a file being written, a model's write channel). It reads the source at random
 * positions: through {@code map} where the channel offers it (ModelFS channels and disk files
 * do), else by positional reads.
 */
public final class ArrayCopy {
  /** Buffer of a plain copy; a multiple of every element width. */
  static final int CHUNK = 1 << 20;
  /** Largest slab of output rows a transpose assembles at once. */
  static final int SLAB = 16 << 20;
  /** Size of one mapping window of the source (each overlaps the next by one slab row). */
  static final long WINDOW = 1L << 30;

  private ArrayCopy() {}

  /**
   * Copies {@code length} bytes at {@code position} of {@code in} to {@code out}, reversing the
   * bytes of every {@code width}-byte element when {@code swap}; {@code progress} is told the
   * bytes written.
   */
  public static void copy(FileChannel in, long position, long length, int width, boolean swap,
      WritableByteChannel out, LongConsumer progress) throws IOException {
    int size = (int) Math.max(8, Math.min(CHUNK, length));
    ByteBuffer buf = size < (64 << 10) ? ByteBuffer.allocate(size) : ByteBuffer.allocateDirect(size);
    long done = 0;
    while (done < length) {
      buf.clear().limit((int) Math.min(buf.capacity(), length - done));
      readFully(in, buf, position + done);
      buf.flip();
      if (swap) {
        ArrayStreams.swap(buf, 0, buf.limit(), width);
      }
      writeFully(out, buf);
      done += buf.limit();
      progress.accept(buf.limit());
    }
  }

  /**
   * Writes the f-ordered array of {@code shape} stored at {@code position} of {@code in} to
   * {@code out} in c order (the same array, row-major).
   */
  public static void fToC(FileChannel in, long position, long[] shape, int width, WritableByteChannel out,
      LongConsumer progress) throws IOException {
    fToC(in, position, shape, width, out, progress, SLAB);
  }

  /**
   * Writes the c-ordered array of {@code shape} stored at {@code position} of {@code in} to
   * {@code out} in f order. A c-ordered array is the f-ordered array of the reversed shape, and
   * its transpose to c order is the f-ordered original.
   */
  public static void cToF(FileChannel in, long position, long[] shape, int width, WritableByteChannel out,
      LongConsumer progress) throws IOException {
    fToC(in, position, reversed(shape), width, out, progress, SLAB);
  }

  static long[] reversed(long[] shape) {
    long[] r = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      r[i] = shape[shape.length - 1 - i];
    }
    return r;
  }

  /**
   * The transpose with a given slab budget (tests use small ones). Dimensions of size 1 change no
   * element's position, so they are dropped first; an array left with at most one dimension is
   * the same bytes in both orders.
   *
   * <p>With {@code d} the shape, {@code R = d[0]} and {@code M} the product of the others: the
   * c-ordered output is {@code R} rows of {@code M} elements, row {@code i} holding every element
   * whose first index is {@code i}. In the f-ordered input, the elements of rows
   * {@code [i0, i0 + t)} that share all other indices are {@code t} consecutive elements. So a
   * slab of {@code t} output rows (t·M·width ≤ budget) is filled by {@code M} reads of {@code t}
   * elements each, scattered to their places, and written out in one piece. A single row larger
   * than the budget (an array with a huge product of its trailing dimensions) is gathered
   * element by element in output order instead.
   */
  static void fToC(FileChannel in, long position, long[] shape, int width, WritableByteChannel out,
      LongConsumer progress, int slabBudget) throws IOException {
    long n = Shapes.elementCount(shape);
    if (Shapes.sizeProblem(shape, width) != null) {
      throw new IOException(Shapes.sizeProblem(shape, width));
    }
    long[] d = Arrays.stream(shape).filter(x -> x != 1).toArray();
    if (d.length <= 1 || n == 0) {
      copy(in, position, n * width, width, false, out, progress);
      return;
    }
    long rows = d[0];
    long m = n / rows;
    long rowBytes = m * width;
    try (Source src = Source.of(in, position, n * width, Math.min(rows * width, slabBudget))) {
      if (rowBytes <= slabBudget) {
        slabs(src, d, width, out, progress, (int) Math.min(rows, slabBudget / rowBytes));
      } else {
        gather(src, d, width, out, progress);
      }
    }
  }

  private static void slabs(Source src, long[] d, int width, WritableByteChannel out, LongConsumer progress,
      int t) throws IOException {
    long rows = d[0];
    int rank = d.length - 1;
    long[] rest = Arrays.copyOfRange(d, 1, d.length);
    long m = Shapes.elementCount(rest);
    long[] cs = Shapes.strides(rest, 'c');
    ByteBuffer slab = ByteBuffer.allocateDirect((int) (t * m * width));
    long[] j = new long[rank];
    for (long i0 = 0; i0 < rows; i0 += t) {
      int tt = (int) Math.min(t, rows - i0);
      Arrays.fill(j, 0);
      long rc = 0; // c-order index of the trailing indices j
      for (long rf = 0; rf < m; rf++) {
        src.scatter((i0 + rows * rf) * width, tt, width, slab, rc, m);
        for (int a = 0; a < rank; a++) { // next j in f order, rc follows
          j[a]++;
          rc += cs[a];
          if (j[a] < rest[a]) {
            break;
          }
          rc -= rest[a] * cs[a];
          j[a] = 0;
        }
      }
      slab.clear().limit((int) (tt * m * width));
      writeFully(out, slab);
      progress.accept(slab.limit());
    }
  }

  private static void gather(Source src, long[] d, int width, WritableByteChannel out, LongConsumer progress)
      throws IOException {
    int rank = d.length;
    long[] fs = Shapes.strides(d, 'f');
    long[] idx = new long[rank];
    long n = Shapes.elementCount(d);
    ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
    long f = 0; // f-order index of idx
    for (long e = 0; e < n; e++) {
      src.get(f * width, width, buf);
      if (!buf.hasRemaining()) {
        buf.flip();
        writeFully(out, buf);
        progress.accept(buf.limit());
        buf.clear();
      }
      for (int a = rank - 1; a >= 0; a--) { // next idx in c order, f follows
        idx[a]++;
        f += fs[a];
        if (idx[a] < d[a]) {
          break;
        }
        f -= d[a] * fs[a];
        idx[a] = 0;
      }
    }
    buf.flip();
    writeFully(out, buf);
    progress.accept(buf.limit());
  }

  /** Random access to the source array: mapped windows, or positional reads through a run buffer. */
  private abstract static class Source implements AutoCloseable {
    static Source of(FileChannel in, long position, long length, long maxRun) throws IOException {
      try {
        return new Mapped(in, position, length, maxRun);
      } catch (UnsupportedOperationException e) {
        return new Reads(in, position, (int) maxRun);
      }
    }

    /**
     * Copies {@code count} consecutive elements at byte {@code at} of the array into the slab:
     * element {@code k} to element index {@code k * stride + base}.
     */
    abstract void scatter(long at, int count, int width, ByteBuffer slab, long base, long stride) throws IOException;

    /** Appends the element at byte {@code at} to {@code out}. */
    abstract void get(long at, int width, ByteBuffer out) throws IOException;

    @Override
    public void close() {}

    static void put(ByteBuffer from, int i, int width, ByteBuffer to, int o) {
      switch (width) {
        case 1 -> to.put(o, from.get(i));
        case 2 -> to.putShort(o, from.getShort(i));
        case 4 -> to.putInt(o, from.getInt(i));
        case 8 -> to.putLong(o, from.getLong(i));
        default -> {
          for (int b = 0; b < width; b++) {
            to.put(o + b, from.get(i + b));
          }
        }
      }
    }
  }

  /** The array mapped in windows of {@link #WINDOW} bytes, each overlapping the next by the longest run. */
  private static final class Mapped extends Source {
    private final MappedByteBuffer[] windows;

    Mapped(FileChannel in, long position, long length, long maxRun) throws IOException {
      int count = (int) Math.max(1, (length + WINDOW - 1) / WINDOW);
      windows = new MappedByteBuffer[count];
      for (int k = 0; k < count; k++) {
        long start = k * WINDOW;
        windows[k] = in.map(FileChannel.MapMode.READ_ONLY, position + start, Math.min(length - start, WINDOW + maxRun));
      }
    }

    @Override
    void scatter(long at, int count, int width, ByteBuffer slab, long base, long stride) {
      ByteBuffer w = windows[(int) (at / WINDOW)];
      int i = (int) (at % WINDOW);
      for (int k = 0; k < count; k++, i += width) {
        put(w, i, width, slab, (int) ((k * stride + base) * width));
      }
    }

    @Override
    void get(long at, int width, ByteBuffer out) {
      put(windows[(int) (at / WINDOW)], (int) (at % WINDOW), width, out, out.position());
      out.position(out.position() + width);
    }
  }

  /** Positional reads of each run into a buffer (for channels that cannot map). */
  private static final class Reads extends Source {
    private final FileChannel in;
    private final long position;
    private final ByteBuffer run;

    Reads(FileChannel in, long position, int maxRun) {
      this.in = in;
      this.position = position;
      this.run = ByteBuffer.allocateDirect(Math.max(8, maxRun));
    }

    @Override
    void scatter(long at, int count, int width, ByteBuffer slab, long base, long stride) throws IOException {
      run.clear().limit(count * width);
      readFully(in, run, position + at);
      for (int k = 0; k < count; k++) {
        put(run, k * width, width, slab, (int) ((k * stride + base) * width));
      }
    }

    @Override
    void get(long at, int width, ByteBuffer out) throws IOException {
      run.clear().limit(width);
      readFully(in, run, position + at);
      put(run, 0, width, out, out.position());
      out.position(out.position() + width);
    }
  }

  /** Fills {@code buf} from {@code in} at {@code position}; a file that ends first is an {@link EOFException}. */
  static void readFully(FileChannel in, ByteBuffer buf, long position) throws IOException {
    long pos = position;
    while (buf.hasRemaining()) {
      int n = in.read(buf, pos);
      if (n < 0) {
        throw new EOFException("the file ends at byte " + pos + ", before the array does");
      }
      pos += n;
    }
  }

  static void writeFully(WritableByteChannel out, ByteBuffer buf) throws IOException {
    while (buf.hasRemaining()) {
      out.write(buf);
    }
  }
}
