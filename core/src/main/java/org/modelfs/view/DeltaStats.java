package org.modelfs.view;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.modelfs.model.DType;

/**
 * How array {@code b} differs from array {@code a} (same type and element count), element by
 * element at the same positions ({@link Sample}): the moments and histogram of {@code Δ = b - a}
 * (in double), the elements that differ, and the norms ‖Δ‖ and ‖a‖ over the pairs where both
 * are finite, whose ratio is the relative change.
 */
public final class DeltaStats {
  private DeltaStats() {}

  /** The facts of {@code b - a}; {@code null} for a type without numbers. */
  public static Map<String, Object> of(Path a, Path b, DType dtype, long elements) throws IOException {
    if (!Values.numeric(dtype)) {
      return null;
    }
    Path[] files = {a, b};
    Moments delta = new Moments();
    Moments base = new Moments();
    long[] differing = new long[1];
    Sample.forEach(files, dtype, elements, (bufs, k) -> {
      for (int i = 0; i < k; i++) {
        double x = Values.get(bufs[0], dtype, i);
        double y = Values.get(bufs[1], dtype, i);
        if (Double.compare(x, y) != 0 && !(x == y)) {
          differing[0]++;
        }
        if (Double.isFinite(x) && Double.isFinite(y)) {
          delta.add(y - x);
          base.add(x);
        }
      }
    });
    Map<String, Object> out = ArrayStats.header(elements);
    out.put("differing", differing[0]);
    double dd = delta.sumOfSquares();
    double aa = base.sumOfSquares();
    out.put("deltaNorm", Math.sqrt(dd));
    out.put("norm", Math.sqrt(aa));
    out.put("deltaSquares", dd);
    out.put("squares", aa);
    out.put("relativeChange", aa > 0 ? Math.sqrt(dd / aa) : dd > 0 ? null : 0.0);
    out.put("delta", delta.toMap());
    if (delta.finite > 0) {
      Histogram h = new Histogram(delta.min, delta.max);
      Sample.forEach(files, dtype, elements, (bufs, k) -> {
        ByteBuffer x = bufs[0];
        ByteBuffer y = bufs[1];
        for (int i = 0; i < k; i++) {
          h.add(Values.get(y, dtype, i) - Values.get(x, dtype, i));
        }
      });
      out.put("histogram", h.toMap());
    }
    return out;
  }
}
