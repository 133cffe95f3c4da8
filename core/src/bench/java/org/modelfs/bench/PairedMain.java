package org.modelfs.bench;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.SyntheticModels;

/**
 * The ratios of docs/PERFORMANCE.md measured side by side: each pair of operations (ours and its
 * baseline) runs in one JVM in alternating order (A B, B A, …), each sample long enough to time
 * (≥ 50 ms, repeating short operations), and the ratio of every round is kept; the median of
 * those ratios is reported. Background load on a shared machine then hits both sides of a round
 * alike, which separate JMH runs minutes apart cannot promise. The operations are the JMH
 * benchmarks' own state classes, called directly.
 */
public final class PairedMain {
  private PairedMain() {}

  /** One operation: returns something so the work cannot be optimised away. */
  interface Op {
    Object run() throws Exception;
  }

  /** What to compare: {@code a} ÷ {@code b} in time; {@code close} releases both sides. */
  record Pair(String item, String label, String a, String b, Op opA, Op opB, AutoCloseable close) {}

  /**
   * One measured pair.
   *
   * @param medianA median time of A, ms
   * @param medianB median time of B, ms
   * @param ratio median of the per-round ratios A/B
   * @param q1 first quartile of the ratios
   * @param q3 third quartile of the ratios
   */
  public record Result(String item, String label, String a, String b, double medianA, double medianB, double ratio,
      double q1, double q3, int rounds) {}

  static volatile Object sink;

  /** Measures {@code p}: about {@code budgetSeconds}, at least 5 rounds (3 when one operation takes seconds). */
  static Result measure(Pair p, double budgetSeconds) throws Exception {
    try (AutoCloseable c = p.close()) {
      double oneA = warm(p.opA());
      double oneB = warm(p.opB());
      int kA = (int) Math.max(1, Math.ceil(50 / oneA));
      int kB = (int) Math.max(1, Math.ceil(50 / oneB));
      int minRounds = Math.max(oneA, oneB) > 1000 ? 3 : 5;
      List<double[]> rounds = new ArrayList<>();
      long start = System.nanoTime();
      while (rounds.size() < 200 && (rounds.size() < minRounds || (System.nanoTime() - start) / 1e9 < budgetSeconds)) {
        double ta;
        double tb;
        if (rounds.size() % 2 == 0) {
          ta = time(p.opA(), kA);
          tb = time(p.opB(), kB);
        } else {
          tb = time(p.opB(), kB);
          ta = time(p.opA(), kA);
        }
        rounds.add(new double[] {ta, tb});
      }
      double[] a = rounds.stream().mapToDouble(r -> r[0]).toArray();
      double[] b = rounds.stream().mapToDouble(r -> r[1]).toArray();
      double[] ratio = rounds.stream().mapToDouble(r -> r[0] / r[1]).toArray();
      Result r = new Result(p.item(), p.label(), p.a(), p.b(), quantile(a, 0.5), quantile(b, 0.5), quantile(ratio, 0.5),
          quantile(ratio, 0.25), quantile(ratio, 0.75), rounds.size());
      System.out.printf(Locale.ROOT, "[paired] %s %s: %s %.3f ms vs %s %.3f ms, ratio %.3f (IQR %.3f–%.3f, %d rounds)%n",
          r.item(), r.label(), r.a(), r.medianA(), r.b(), r.medianB(), r.ratio(), r.q1(), r.q3(), r.rounds());
      return r;
    }
  }

  /** Runs {@code op} for about a second (at least twice); returns the last run's milliseconds. */
  private static double warm(Op op) throws Exception {
    long end = System.nanoTime() + 1_000_000_000L;
    double last = 0;
    for (int i = 0; i < 2 || System.nanoTime() < end; i++) {
      last = time(op, 1);
      if (i >= 1 && last > 1000) {
        break;
      }
    }
    return last;
  }

  private static double time(Op op, int k) throws Exception {
    long t0 = System.nanoTime();
    for (int i = 0; i < k; i++) {
      sink = op.run();
    }
    return (System.nanoTime() - t0) / 1e6 / k;
  }

