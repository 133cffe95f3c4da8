package org.modelfs.view;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Streaming facts of a sequence of doubles: how many, zeros, NaN, ±Inf, and over the finite
 * ones min, max, mean and the population standard deviation (NumPy's {@code std}, ddof 0),
 * summed in double about the first finite value (shifted sums keep a large mean from eating
 * the variance).
 */
final class Moments {
  long count;
  long zeros;
  long nan;
  long posInf;
  long negInf;
  long finite;
  double min = Double.NaN;
  double max = Double.NaN;
  private double shift = Double.NaN;
  private double sum;
  private double sumSq;

  void add(double x) {
    count++;
    if (x == 0) {
      zeros++;
    }
    if (Double.isNaN(x)) {
      nan++;
      return;
    }
    if (Double.isInfinite(x)) {
      if (x > 0) {
        posInf++;
      } else {
        negInf++;
      }
      return;
    }
    if (finite++ == 0) {
      shift = x;
      min = x;
      max = x;
    } else if (x < min) {
      min = x;
    } else if (x > max) {
      max = x;
    }
    double d = x - shift;
    sum += d;
    sumSq += d * d;
  }

  /**
   * Adds {@code d[0..k)}, as {@link #add} on each would: pairs of finite values go through one
   * loop with no unpredictable branch and two independent pairs of sums (the additions overlap);
   * a pair holding a NaN or an infinity goes through {@link #add}.
   */
  void addAll(double[] d, int k) {
    int i = 0;
    while (i < k && finite == 0) {
      add(d[i++]);
    }
    double s0 = 0;
    double s1 = 0;
    double q0 = 0;
    double q1 = 0;
    double lo = min;
    double hi = max;
    long pairs = 0;
    long z = 0;
    for (; i + 1 < k; i += 2) {
      double x = d[i];
      double y = d[i + 1];
      if (x - x == 0 && y - y == 0) { // both finite
        lo = Math.min(lo, Math.min(x, y));
        hi = Math.max(hi, Math.max(x, y));
        double a = x - shift;
        double b = y - shift;
        s0 += a;
        s1 += b;
        q0 += a * a;
        q1 += b * b;
        pairs++;
        z += (x == 0 ? 1 : 0) + (y == 0 ? 1 : 0);
      } else {
        add(x);
        add(y);
      }
    }
    count += 2 * pairs;
    finite += 2 * pairs;
    zeros += z;
    sum += s0 + s1;
    sumSq += q0 + q1;
    min = Math.min(min, lo);
    max = Math.max(max, hi);
    for (; i < k; i++) {
      add(d[i]);
    }
  }

  double mean() {
    return finite == 0 ? Double.NaN : shift + sum / finite;
  }

  double std() {
    if (finite == 0) {
      return Double.NaN;
    }
    double m = sum / finite;
    return Math.sqrt(Math.max(0, sumSq / finite - m * m));
  }

  /** The sum of squares of the finite values (for norms). */
  double sumOfSquares() {
    return finite == 0 ? 0 : sumSq + 2 * shift * sum + finite * shift * shift;
  }

  /** The counts, then min/max/mean/std ({@code null} when no value is finite). */
  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("min", finite == 0 ? null : min);
    m.put("max", finite == 0 ? null : max);
    m.put("mean", finite == 0 ? null : mean());
    m.put("std", finite == 0 ? null : std());
    m.put("zeros", zeros);
    m.put("nan", nan);
    m.put("posInf", posInf);
    m.put("negInf", negInf);
    return m;
  }
}
