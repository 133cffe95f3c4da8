package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.modelfs.model.DType;
import org.modelfs.model.Float16;
import org.modelfs.view.ArrayStats;
import org.modelfs.view.DeltaStats;

/**
 * {@code view}'s statistics against NumPy's on the same bytes, for every dtype that has them:
 * min, max, mean, std (population, over the finite values), zeros, NaN, +Inf, -Inf, and the
 * histogram — {@code np.histogram} given the bin edges NumPy builds from min and max the way
 * docs/VIEW.md says, which must equal the page's edges bit for bit. A sampled array is checked
 * against NumPy on the elements the sampling rule names. Skipped where NumPy is missing, as
 * {@link NumpyInteropTest} is.
 */
class ViewStatsNumpyTest {
  @TempDir Path tmp;
  private static boolean numpy;

  @BeforeAll
  static void findNumPy() {
    try {
      NumpyInteropTest.python("import numpy");
      numpy = true;
    } catch (IOException | AssertionError e) {
      numpy = false;
    }
  }

  /** Reads the raw file as float64 the way ModelFS decodes each dtype, then prints the statistics. */
  static final String STATS = String.join("\n",
      "import sys, numpy as np",
      "path, dt, n, sample = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == 'sampled'",
      "raw = np.fromfile(path, dtype={'FLOAT':'<f4','DOUBLE':'<f8','HALF':'<f2','BFLOAT16':'<u2','BOOL':'u1','BYTE':'i1',",
      "  'UBYTE':'u1','SHORT':'<i2','UINT16':'<u2','INT':'<i4','UINT32':'<u4','LONG':'<i8','UINT64':'<u8'}[dt])",
      "if dt == 'BFLOAT16': raw = (raw.astype(np.uint32) << 16).view(np.float32)",
      "a = (raw != 0).astype(np.float64) if dt == 'BOOL' else raw.astype(np.float64)",
      "if sample:",
      "  BLOCK, BLOCKS = 4096, 256",
      "  a = np.concatenate([a[s:s + BLOCK] for s in (int(float(n - BLOCK) * i / (BLOCKS - 1)) for i in range(BLOCKS))])",
      "f = a[np.isfinite(a)]",
      "print(len(a), (a == 0).sum(), np.isnan(a).sum(), (a == np.inf).sum(), (a == -np.inf).sum())",
      "mn, mx = f.min(), f.max()",
      "step = (mx - mn) / 64",
      "edges = np.array([mn + i * step for i in range(64)] + [mx])",
      "print(repr(float(mn)), repr(float(mx)), repr(float(f.mean())), repr(float(f.std())))",
      "print(' '.join(repr(float(e)) for e in edges))",
      "print(' '.join(str(c) for c in np.histogram(f, bins=edges)[0]))");

