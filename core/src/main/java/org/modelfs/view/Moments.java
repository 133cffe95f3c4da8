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
