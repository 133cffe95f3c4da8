package org.modelfs.bench;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Item 5's walk, two versions of the core side by side in one JVM: each version's classes (and
 * the core's two runtime jars) in its own class loader, both mounting the same
 * {@code walk20k.sdnb}, beside the same tree copied into jimfs. Pairs: new ÷ old, new ÷ jimfs,
 * old ÷ jimfs, each measured by {@link PairedMain#measure} (alternating rounds, median of the
 * per-round ratios), so background load on a shared machine hits both sides alike.
 *
 * <p>Arguments: the new classes directory, the old one, the jars both load (path-separated),
 * and the seconds per pair. Run with the bench class path (jimfs, this class), e.g. after
 * {@code mvn -Pbench -DskipTests test-compile}.
 */
public final class WalkAbMain {
  private WalkAbMain() {}

  public static void main(String[] args) throws Exception {
    Path model = BenchModels.ensure("walk20k", "sdnb");
    String[] jars = args[2].split(File.pathSeparator);
    double seconds = Double.parseDouble(args[3]);
    FileSystem fresh = mount(args[0], jars, model);
    FileSystem old = mount(args[1], jars, model);
    FileSystem jimfs = copy(old.getPath("/tags"));
    List<PairedMain.Result> out = new ArrayList<>();
    for (int round = 0; round < (seconds > 0 ? 2 : 0); round++) {
      out.add(PairedMain.measure(pair("new", "old", fresh, old), seconds));
      out.add(PairedMain.measure(pair("new", "jimfs", fresh, jimfs), seconds));
      out.add(PairedMain.measure(pair("old", "jimfs", old, jimfs), seconds));
    }
    cpu("new", "old", fresh, old);
    cpu("new", "jimfs", fresh, jimfs);
    cpu("old", "jimfs", old, jimfs);
    for (PairedMain.Result r : out) {
      System.out.printf(Locale.ROOT, "| %s ÷ %s | %.3f (%.3f–%.3f, %d rounds) | %.2f ms vs %.2f ms |%n",
          r.a(), r.b(), r.ratio(), r.q1(), r.q3(), r.rounds(), r.medianA(), r.medianB());
    }
  }

  /**
   * The same pair timed in this thread's CPU time (what other processes' load moves least on a
   * shared machine): 60 alternating rounds of 5 walks each, after 2 s of warm-up; the median of
   * the per-round ratios and its quartiles.
   */
  private static void cpu(String a, String b, FileSystem fa, FileSystem fb) throws Exception {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long warm = System.nanoTime() + 2_000_000_000L;
    while (System.nanoTime() < warm) {
      walk(fa);
      walk(fb);
    }
    double[] ratio = new double[60];
    double[] ta = new double[60];
    double[] tb = new double[60];
    for (int r = 0; r < ratio.length; r++) {
      for (int side = 0; side < 2; side++) {
        boolean first = (side == 0) == (r % 2 == 0);
        long t0 = mx.getCurrentThreadCpuTime();
        for (int k = 0; k < 5; k++) {
          PairedMain.sink = walk(first ? fa : fb);
        }
        double ms = (mx.getCurrentThreadCpuTime() - t0) / 5e6;
        if (first) {
          ta[r] = ms;
        } else {
          tb[r] = ms;
        }
      }
      ratio[r] = ta[r] / tb[r];
    }
    System.out.printf(Locale.ROOT, "| %s ÷ %s, CPU time | %.3f (%.3f–%.3f, 60 rounds) | %.2f ms vs %.2f ms |%n", a, b,
        PairedMain.quantile(ratio, 0.5), PairedMain.quantile(ratio, 0.25), PairedMain.quantile(ratio, 0.75),
        PairedMain.quantile(ta, 0.5), PairedMain.quantile(tb, 0.5));
  }

  private static PairedMain.Pair pair(String a, String b, FileSystem fa, FileSystem fb) {
    return new PairedMain.Pair("5 walk", "sdnb 20,000 params", a, b, () -> walk(fa), () -> walk(fb), () -> { });
  }

  /** Mounts {@code model} read-only with the core classes at {@code classes}, loaded on their own. */
  private static FileSystem mount(String classes, String[] jars, Path model) throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(Path.of(classes).toUri().toURL());
    for (String j : jars) {
      urls.add(Path.of(j).toUri().toURL());
    }
    ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    Class<?> api = Class.forName("org.modelfs.ModelFileSystems", true, loader);
    return (FileSystem) api.getMethod("open", Path.class, Map.class).invoke(null, model, Map.of("readOnly", "true"));
  }

  /** The tree at {@code root} copied into jimfs (same names, same sizes). */
  private static FileSystem copy(Path root) throws Exception {
    FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix());
    WalkBench.copy(root, jimfs);
    return jimfs;
  }

  /** {@code WalkBench.walk}: the walk and every path's basic attributes. */
  private static long walk(FileSystem fs) throws Exception {
    long sum = 0;
    try (Stream<Path> s = Files.walk(fs.getPath("/tags"))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        sum += Files.readAttributes(p, BasicFileAttributes.class).size();
      }
    }
    return sum;
  }
}
