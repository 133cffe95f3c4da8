package org.modelfs.model;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;

/**
 * The rules every stored array must satisfy, shared by the check a commit makes before writing
 * ({@code provider.Validation}) and by {@code modelfs verify} ({@code org.modelfs.verify}): the
 * byte count its dtype and shape need, valid UTF8 offsets (docs/FORMATS.md §3.8), element values
 * DL4J loads as written (BOOL 0 or 1, the one HALF NaN), and updater
 * state of its parameter's shape. Each rule answers with the problem in words (without the path:
 * the caller names it), or {@code null} when there is none.
 */
public final class ArrayRules {
  /**
   * The problem of updater state whose parameter is not a variable of the graph. DL4J loads it
   * and fails at the first training step.
   */
  public static final String NO_PARAMETER = "updater state of a parameter the graph does not have";

  private ArrayRules() {}

  /**
   * What is wrong with {@code a}'s byte count, or {@code null}: a fixed-width array holds exactly
   * {@code prod(shape) × width} bytes (an empty one none, but only with a shape DL4J writes for
   * one: {@code []} or one without elements; a written 0-byte journal file only the latter), a
   * UTF8 array at least its {@code n + 1} offsets (an empty one of such a shape none).
   */
  public static String byteCount(ArrayData a) {
    boolean journal = a.storage() == ArrayData.Storage.JOURNAL;
    if (a.dtype().width() == 0) {
      long n = Shapes.elementCount(a.shape());
      if (emptyAsDl4jWrites(a, journal)) {
        return null;
      }
      if (n < 0 || a.length() < 8 * (n + 1)) {
        return a.length() + " bytes cannot hold the " + (n + 1) + " offsets of a UTF8 array of shape "
            + Arrays.toString(a.shape());
      }
      return null;
    }
    boolean emptyOk = emptyAsDl4jWrites(a, journal);
    long need = emptyOk ? 0 : Shapes.byteLength(a.shape(), a.dtype().width());
    if (need != a.length()) {
      return "holds " + a.length() + " bytes, but " + (emptyOk ? a.dtype() + Arrays.toString(a.shape()) + " needs 0"
          : Shapes.needs(a.dtype(), a.shape(), a.dtype().width()));
    }
    return null;
  }

  /**
   * True for an empty array of no bytes as DL4J writes one: shape {@code []} or a shape with no
   * elements (a journal file only the latter). An empty array given a shape with elements (a
   * {@code samediff:shape} set on it) is loaded by DL4J as that many zeros, so it needs the bytes.
   */
  private static boolean emptyAsDl4jWrites(ArrayData a, boolean journal) {
    if (!a.empty() || a.length() != 0) {
      return false;
    }
    long n = Shapes.elementCount(a.shape());
    return n == 0 || (!journal && a.shape().length == 0);
  }

  /**
   * What is wrong with updater state array {@code state} of a parameter whose array is
   * {@code param}, or {@code null}: DL4J's updaters keep state of their parameter's shape; a
   * parameter reshaped without its state (or the reverse) loads, and fails at the first training
   * step.
   */
  public static String stateShape(ArrayData state, ArrayData param) {
    if (Arrays.equals(state.shape(), param.shape())) {
      return null;
    }
    return "shape " + Arrays.toString(state.shape()) + " differs from its parameter's " + Arrays.toString(param.shape());
  }

  /**
   * Checks the offsets of a UTF8 array (docs/FORMATS.md §3.8): {@code n + 1} little-endian int64
   * offsets into the string bytes that follow them, the first 0, none smaller than the one before,
   * the last at most the number of string bytes. DL4J reads string i as bytes {@code [off_i,
   * off_i+1)}: a decreasing offset is a negative length there, one past the end a read outside the
   * array. Fed with the array's little-endian bytes from its start, in chunks of any size; reads
   * only what it needs, so a caller streaming the whole array feeds every chunk.
   */
  public static final class Utf8Offsets {
    private final long count;
    private final long data;
    private final byte[] carry = new byte[8];
    private int carried;
    private long index;
    private long prev;
    private String problem;

    /** A check of {@code a}, a UTF8 array whose {@link #byteCount} is fine. */
    public Utf8Offsets(ArrayData a) {
      long n = Shapes.elementCount(a.shape());
      this.count = n + 1;
      this.data = a.length() - 8 * count;
    }

    /** True once every offset was seen or a problem was found: later bytes change nothing. */
    public boolean done() {
      return problem != null || index >= count;
    }

    /** The problem found, or {@code null}. */
    public String problem() {
      return problem;
    }

