package org.modelfs.model;

/**
 * Conversions between the 16-bit float types (IEEE binary16 "HALF" and BFLOAT16) and Java's
 * float/double: widening is exact; narrowing rounds once, to nearest with ties to even, and keeps
 * signed zeros, subnormals, infinities and NaN (made quiet).
 */
public final class Float16 {
  private Float16() {}

  /** The value of the binary16 bits {@code h}. */
  public static float halfToFloat(short h) {
    int sign = (h & 0x8000) << 16;
    int exp = (h >>> 10) & 0x1F;
    int mant = h & 0x3FF;
    if (exp == 0) { // zero or subnormal: mant × 2^-24, exact in float
      float v = Math.scalb((float) mant, -24);
      return sign != 0 ? -v : v;
    }
    if (exp == 0x1F) { // infinity, or NaN with its payload
      return Float.intBitsToFloat(sign | 0x7F800000 | mant << 13);
    }
    return Float.intBitsToFloat(sign | (exp + 112) << 23 | mant << 13);
  }

  /** The binary16 nearest to {@code v} (one rounding, ties to even); beyond 65504 rounds to infinity. */
  public static short toHalf(double v) {
    return narrow(v, 10, -14, 0x7C00);
  }

  /** The value of the BFLOAT16 bits {@code b}: the upper half of a float. */
  public static float bfloat16ToFloat(short b) {
    return Float.intBitsToFloat((b & 0xFFFF) << 16);
  }

  /** The BFLOAT16 nearest to {@code v} (one rounding, ties to even). */
  public static short toBfloat16(double v) {
    return narrow(v, 7, -126, 0x7F80);
  }

  /**
   * Rounds {@code v} to a 16-bit format with {@code mantBits} fraction bits, smallest normal
   * exponent {@code minExp} and infinity bits {@code inf}. In the binade of exponent
   * {@code e >= minExp} (subnormals count as {@code minExp}) the values are {@code m × 2^(e - mantBits)}:
   * scaling by a power of two is exact, {@link Math#rint} rounds to even, and a carry of the
   * integer {@code m} into the next binade (or to infinity) falls out of the bit layout.
   */
  private static short narrow(double v, int mantBits, int minExp, int inf) {
    long bits = Double.doubleToRawLongBits(v);
    int sign = (int) (bits >>> 63) << 15;
    if (Double.isNaN(v)) {
      int payload = (int) ((bits & 0x000FFFFFFFFFFFFFL) >>> (52 - mantBits));
      return (short) (sign | inf | 1 << (mantBits - 1) | payload);
    }
    double abs = Math.abs(v);
    if (Double.isInfinite(abs)) {
      return (short) (sign | inf);
    }
    int e = Math.max(Math.getExponent(abs), minExp);
    long m = (long) Math.rint(Math.scalb(abs, mantBits - e));
    long out = ((long) (e - minExp) << mantBits) + m;
    return (short) (sign | (int) Math.min(out, inf));
  }
}
