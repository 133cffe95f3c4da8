package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.DType;
import org.modelfs.model.Float16;

/**
 * The mean {@code avg} writes, against an exact reference: for random arrays of every
 * floating-point dtype with extremes (±MAX of the dtype, subnormals, smallest normals, ±0, mixed
 * signs, values across the whole exponent range), the mean of finite values is finite and within
 * 2 ulps (of the dtype, at the exact mean) of the exact mean computed with BigDecimal. The same
 * through {@code modelfs avg} on a model, and against Python's exact {@code Fraction} mean and
 * NumPy's mean in extended precision ({@code np.longdouble}: NumPy's float64 {@code mean}
 * overflows to inf near {@code Double.MAX_VALUE} itself, so it is no reference there).
 */
class ArrayMeanTest {
  private static final List<DType> FLOATS = List.of(DType.DOUBLE, DType.FLOAT, DType.HALF, DType.BFLOAT16);

  @TempDir Path tmp;

  /** A value of {@code t} (exactly representable), drawn to hit the extremes often. */
  static double value(DType t, Random r) {
    double max = switch (t) {
      case DOUBLE -> Double.MAX_VALUE;
      case FLOAT -> Float.MAX_VALUE;
      case HALF -> 65504;
      default -> Float16.bfloat16ToFloat((short) 0x7F7F); // bfloat16's largest finite value
    };
    double v = switch (r.nextInt(8)) {
      case 0 -> max;
      case 1 -> max * (1 - r.nextDouble() / 4);
      case 2 -> Double.MIN_VALUE * (1 + r.nextInt(1000));
      case 3 -> Double.MIN_NORMAL;
      case 4 -> r.nextBoolean() ? 0.0 : -0.0;
      case 5 -> r.nextGaussian();
      default -> r.nextGaussian() * Math.scalb(1.0, r.nextInt(2100) - 1075);
    };
    v = r.nextBoolean() ? -v : v;
    double rounded = roundTo(t, v);
    return Double.isFinite(rounded) ? rounded : Math.copySign(max, v);
  }

  static double roundTo(DType t, double v) {
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    Elements.put(b, t, 0, v);
    return Elements.get(b, t, 0);
  }

  /** The distance between {@code t}'s neighbours around {@code v}. */
  static double ulp(DType t, double v) {
    int e = Math.getExponent(v);
    return switch (t) {
      case DOUBLE -> Math.ulp(v);
      case FLOAT -> Math.ulp((float) v);
      case HALF -> Math.scalb(1.0, Math.max(e, -14) - 10);
      default -> Math.scalb(1.0, Math.max(e, -126) - 7);
    };
  }

