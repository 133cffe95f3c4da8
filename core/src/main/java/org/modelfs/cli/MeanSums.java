package org.modelfs.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The running sums of one chunk's elements for {@link ArrayMean}: per element a double-double
 * sum (TwoSum: the exact sum is {@code hi} plus the rounding errors gathered in {@code lo}) and
 * the sum of magnitudes that bounds what {@code lo} may have lost. Where that bound is small
 * against the sum the mean is {@code (hi + lo) / count}; where it is not (cancellation), or the
 * running sum left the double range while every value is finite (values near
 * {@code Double.MAX_VALUE}), the caller asks {@link #exactMean} for the element instead
 * ({@link #needsExact}). Either way the mean is within 2 ulps of the exact mean — a mean of finite values is finite.
 */
final class MeanSums {
  private static final double TWO_POW_M56 = 0x1p-56;
  private static final double TWO_POW_M104 = 0x1p-104;
  private static final MathContext DIGITS = new MathContext(40, RoundingMode.HALF_EVEN);

  private final double[] hi;
  private final double[] lo;
  private final double[] abs;
  private final boolean[] nonFinite;

  MeanSums(int elements) {
    hi = new double[elements];
    lo = new double[elements];
    abs = new double[elements];
    nonFinite = new boolean[elements];
  }

  /** Element {@code i}'s first value. */
  void start(int i, double v) {
    hi[i] = v;
    lo[i] = 0;
    abs[i] = Math.abs(v);
    nonFinite[i] = !Double.isFinite(v);
  }

  /** Adds a value to element {@code i}: Knuth's TwoSum, exact while {@code hi} stays finite. */
  void add(int i, double v) {
    double s = hi[i] + v;
    double bv = s - hi[i];
    double e = (hi[i] - (s - bv)) + (v - bv);
    hi[i] = s;
    lo[i] += e;
    abs[i] += Math.abs(v);
    nonFinite[i] |= !Double.isFinite(v);
  }

  /**
   * Whether only {@link #exactMean} can tell element {@code i}'s mean: its values are finite,
   * and the running sum overflowed or lost more than the 2⁻⁵⁶ of the sum that keeps the mean
   * within 2 ulps ({@code lo}'s own rounding errors are at most count² · 2⁻¹⁰⁶ · Σ|v|).
   */
  boolean needsExact(int i, int count) {
    if (nonFinite[i]) {
      return false;
    }
    return !Double.isFinite(hi[i]) || !Double.isFinite(abs[i])
        || (double) count * count * TWO_POW_M104 * abs[i] > TWO_POW_M56 * Math.abs(hi[i] + lo[i]);
  }

  /**
   * The mean of element {@code i}'s {@code count} values, where {@link #needsExact} is false;
   * with an infinite or NaN value the IEEE sum's mean (inf, -inf or NaN), as NumPy gives.
   */
  double mean(int i, int count) {
    return nonFinite[i] ? hi[i] / count : (hi[i] + lo[i]) / count;
  }

  /** The mean of finite {@code values}: the exact decimal sum, divided to 40 digits, rounded once to double. */
  static double exactMean(double[] values) {
    BigDecimal sum = BigDecimal.ZERO;
    for (double v : values) {
      sum = sum.add(new BigDecimal(v));
    }
    return sum.divide(BigDecimal.valueOf(values.length), DIGITS).doubleValue();
  }
}