  static double quantile(double[] v, double q) {
    double[] s = v.clone();
    Arrays.sort(s);
    double pos = q * (s.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = (int) Math.ceil(pos);
    return s[lo] + (s[hi] - s[lo]) * (pos - lo);
  }

  // ---- the pairs ---------------------------------------------------------------------------------

  private static Pair open(String format) throws Exception {
    return opens(format, "a100-1GiB", "1 GiB", "a100-1MiB", "1 MiB");
  }

  /**
   * Item 1, the cost per array: 10,000 arrays in 32 MiB against 100 arrays in 32 MiB, same
   * format; {@code (ratio − 1) × time(100) / 9,900} is the cost of one array at open.
   */
  private static Pair openCount(String format) throws Exception {
    return opens(format, "a10000-32MiB", "10,000 arrays", "a100-32MiB", "100 arrays");
  }

  /** Opening model {@code a} against opening model {@code b}, both in {@code format}. */
  private static Pair opens(String format, String a, String labelA, String b, String labelB) throws Exception {
    OpenBench x = new OpenBench();
    x.model = a;
    x.format = format;
    x.setup();
    OpenBench y = new OpenBench();
    y.model = b;
    y.format = format;
    y.setup();
    return new Pair("1 open", format, labelA, labelB, x::open, y::open, () -> {});
  }

  private static Pair dl4j() throws Exception {
    Dl4jLoadBench d = new Dl4jLoadBench();
    d.model = "a100-320MiB";
    d.setup();
    OpenBench o = new OpenBench();
    o.model = "a100-320MiB";
    o.format = "fb";
    o.setup();
    return new Pair("1 open", "fb 320 MiB", "DL4J SameDiff.load", "our mount", d::load, o::open, () -> {});
  }

  private static Pair sequential(String format, String a, String b) throws Exception {
    SequentialReadBench x = new SequentialReadBench();
    x.target = format + "/" + a;
    x.setup();
    SequentialReadBench y = new SequentialReadBench();
    y.target = format + "/" + b;
    y.setup();
    return new Pair("2 sequential read", format, a, b, x::read, y::read, () -> {
      x.tearDown();
      y.tearDown();
    });
  }

  private static Pair random(String format) throws Exception {
    RandomReadBench x = new RandomReadBench();
    x.target = format + "/ours";
    x.setup();
    RandomReadBench y = new RandomReadBench();
    y.target = format + "/raw";
    y.setup();
    Op ours = () -> {
      int n = 0;
      for (int i = 0; i < 1000; i++) {
        n += x.read4k();
      }
      return n;
    };
    Op raw = () -> {
      int n = 0;
      for (int i = 0; i < 1000; i++) {
        n += y.read4k();
      }
      return n;
    };
    return new Pair("3 random 4 KiB", format, "ours ×1000", "raw ×1000", ours, raw, () -> {
      x.tearDown();
      y.tearDown();
    });
  }

  private static Pair walk(String format) throws Exception {
    WalkBench x = new WalkBench();
    x.target = format;
    x.setup();
    WalkBench y = new WalkBench();
    y.target = "jimfs";
    y.setup();
    return new Pair("5 walk", format + " 20,000 params", "ours", "jimfs", x::walk, y::walk, () -> {
      x.tearDown();
      y.tearDown();
    });
  }

  /**
   * Item 9, edits in O(change): one change — write a new one-float parameter, then delete it —
   * in a mount of {@code big} parameters against the same change in a mount of {@code small}.
   * Flat means a ratio near 1; before issue 15 every change rebuilt the whole tree.
   */
  private static Pair edit(int big, int small) throws Exception {
    FileSystem fa = editMount(big);
    FileSystem fb = editMount(small);
    byte[] four = {0, 0, (byte) 0x80, 0x3f};
    int[] k = {0};
    return new Pair("edit", "one change, " + big + " vs " + small + " parameters", big + " params", small + " params",
        () -> editOnce(fa, four, k), () -> editOnce(fb, four, k), () -> {
          fa.close();
          fb.close();
        });
  }

  private static Object editOnce(FileSystem fs, byte[] four, int[] k) throws Exception {
    Path p = fs.getPath("/params/big/new" + (k[0]++));
    Files.write(p, four);
    Files.delete(p);
    return p;
  }

  /** A mount (nothing committed at close) of a generated SDNB with {@code n} one-float parameters. */
  private static FileSystem editMount(int n) throws Exception {
    Path dir = Files.createTempDirectory("modelfs-edit-bench");
    Path model = SyntheticModels.sdnb(dir.resolve("m" + n + ".sdnb"), n);
    FileSystem fs = ModelFileSystems.open(model, Map.of("commitOnClose", "false"));
    editOnce(fs, new byte[4], new int[] {-1}); // the lease, the journal and the name order, once
    return fs;
  }

  /** Builds and measures every pair of the parts in {@code only}, about {@code budget} seconds each. */
  public static List<Result> run(Set<String> only, double budget) throws Exception {
    return run(only, budget, null);
  }

  /**
   * {@link #run(java.util.Set, double)}, the read pairs ({@code read}, {@code random}) only of
   * {@code formats} ({@code null}: all).
   */
  public static List<Result> run(Set<String> only, double budget, Set<String> formats)
      throws Exception {
    List<PairFactory> todo = new ArrayList<>();
    if (only.contains("open")) {
      for (String f : BenchModels.FORMATS) {
        todo.add(() -> open(f));
      }
    }
    if (only.contains("open-count")) {
      for (String f : List.of("fb", "sdnb", "sdz")) {
        todo.add(() -> openCount(f));
      }
    }
    if (only.contains("dl4j")) {
      todo.add(PairedMain::dl4j);
    }
    if (only.contains("read")) {
      for (String f : List.of("sdnb", "sdz", "fb", "zip-tags", "container")) {
        if (formats == null || formats.contains(f)) {
          todo.add(() -> sequential(f, "ours-channel", "raw-channel"));
          todo.add(() -> sequential(f, "ours-map", "raw-map"));
        }
      }
      if (formats == null || formats.contains("fb")) {
        todo.add(() -> sequential("fb", "ours-map-first", "raw-map"));
        todo.add(() -> sequential("fb", "ours-map-stored", "raw-map"));
      }
      if (formats == null || formats.contains("sdz-deflate")) {
        todo.add(() -> sequential("sdz-deflate", "ours-channel", "zipfs"));
      }
    }
    if (only.contains("random")) {
      for (String f : List.of("sdnb", "sdz", "fb", "zip-tags", "container")) {
        if (formats != null && !formats.contains(f)) {
          continue;
        }
        todo.add(() -> random(f));
      }
    }
    if (only.contains("walk")) {
      todo.add(() -> walk("sdnb"));
    }
    if (only.contains("edit")) {
      todo.add(() -> edit(1_000_000, 1_000));
    }
    List<Result> out = new ArrayList<>();
    for (PairFactory f : todo) {
      out.add(measure(f.make(), budget));
    }
    return out;
  }

  /** Sets a pair up (generating its models if needed). */
  interface PairFactory {
    Pair make() throws Exception;
  }
}
