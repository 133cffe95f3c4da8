package org.modelfs.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;

/**
 * Item 4: commit after changing one small parameter of a 1 GiB model ({@code a100-1GiB}),
 * beside copying the container file(s) in the same directory ({@code Files.copy}, and
 * {@code Files.copy} plus {@code force}, since a commit forces its file). The steps alternate
 * within one run (copy, commit, commit, copy, …) so both see the same machine state; only the
 * commit call itself is timed (mounting and journaling the 1 KiB change are not), each step after a
 * {@code sync}.
 */
public final class CommitMain {
  private CommitMain() {}

  /** The measured times of one format, in milliseconds. */
  public record Result(String format, double[] copy, double[] copyForced, double[] commit) {
    static double median(double[] v) {
      double[] s = v.clone();
      Arrays.sort(s);
      return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    public double ratio() {
      return median(commit) / median(copyForced);
    }

    public double ratioPlainCopy() {
      return median(commit) / median(copy);
    }

    static double min(double[] v) {
      return Arrays.stream(v).min().orElse(Double.NaN);
    }

    /**
     * Best against best: background I/O on a shared machine only ever adds time, so the fastest
     * round of each is the closest to its own cost.
     */
    public double ratioOfMinima() {
      return min(commit) / min(copyForced);
    }
  }

  /**
   * Runs {@code reps} rounds per format ({@code sdz-deflate}: one round, its commit compresses
   * the whole model); {@code dropCaches} empties the page cache before every timed step (root).
   */
  public static List<Result> run(List<String> formats, int reps, boolean dropCaches) throws Exception {
    List<Result> out = new ArrayList<>();
    Path work = BenchModels.dir().resolve("commit");
    for (String format : formats) {
      Path source = BenchModels.ensure("a100-1GiB", format);
      deleteTree(work);
      Files.createDirectories(work);
      for (Path f : BenchModels.files("a100-1GiB", format)) {
        Files.copy(f, work.resolve(f.getFileName()));
      }
      Path model = work.resolve(source.getFileName());
      int n = format.endsWith("-deflate") ? 1 : reps;
      double[] copy = new double[n];
      double[] forced = new double[n];
      double[] commit = new double[n];
      for (int r = 0; r < n; r++) {
        if (r % 2 == 0) {
          copy[r] = copy(work, false, dropCaches);
          forced[r] = copy(work, true, dropCaches);
          commit[r] = commit(model, format, r, dropCaches);
        } else {
          commit[r] = commit(model, format, r, dropCaches);
          forced[r] = copy(work, true, dropCaches);
          copy[r] = copy(work, false, dropCaches);
        }
        System.out.printf(Locale.ROOT, "[commit] %s round %d: copy %.0f ms, copy+force %.0f ms, commit %.0f ms%n",
            format, r, copy[r], forced[r], commit[r]);
      }
      out.add(new Result(format, copy, forced, commit));
    }
    deleteTree(work);
    return out;
  }

  /** Copies every model file of {@code work} beside itself; returns the milliseconds. */
  private static double copy(Path work, boolean force, boolean dropCaches) throws IOException {
    List<Path> files;
    try (var s = Files.list(work)) {
      files = s.filter(p -> !p.getFileName().toString().startsWith(".")).toList();
    }
    Path copies = work.resolve(".copies");
    Files.createDirectories(copies);
    settle(dropCaches);
    long t0 = System.nanoTime();
    for (Path f : files) {
      Path to = copies.resolve(f.getFileName());
      Files.copy(f, to);
      if (force) {
        try (FileChannel ch = FileChannel.open(to, StandardOpenOption.WRITE)) {
          ch.force(true);
        }
      }
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    deleteTree(copies);
    return ms;
  }

  /**
   * Mounts, overwrites {@code /params/small/g0/p0} (1 KiB), and times the commit (a deflated SDZ
   * is mounted with {@code compression=deflate}, or the commit would write it STORED).
   */
  private static double commit(Path model, String format, int round, boolean dropCaches) throws Exception {
    Map<String, String> env = format.endsWith("-deflate") ? Map.of("compression", "deflate") : Map.of();
    try (FileSystem fs = ModelFileSystems.open(model, env)) {
      Path p = fs.getPath("/params/" + BenchModels.smallName(0));
      ByteBuffer b = ByteBuffer.allocate((int) Files.size(p)).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining()) {
        b.putFloat(round + 0.25f);
      }
      Files.write(p, b.array());
      settle(dropCaches);
      long t0 = System.nanoTime();
      ((JournaledFileSystem) fs).commit();
      return (System.nanoTime() - t0) / 1e6;
    }
  }

  /**
   * Before every timed step: {@code sync}, so that no step pays for writing back what the one
   * before left dirty (a plain copy leaves 1 GiB); with {@code dropCaches} also
   * {@code echo 3 > /proc/sys/vm/drop_caches} (needs root), so that every step reads from disk.
   */
  static void settle(boolean dropCaches) throws IOException {
    try {
      new ProcessBuilder("sync").inheritIO().start().waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    if (dropCaches) {
      Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