  static List<DType> numeric() {
    List<DType> out = new ArrayList<>();
    for (DType t : DType.values()) {
      if (t.width() > 0 && t != DType.FLOAT8 && t != DType.QINT8 && t != DType.QINT16) {
        out.add(t);
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = DType.class, names = {"BOOL", "HALF", "FLOAT", "DOUBLE", "INT8", "INT16", "INT32", "INT64",
      "UINT8", "UINT16", "UINT32", "UINT64", "BFLOAT16"})
  void statisticsEqualNumpys(DType t) throws IOException {
    Assumptions.assumeTrue(numpy, "python3 with NumPy is not installed: the NumPy cross-check is skipped");
    assertTrue(numeric().contains(t));
    long n = 5000;
    Path f = write(t, n, new Random(t.ordinal()));
    check(f, t, n, false);
  }

  @Test
  void anArrayTooLargeToHoldIsStreamedTwiceWithTheSameNumbers() throws IOException {
    Assumptions.assumeTrue(numpy, "python3 with NumPy is not installed: the NumPy cross-check is skipped");
    long n = (3L << 19) + 1; // 12 MiB of DOUBLE: more than Sample.HOLD, not sampled; odd, so the pair loop ends on one
    Map<String, Object> s = check(write(DType.DOUBLE, n, new Random(11)), DType.DOUBLE, n, false);
    assertEquals(false, s.get("sampled"));
    check(write(DType.FLOAT, 4999, new Random(12)), DType.FLOAT, 4999, false);
  }

  @Test
  void aSampledArrayEqualsNumpyOnTheSampledElements() throws IOException {
    Assumptions.assumeTrue(numpy, "python3 with NumPy is not installed: the NumPy cross-check is skipped");
    long n = (1L << 22) + 12345; // just above the threshold
    Path f = write(DType.HALF, n, new Random(7));
    Map<String, Object> s = check(f, DType.HALF, n, true);
    assertEquals(true, s.get("sampled"));
    assertEquals(256L * 4096, s.get("read"));
  }

  @Test
  void deltasEqualNumpys() throws IOException {
    Assumptions.assumeTrue(numpy, "python3 with NumPy is not installed: the NumPy cross-check is skipped");
    for (DType t : List.of(DType.FLOAT, DType.INT32)) {
      Path a = write(t, 3000, new Random(1));
      Path b = write(t, 3000, new Random(2));
      Map<String, Object> d = DeltaStats.of(a, b, t, 3000);
      String dt = t == DType.FLOAT ? "<f4" : "<i4";
      List<String> py = NumpyInteropTest.python(String.join("\n",
          "import sys, numpy as np",
          "a = np.fromfile(sys.argv[1], dtype=sys.argv[3]).astype(np.float64)",
          "b = np.fromfile(sys.argv[2], dtype=sys.argv[3]).astype(np.float64)",
          "ok = np.isfinite(a) & np.isfinite(b)",
          "d = (b - a)[ok]",
          "print(repr(float(np.linalg.norm(d))), repr(float(np.linalg.norm(a[ok]))), int((a != b).sum() - (np.isnan(a) & np.isnan(b)).sum()))",
          "step = (d.max() - d.min()) / 64",
          "edges = np.array([d.min() + i * step for i in range(64)] + [d.max()])",
          "print(' '.join(str(c) for c in np.histogram(d, bins=edges)[0]))"),
          a.toString(), b.toString(), dt).lines().toList();
      String[] norms = py.get(0).split(" ");
      close(Double.parseDouble(norms[0]), (Double) d.get("deltaNorm"), t + " ‖Δ‖");
      close(Double.parseDouble(norms[1]), (Double) d.get("norm"), t + " ‖a‖");
      close(Double.parseDouble(norms[0]) / Double.parseDouble(norms[1]), (Double) d.get("relativeChange"), t + " relative");
      assertEquals(Long.parseLong(norms[2]), d.get("differing"), t + " differing");
      assertEquals(py.get(1), join(((Map<?, ?>) d.get("histogram")).get("counts")), t + " delta histogram");
    }
  }

  private Map<String, Object> check(Path f, DType t, long n, boolean sampled) throws IOException {
    Map<String, Object> s = ArrayStats.of(f, t, n);
    List<String> py = NumpyInteropTest.python(STATS, f.toString(), t.nd4jName(), Long.toString(n),
        sampled ? "sampled" : "whole").lines().toList();
    String[] counts = py.get(0).split(" ");
    assertEquals(Long.parseLong(counts[0]), s.get("read"), t + " elements read");
    assertEquals(Long.parseLong(counts[1]), s.get("zeros"), t + " zeros");
    assertEquals(Long.parseLong(counts[2]), s.get("nan"), t + " NaN");
    assertEquals(Long.parseLong(counts[3]), s.get("posInf"), t + " +Inf");
    assertEquals(Long.parseLong(counts[4]), s.get("negInf"), t + " -Inf");
    String[] m = py.get(1).split(" ");
    assertEquals(Double.parseDouble(m[0]), s.get("min"), t + " min");
    assertEquals(Double.parseDouble(m[1]), s.get("max"), t + " max");
    close(Double.parseDouble(m[2]), (Double) s.get("mean"), t + " mean");
    close(Double.parseDouble(m[3]), (Double) s.get("std"), t + " std");
    Map<?, ?> h = (Map<?, ?>) s.get("histogram");
    List<String> edges = new ArrayList<>();
    for (Object e : (List<?>) h.get("edges")) {
      edges.add(Double.toString((Double) e));
    }
    List<String> pyEdges = new ArrayList<>();
    for (String e : py.get(2).split(" ")) {
      pyEdges.add(Double.toString(Double.parseDouble(e)));
    }
    assertEquals(pyEdges, edges, t + " bin edges");
    assertEquals(py.get(3), join(h.get("counts")), t + " histogram");
    return s;
  }

  private static String join(Object counts) {
    StringBuilder sb = new StringBuilder();
    for (Object c : (List<?>) counts) {
      sb.append(sb.length() > 0 ? " " : "").append(c);
    }
    return sb.toString();
  }

  private static void close(double expected, double actual, String what) {
    double tol = 1e-9 * Math.max(1, Math.abs(expected));
    assertTrue(Math.abs(expected - actual) <= tol, what + ": NumPy " + expected + ", view " + actual);
  }

  /** {@code n} random {@code t} elements: zeros, NaN and ±Inf among floats; the full range of integers. */
  private Path write(DType t, long n, Random r) throws IOException {
    ByteBuffer b = ByteBuffer.allocate((int) (n * t.width())).order(ByteOrder.LITTLE_ENDIAN);
    for (long i = 0; i < n; i++) {
      int k = r.nextInt(100);
      double v = k < 5 ? 0 : k == 5 ? Double.NaN : k == 6 ? Double.POSITIVE_INFINITY : k == 7
          ? Double.NEGATIVE_INFINITY : r.nextGaussian() * 3 + 0.5;
      switch (t) {
        case DOUBLE -> b.putDouble(v);
        case FLOAT -> b.putFloat((float) v);
        case HALF -> b.putShort(Float16.toHalf(v));
        case BFLOAT16 -> b.putShort(Float16.toBfloat16(v));
        case BOOL -> b.put((byte) (k < 50 ? 0 : k < 90 ? 1 : 7));
        case INT8, UINT8 -> b.put(k < 5 ? 0 : (byte) r.nextInt());
        case INT16, UINT16 -> b.putShort(k < 5 ? 0 : (short) r.nextInt());
        case INT32, UINT32 -> b.putInt(k < 5 ? 0 : r.nextInt());
        default -> b.putLong(k < 5 ? 0 : r.nextLong());
      }
    }
    Path f = tmp.resolve(t + "-" + r.nextInt(1000) + ".bin");
    Files.write(f, b.array());
    return f;
  }
}
