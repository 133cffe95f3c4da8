package org.modelfs.view;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.modelfs.model.DType;

/**
 * The facts of one array file in two passes over the elements read ({@link Sample}: at most
 * 4 Mi elements, 32 MiB, read from the file once): the first gives the counts and
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
    ByteBuffer raw = Sample.readAll(file, dtype, elements);
    int read = (int) Sample.read(elements);
    double[] chunk = new double[Math.min(Sample.CHUNK, Math.max(read, 1))];
    Moments m = new Moments();
    for (int from = 0; from < read; from += chunk.length) {
      int k = Math.min(chunk.length, read - from);
      Values.decode(raw, dtype, from, k, chunk);
      for (int i = 0; i < k; i++) {
        m.add(chunk[i]);
      }
    }
    Map<String, Object> out = header(elements);
    out.putAll(m.toMap());
    if (m.finite > 0) {
      Histogram h = new Histogram(m.min, m.max);
      for (int from = 0; from < read; from += chunk.length) {
        int k = Math.min(chunk.length, read - from);
        Values.decode(raw, dtype, from, k, chunk);
        for (int i = 0; i < k; i++) {
          h.add(chunk[i]);
        }
      }
      out.put("histogram", h.toMap());
    }
    return out;
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
