package org.modelfs.view;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.modelfs.model.DType;

/**
 * The facts of one array file in two passes over the elements read ({@link Sample}; read from
 * the file once when they take at most {@link Sample#HOLD} bytes, else streamed twice): the first gives the counts and
 * min/max/mean/std ({@link Moments}), the second a {@link Histogram} of the finite values over
 * {@code [min, max]}. An array above
 * {@link Sample#SAMPLE_ABOVE} elements is sampled and says so ({@code sampled}, {@code read}).
 */
public final class ArrayStats {
  private ArrayStats() {}

  /**
   * The statistics of {@code file}, a {@code dtype} array of {@code elements} elements, as the
   * page and {@code --json} show them; {@code null} for a type without numbers (UTF8, the
   * quantized and 8-bit float types).
   */
  public static Map<String, Object> of(Path file, DType dtype, long elements) throws IOException {
    if (!Values.numeric(dtype)) {
      return null;
    }
    ByteBuffer held = Sample.held(file, dtype, elements);
    double[] chunk = new double[Sample.CHUNK];
    Moments m = new Moments();
    each(held, file, dtype, elements, chunk, m::addAll);
    Map<String, Object> out = header(elements);
    out.putAll(m.toMap());
    if (m.finite > 0) {
      Histogram h = new Histogram(m.min, m.max);
      each(held, file, dtype, elements, chunk, (d, k) -> {
        for (int i = 0; i < k; i++) {
          h.add(d[i]);
        }
      });
      out.put("histogram", h.toMap());
    }
    return out;
  }

  /** Receives decoded elements {@code d[0..k)}. */
  private interface Doubles {
    void accept(double[] d, int k);
  }

  /** One pass: over the held bytes, or (none held) streamed from the file again. */
  private static void each(ByteBuffer held, Path file, DType t, long n, double[] chunk, Doubles to) throws IOException {
    if (held != null) {
      int read = held.remaining() / t.width();
      for (int from = 0; from < read; from += chunk.length) {
        int k = Math.min(chunk.length, read - from);
        Values.decode(held, t, from, k, chunk);
        to.accept(chunk, k);
      }
    } else {
      Sample.forEach(new Path[] {file}, t, n, (bufs, k) -> {
        Values.decode(bufs[0], t, 0, k, chunk);
        to.accept(chunk, k);
      });
    }
  }

  /** {@code elements}, {@code read} and {@code sampled}: what every statistic is over. */
  static Map<String, Object> header(long elements) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("elements", elements);
    out.put("read", Sample.read(elements));
    out.put("sampled", Sample.read(elements) < elements);
    return out;
  }
}