  private static ByteBuffer encode(DType t, double[] values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * t.width()).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < values.length; i++) {
      Elements.put(b, t, i, values[i]);
    }
    return b;
  }

  private double[] mean(DType t, double[][] sources) throws IOException {
    List<Path> files = new ArrayList<>();
    for (double[] s : sources) {
      Path f = Files.createTempFile(tmp, "src", ".bin");
      Files.write(f, encode(t, s).array());
      files.add(f);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ArrayMean.write(files, t, Channels.newChannel(out));
    ByteBuffer b = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
    double[] m = new double[sources[0].length];
    for (int i = 0; i < m.length; i++) {
      m[i] = Elements.get(b, t, i);
    }
    return m;
  }

  static BigDecimal exact(double[][] sources, int i) {
    BigDecimal sum = BigDecimal.ZERO;
    for (double[] s : sources) {
      sum = sum.add(new BigDecimal(s[i]));
    }
    return sum.divide(BigDecimal.valueOf(sources.length), MathContext.DECIMAL128);
  }

  static void assertWithinTwoUlps(DType t, double[][] sources, double[] mean, String what) {
    for (int i = 0; i < mean.length; i++) {
      BigDecimal want = exact(sources, i);
      String where = what + " element " + i + " of " + t + " means of " + column(sources, i);
      assertTrue(Double.isFinite(mean[i]), where + ": " + mean[i] + ", want " + want);
      double ulp = ulp(t, want.doubleValue());
      BigDecimal err = new BigDecimal(mean[i]).subtract(want).abs();
      assertTrue(err.compareTo(new BigDecimal(2 * ulp)) <= 0,
          where + ": " + mean[i] + ", want " + want + " (error " + err.doubleValue() / ulp + " ulp)");
    }
  }

  private static List<Double> column(double[][] sources, int i) {
    List<Double> c = new ArrayList<>();
    for (double[] s : sources) {
      c.add(s[i]);
    }
    return c;
  }

  @Test
  void meansOfRandomExtremesAreFiniteAndWithinTwoUlpsOfTheExactMean() throws IOException {
    for (int seed = 0; seed < 200; seed++) {
      Random r = new Random(seed);
      DType t = FLOATS.get(seed % FLOATS.size());
      int count = 2 + r.nextInt(6);
      int n = 1 + r.nextInt(40);
      double[][] sources = new double[count][n];
      for (double[] s : sources) {
        for (int i = 0; i < n; i++) {
          s[i] = value(t, r);
        }
      }
      assertWithinTwoUlps(t, sources, mean(t, sources), "seed " + seed);
    }
  }

  @Test
  void theCasesThatOverflowedOrCancelled() throws IOException {
    double max = Double.MAX_VALUE;
    double[][] sources = {
        {max, max, max, -max, max, Double.MIN_VALUE, 1e-300},
        {max, -max, max / 2, -max, max, -Double.MIN_VALUE, 1.0},
        {max, max, max / 2, -max, -max, Double.MIN_VALUE, -1.0}};
    double[] m = mean(DType.DOUBLE, sources);
    assertEquals(max, m[0]);
    assertEquals(max / 3, m[1], Math.ulp(max)); // (max - max + max) / 3
    assertWithinTwoUlps(DType.DOUBLE, sources, m, "fixed");
    assertEquals(1e-300 / 3, m[6], 2 * Math.ulp(1e-300 / 3)); // 1 and -1 cancel, the tiny value stays
  }

  @Test
  void nonFiniteValuesGiveTheIeeeMean() throws IOException {
    double[][] sources = {{Double.POSITIVE_INFINITY, Double.NaN, Double.POSITIVE_INFINITY},
        {1, 2, Double.NEGATIVE_INFINITY}};
    double[] m = mean(DType.DOUBLE, sources);
    assertEquals(Double.POSITIVE_INFINITY, m[0]);
    assertTrue(Double.isNaN(m[1]));
    assertTrue(Double.isNaN(m[2]));
  }

  /** {@code modelfs avg} of DOUBLE parameters near Double.MAX_VALUE (it printed inf). */
  @Test
  void avgCommandOfValuesNearMaxIsFinite() throws IOException {
    Path model = tmp.resolve("m.sdz");
    double max = Double.MAX_VALUE;
    double[][] tags = {{max, -max, 1.5}, {max, max, 2.5}, {max / 2, max, -1}};
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
      for (int k = 0; k < tags.length; k++) {
        Path tag = fs.getPath("/tags/t" + k);
        if (k == 0) {
          Files.move(fs.getPath("/tags/default"), tag);
        } else {
          Files.createDirectory(tag);
        }
        try (var ch = Files.newByteChannel(tag.resolve("params/w"), Set.of(
            StandardOpenOption.CREATE, StandardOpenOption.WRITE),
            ModelFileSystems.attribute("dtype", "DOUBLE"), ModelFileSystems.attribute("shape", new long[] {3}))) {
          ch.write(encode(DType.DOUBLE, tags[k]));
        }
      }
    }
    MainTest.Result r = MainTest.run("avg", model.toString(), "--tags", "t0,t1,t2", "--into", "avg");
    assertEquals(0, r.code(), r.err());
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(fs.getPath("/tags/avg/params/w"))).order(ByteOrder.LITTLE_ENDIAN);
      double[] m = {b.getDouble(0), b.getDouble(8), b.getDouble(16)};
      assertWithinTwoUlps(DType.DOUBLE, tags, m, "avg");
      assertEquals(max / 6 * 5, m[0], 2 * Math.ulp(max)); // (2.5 max) / 3
    }
  }

  /**
   * Python as the independent party: its exact {@code Fraction} mean (correctly rounded) and
   * NumPy's {@code mean} in {@code longdouble} (x86's 80-bit: no overflow, 64-bit significand) of
   * random DOUBLE arrays near ±MAX, where plain {@code np.mean} gives inf.
   */
  @Test
  void agreesWithPythonsExactMeanAndNumpysExtendedMean() throws IOException {
    Random r = new Random(7);
    double[][] sources = new double[3][64];
    for (double[] s : sources) {
      for (int i = 0; i < s.length; i++) {
        s[i] = (i % 2 == 0 ? 1 : -1) * Double.MAX_VALUE * (1 - r.nextDouble() / 4);
      }
    }
    String ours;
    String theirs;
    try {
      StringBuilder args = new StringBuilder();
      for (double[] s : sources) {
        for (double v : s) {
          args.append(Double.toHexString(v)).append(' ');
        }
        args.append('|');
      }
      theirs = NumpyInteropTest.python("""
          import sys, numpy as np
          from fractions import Fraction
          rows = [[float.fromhex(v) for v in row.split()] for row in sys.argv[1].split('|') if row.strip()]
          a = np.array(rows)
          ext = np.mean(a.astype(np.longdouble), axis=0).astype(np.float64)
          with np.errstate(over='ignore'):
              plain = np.mean(a, axis=0)
          for i in range(a.shape[1]):
              exact = float(sum(Fraction(row[i]) for row in rows) / len(rows))
              print(exact.hex(), float(ext[i]).hex(), np.isinf(plain[i]))
          """, args.toString());
    } catch (IOException | AssertionError e) {
      Assumptions.abort("python3 with NumPy is not usable here: " + e.getMessage());
      return;
    }
    double[] m = mean(DType.DOUBLE, sources);
    List<String> lines = theirs.lines().toList();
    boolean plainOverflowed = false;
    for (int i = 0; i < m.length; i++) {
      String[] f = lines.get(i).split(" ");
      double exact = Double.parseDouble(f[0].replace("0x", "0x").replaceAll("p\\+?", "p"));
      double ext = Double.parseDouble(f[1].replaceAll("p\\+?", "p"));
      plainOverflowed |= f[2].equals("True");
      assertTrue(Math.abs(m[i] - exact) <= 2 * Math.ulp(exact), i + ": ours " + m[i] + ", Fraction's " + exact);
      assertTrue(Math.abs(m[i] - ext) <= 2 * Math.ulp(ext), i + ": ours " + m[i] + ", NumPy longdouble's " + ext);
    }
    assertTrue(plainOverflowed, "NumPy's float64 mean overflows here: the reason it is not the reference");
    ours = "checked";
    assertEquals("checked", ours);
  }
}
