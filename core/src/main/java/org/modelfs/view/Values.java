package org.modelfs.view;

import java.nio.ByteBuffer;
import org.modelfs.model.DType;
import org.modelfs.model.Float16;

/**
 * Element {@code i} of a little-endian buffer of any numeric ND4J type, as a double: floating
 * point exactly, integers exactly up to 2⁵³ (LONG and UINT64 beyond that rounded, as NumPy's
 * {@code astype(float64)} rounds them), BOOL as 0 or 1.
 */
final class Values {
  private Values() {}

  /** Whether arrays of {@code t} have statistics (every fixed-width type but FLOAT8 and the quantized ones). */
  static boolean numeric(DType t) {
    return switch (t) {
      case UTF8, FLOAT8, QINT8, QINT16 -> false;
      default -> true;
    };
  }

  /** Elements {@code from} to {@code from + count} of {@code b} into {@code out[0..count)}: one loop per type. */
  static void decode(ByteBuffer b, DType t, int from, int count, double[] out) {
    switch (t) {
      case FLOAT -> {
        for (int i = 0; i < count; i++) {
          out[i] = b.getFloat(4 * (from + i));
        }
      }
      case DOUBLE -> {
        for (int i = 0; i < count; i++) {
          out[i] = b.getDouble(8 * (from + i));
        }
      }
      default -> {
        for (int i = 0; i < count; i++) {
          out[i] = get(b, t, from + i);
        }
      }
    }
  }

  static double get(ByteBuffer b, DType t, int i) {
    return switch (t) {
      case DOUBLE -> b.getDouble(8 * i);
      case FLOAT -> b.getFloat(4 * i);
      case HALF -> Float16.halfToFloat(b.getShort(2 * i));
      case BFLOAT16 -> Float16.bfloat16ToFloat(b.getShort(2 * i));
      case BOOL -> b.get(i) != 0 ? 1 : 0;
      case INT8 -> b.get(i);
      case UINT8 -> b.get(i) & 0xFF;
      case INT16 -> b.getShort(2 * i);
      case UINT16 -> b.getShort(2 * i) & 0xFFFF;
      case INT32 -> b.getInt(4 * i);
      case UINT32 -> b.getInt(4 * i) & 0xFFFFFFFFL;
      case INT64 -> (double) b.getLong(8 * i);
      case UINT64 -> unsigned(b.getLong(8 * i));
      default -> throw new IllegalArgumentException(t + " has no numeric elements");
    };
  }

  /** A UINT64's bits as the nearest double (as NumPy converts it). */
  private static double unsigned(long v) {
    return v >= 0 ? v : ((v >>> 1) | (v & 1)) * 2.0;
  }
}
