package org.modelfs.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;

/**
 * Issue 18 item 3: the commit of a 1 KiB change of a 4 GiB sharded model ({@code a100-4GiB},
 * {@link BenchModels#SHARD_1G}: four weight shards of one 1 GiB array each, the small arrays in
 * the last of them, beside the last large one) — which writes the graph shard and the shard of the changed array
 * and keeps the others — beside copying (and forcing) exactly those two files, and beside
 * copying and forcing the whole model (what a commit that rewrites every shard cannot beat).
 * Steps alternate within one run, each after a {@code sync}; medians.
 */
final class ShardCommitMain {
  private ShardCommitMain() {}

  /** The run's times (ms) and the files a commit wrote. */
  record Result(String format, double[] commit, double[] copyChanged, double[] copyAll, List<String> written,
      int shards) {
    double ratio() {
      return CommitMain.Result.median(commit) / CommitMain.Result.median(copyChanged);
    }
  }

  static List<Result> run(List<String> formats, int reps) throws Exception {
    List<Result> out = new ArrayList<>();
    for (String format : formats) {
      out.add(run(format, reps));
    }
    return out;
  }

  private static Result run(String format, int reps) throws Exception {
    Path work = BenchModels.dir().resolve("shardcommit");
    Path source = BenchModels.ensure("a100-4GiB", format);
    CommitMain.deleteTree(work);
    Files.createDirectories(work);
    for (Path f : BenchModels.files("a100-4GiB", format)) {
      Files.copy(f, work.resolve(f.getFileName()));
    }
    Path model = work.resolve(source.getFileName());
    double[] commit = new double[reps];
    double[] copyChanged = new double[reps];
    double[] copyAll = new double[reps];
    List<String> written = List.of();
    for (int r = 0; r < reps; r++) {
      Map<String, String> before = identities(work);
      commit[r] = commit(model, r);
      Map<String, String> after = identities(work);
      List<String> changed = new ArrayList<>();
      after.forEach((n, id) -> {
        if (!id.equals(before.get(n))) {
          changed.add(n);
        }
      });
      written = changed;
      copyChanged[r] = copy(work, changed);
      copyAll[r] = r % 2 == 0 || reps < 3 ? copy(work, new ArrayList<>(after.keySet())) : Double.NaN;
      System.out.printf(Locale.ROOT, "[shardcommit] %s round %d: commit %.0f ms (wrote %s), copy+force of those %.0f ms,"
          + " of all %d shards %.0f ms%n", format, r, commit[r], changed, copyChanged[r], after.size(), copyAll[r]);
    }
    int shards = identities(work).size();
    CommitMain.deleteTree(work);
    return new Result(format, commit, copyChanged, Arrays.stream(copyAll).filter(d -> !Double.isNaN(d)).toArray(),
        written, shards);
  }

  /** Mounts (no options), overwrites {@code /params/small/g0/p0} (1 KiB), times the commit. */
  private static double commit(Path model, int round) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path p = fs.getPath("/params/" + BenchModels.smallName(0));
      ByteBuffer b = ByteBuffer.allocate((int) Files.size(p)).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining()) {
        b.putFloat(round + 0.5f);
      }
      Files.write(p, b.array());
      CommitMain.settle(false);
      long t0 = System.nanoTime();
      ((JournaledFileSystem) fs).commit();
      return (System.nanoTime() - t0) / 1e6;
    }
  }

  /** Copies and forces {@code names} of {@code work} into a scratch directory; the milliseconds. */
  private static double copy(Path work, List<String> names) throws Exception {
    Path copies = work.resolve(".copies");
    Files.createDirectories(copies);
    CommitMain.settle(false);
    long t0 = System.nanoTime();
    for (String n : names) {
      Path to = copies.resolve(n);
      Files.copy(work.resolve(n), to);
      try (FileChannel ch = FileChannel.open(to, StandardOpenOption.WRITE)) {
        ch.force(true);
      }
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    CommitMain.deleteTree(copies);
    return ms;
  }

  /** Each model file's file key, size and modification time. */
  private static Map<String, String> identities(Path work) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (var s = Files.list(work)) {
      for (Path p : s.filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        out.put(p.getFileName().toString(), a.fileKey() + "/" + a.size() + "/" + a.lastModifiedTime().toMillis());
      }
    }
    return out;
  }

  /** The summary's section. */
  static String markdown(List<Result> results) {
    StringBuilder b = new StringBuilder("## 4b. Commit after a 1 KiB change of a 4 GiB shard set (ms, median)\n\n");
    b.append("| format | shards | written by the commit | commit ÷ copy + force of those | commit | copy + force of those"
        + " | copy + force of the whole model | rounds: commit / those |\n|---|---|---|---|---|---|---|---|\n");
    for (Result r : results) {
      b.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2f× | %.0f | %.0f | %.0f | %s / %s |%n", r.format(), r.shards(),
          r.written(), r.ratio(), CommitMain.Result.median(r.commit()), CommitMain.Result.median(r.copyChanged()),
          CommitMain.Result.median(r.copyAll()), list(r.commit()), list(r.copyChanged())));
    }
    return b.append('\n').toString();
  }

  private static String list(double[] v) {
    StringBuilder b = new StringBuilder();
    for (double d : v) {
      b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", d));
    }
    return b.toString();
  }
}