    /** Feeds {@code chunk}'s bytes from its position to its limit (which it does not change). */
    public void accept(ByteBuffer chunk) {
      ByteBuffer b = chunk.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      while (!done() && b.hasRemaining()) {
        if (carried > 0 || b.remaining() < 8) {
          while (carried < 8 && b.hasRemaining()) {
            carry[carried++] = b.get();
          }
          if (carried == 8) {
            carried = 0;
            next(ByteBuffer.wrap(carry).order(ByteOrder.LITTLE_ENDIAN).getLong());
          }
        } else {
          next(b.getLong());
        }
      }
    }

    private void next(long off) {
      if (index == 0 && off != 0) {
        problem = "a UTF8 array's first offset is 0, this one is " + off;
      } else if (off < prev || off > data) {
        problem = "UTF8 offset " + index + " is " + off + (off < prev ? ", less than the one before (" + prev + ")"
            : ", past the " + data + " bytes of strings") + "; DL4J could not read the array";
      }
      prev = off;
      index++;
    }

    /**
     * Reads {@code a}'s offsets (only those, through a 64 KiB buffer) and answers the problem,
     * or {@code null}.
     *
     * @throws EOFException if the source ends inside the offsets
     */
    public static String check(ArrayData a) throws IOException {
      Utf8Offsets c = new Utf8Offsets(a);
      ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      long done = 0;
      while (!c.done()) {
        buf.clear().limit((int) Math.min(buf.capacity(), 8 * c.count - done));
        a.source().readFully(buf, a.offset() + done);
        buf.flip();
        c.accept(buf);
        done += buf.limit();
      }
      return c.problem();
    }
  }

  /**
   * Checks the element values DL4J keeps as written (docs/FILESYSTEM.md §3): a BOOL element is the
   * byte 0 or 1 (DL4J 1.0.0-M2.1 loads another byte as 0 or 1, not as written), a HALF NaN is 0x7e00 (DL4J loads every HALF NaN
   * as 0x7e00). Other dtypes have no such rule. Fed with the array's little-endian bytes from its
   * start, in chunks of any size that keep elements whole (a multiple of 2 bytes).
   */
  public static final class Values {
    private final DType dtype;
    private long index;
    private String problem;

    /** A check of elements of {@code dtype}. */
    public Values(DType dtype) {
      this.dtype = dtype;
    }

    /** Whether {@code t}'s elements have a value rule: without one, nothing needs reading. */
    public static boolean applies(DType t) {
      return t == DType.BOOL || t == DType.HALF;
    }

    /** The first problem found, or {@code null}. */
    public String problem() {
      return problem;
    }

    /** Feeds {@code chunk}'s bytes from its position to its limit (which it does not change). */
    public void accept(ByteBuffer chunk) {
      ByteBuffer b = chunk.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      if (problem != null) {
        return;
      }
      if (dtype == DType.BOOL) {
        for (int i = b.position(); i < b.limit(); i++, index++) {
          int x = b.get(i) & 0xFF;
          if (x > 1) {
            problem = String.format(Locale.ROOT,
                "BOOL element %d is 0x%02x: DL4J reads a BOOL as 0 or 1 and would not load this byte as written", index, x);
            return;
          }
        }
      } else if (dtype == DType.HALF) {
        for (int i = b.position(); i + 2 <= b.limit(); i += 2, index++) {
          int x = b.getShort(i) & 0xFFFF;
          if ((x & 0x7C00) == 0x7C00 && (x & 0x03FF) != 0 && x != 0x7E00) {
            problem = String.format(Locale.ROOT,
                "HALF element %d is the NaN 0x%04x: DL4J loads every HALF NaN as 0x7e00; write that one", index, x);
            return;
          }
        }
      }
    }

    /**
     * Reads all of {@code a} (through a 64 KiB buffer, little-endian as every reader sees it)
     * and answers its first value problem, or {@code null}; nothing is read for a dtype without
     * a value rule.
     *
     * @throws EOFException if the source ends inside the array
     */
    public static String check(ArrayData a) throws IOException {
      if (!applies(a.dtype()) || a.length() == 0) {
        return null;
      }
      Values c = new Values(a.dtype());
      ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      long done = 0;
      while (done < a.length() && c.problem() == null) {
        buf.clear().limit((int) Math.min(buf.capacity(), a.length() - done));
        a.source().readFully(buf, a.offset() + done);
        buf.flip();
        if (a.bigEndian()) {
          ArrayStreams.swap(buf, 0, buf.limit() - buf.limit() % a.dtype().width(), a.dtype().width());
        }
        c.accept(buf);
        done += buf.limit();
      }
      return c.problem();
    }
  }
}
