package org.modelfs.bench;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
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
    String[] jars = args[2].split(java.io.File.pathSeparator);
    double seconds = Double.parseDouble(args[3]);
    FileSystem fresh = mount(args[0], jars, model);
    FileSystem old = mount(args[1], jars, model);
    FileSystem jimfs = copy(old.getPath("/tags"));
    List<PairedMain.Result> out = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      out.add(PairedMain.measure(pair("new", "old", fresh, old), seconds));
      out.add(PairedMain.measure(pair("new", "jimfs", fresh, jimfs), seconds));
      out.add(PairedMain.measure(pair("old", "jimfs", old, jimfs), seconds));
    }
    for (PairedMain.Result r : out) {
      System.out.printf(java.util.Locale.ROOT, "| %s ÷ %s | %.3f (%.3f–%.3f, %d rounds) | %.2f ms vs %.2f ms |%n",
          r.a(), r.b(), r.ratio(), r.q1(), r.q3(), r.rounds(), r.medianA(), r.medianB());
    }
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
