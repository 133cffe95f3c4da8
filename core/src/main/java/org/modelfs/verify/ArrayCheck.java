package org.modelfs.verify;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;
import org.modelfs.io.ReadCheck;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayRules;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.DType;

/**
 * Reads one array to its end through one 1 MiB buffer (little-endian, byte-swapped from legacy
 * big-endian storage as every reader sees it): whether all its bytes are there, its UTF8 offsets,
 * its BOOL and HALF values ({@link ArrayRules.Values}),
 * and how many of its floating-point elements are NaN or infinite.
 */
final class ArrayCheck {
  /** Bytes per read: a multiple of every element width. */
  static final int CHUNK = 1 << 20;

  private final ByteBuffer buf = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);

  /**
   * What reading an array found.
   *
   * @param read the bytes that could be read
   * @param unreadable why the array could not be read to its end, or {@code null}
   * @param content what is wrong with its UTF8 offsets or its element values
   *     ({@link ArrayRules.Values}), or {@code null}
   * @param nan NaN elements (counted only when asked, for floating-point types)
   * @param posInf +Inf elements
   * @param negInf -Inf elements
   * @param values the number of elements
   */
  record Outcome(long read, String unreadable, String content, long nan, long posInf, long negInf, long values) {
    /** {@code 3 NaN, 1 +Inf of 4096 values}, or {@code null} when every element is finite. */
    String nonFinite() {
      List<String> parts = new ArrayList<>();
      if (nan > 0) {
        parts.add(nan + " NaN");
      }
      if (posInf > 0) {
        parts.add(posInf + " +Inf");
      }
      if (negInf > 0) {
        parts.add(negInf + " -Inf");
      }
      return parts.isEmpty() ? null : String.join(", ", parts) + " of " + values + " values";
    }
  }

  /**
   * Reads {@code a} to its end. {@code utf8} checks a UTF8 array's offsets and a BOOL or HALF
   * array's values (only when its byte count is right); {@code countNonFinite} counts NaN and infinities of a floating-point array.
   * {@code progress} hears of every chunk read. I/O errors are answered as an unreadable array.
   */
  Outcome read(ArrayData a, boolean utf8, boolean countNonFinite, LongConsumer progress) {
    DType t = a.dtype();
    int width = Math.max(1, t.width());
    ArrayRules.Utf8Offsets offsets = utf8 && t == DType.UTF8 ? new ArrayRules.Utf8Offsets(a) : null;
    ArrayRules.Values values = utf8 && ArrayRules.Values.applies(t) ? new ArrayRules.Values(t) : null;
    boolean count = countNonFinite && t.isFloatingPoint();
    long[] nonFinite = new long[3];
    long len = a.length();
    ReadCheck check = a.source().newCheck();
    long done = 0;
    String unreadable = null;
    while (done < len && unreadable == null) {
      buf.clear().limit((int) Math.min(CHUNK, len - done));
      while (buf.hasRemaining()) {
        long at = a.offset() + done + buf.position();
        int r;
        try {
          r = a.source().read(buf, at);
        } catch (IOException | RuntimeException e) {
          unreadable = where(a) + ": reading byte " + (done + buf.position()) + " of " + len + " failed: " + e.getMessage();
          break;
        }
        if (r < 0) {
          unreadable = where(a) + ": only " + (done + buf.position()) + " of its " + len + " bytes are there";
          break;
        }
      }
      int got = buf.position();
      progress.accept(got);
      if (unreadable != null) {
        done += got;
        break;
      }
      buf.flip();
      if (check != null) {
        try {
          check.passed(buf, a.offset() + done);
        } catch (IOException e) {
          unreadable = where(a) + ": " + e.getMessage();
          done += got;
          break;
        }
      }
      if (a.bigEndian()) {
        ArrayStreams.swap(buf, 0, got - got % width, width);
      }
      if (offsets != null && !offsets.done()) {
        offsets.accept(buf);
      }
      if (values != null) {
        values.accept(buf);
      }
      if (count) {
        count(buf, t, nonFinite);
      }
      done += got;
    }
    String utf8Problem = offsets != null && unreadable == null ? offsets.problem()
        : values != null ? values.problem() : null;
    return new Outcome(done, unreadable, utf8Problem, nonFinite[0], nonFinite[1], nonFinite[2], a.elementCount());
  }

  private static String where(ArrayData a) {
    return String.format(Locale.ROOT, "stored at offset %d of %s", a.offset(), a.source().name());
  }

  /** Adds the NaN, +Inf and -Inf elements of the little-endian chunk {@code b} to {@code n[0..2]}. */
  static void count(ByteBuffer b, DType t, long[] n) {
    int lim = b.limit();
    switch (t) {
      case DOUBLE -> {
        for (int i = 0; i + 8 <= lim; i += 8) {
          long x = b.getLong(i);
          if ((x & 0x7FF0000000000000L) == 0x7FF0000000000000L) {
            n[(x & 0x000FFFFFFFFFFFFFL) != 0 ? 0 : x < 0 ? 2 : 1]++;
          }
        }
      }
      case FLOAT -> {
        for (int i = 0; i + 4 <= lim; i += 4) {
          int x = b.getInt(i);
          if ((x & 0x7F800000) == 0x7F800000) {
            n[(x & 0x007FFFFF) != 0 ? 0 : x < 0 ? 2 : 1]++;
          }
        }
      }
      case HALF -> small(b, lim, 0x7C00, 0x03FF, n);
      case BFLOAT16 -> small(b, lim, 0x7F80, 0x007F, n);
      default -> throw new IllegalArgumentException(t + " is not a floating-point type");
    }
  }

  /** The 16-bit formats: {@code exponent} all ones is NaN (mantissa set) or an infinity. */
  private static void small(ByteBuffer b, int lim, int exponent, int mantissa, long[] n) {
    for (int i = 0; i + 2 <= lim; i += 2) {
      int x = b.getShort(i) & 0xFFFF;
      if ((x & exponent) == exponent) {
        n[(x & mantissa) != 0 ? 0 : (x & 0x8000) != 0 ? 2 : 1]++;
      }
    }
  }
}
