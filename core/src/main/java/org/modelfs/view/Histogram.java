package org.modelfs.view;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link #BINS} equal bins over {@code [min, max]}, as {@code np.histogram(a, bins=edges)}
 * counts them: edge {@code i} is {@code min + i * (max - min) / BINS} (the last is {@code max}),
 * a value {@code x} falls in the bin whose edges hold {@code edges[i] <= x < edges[i+1]}, and the
 * last bin also holds {@code max}. Values outside {@code [min, max]} and NaN are not counted.
 */
final class Histogram {
  static final int BINS = 64;

  private final double[] edges = new double[BINS + 1];
  private final long[] counts = new long[BINS];
  private final double scale;

  Histogram(double min, double max) {
    double step = (max - min) / BINS;
    for (int i = 0; i < BINS; i++) {
      edges[i] = min + i * step;
    }
    edges[BINS] = max;
    scale = max > min ? BINS / (max - min) : 0;
  }

  void add(double x) {
    if (!(x >= edges[0] && x <= edges[BINS])) {
      return;
    }
    int i = (int) Math.min(BINS - 1, Math.max(0, (long) ((x - edges[0]) * scale)));
    while (i > 0 && x < edges[i]) {
      i--;
    }
    while (i < BINS - 1 && x >= edges[i + 1]) {
      i++;
    }
    counts[i]++;
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    List<Object> e = new ArrayList<>(BINS + 1);
    for (double d : edges) {
      e.add(d);
    }
    List<Object> c = new ArrayList<>(BINS);
    for (long n : counts) {
      c.add(n);
    }
    m.put("edges", e);
    m.put("counts", c);
    return m;
  }
}
