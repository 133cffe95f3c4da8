package org.modelfs.bench;

import org.modelfs.container.Models;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the benchmarks of docs/PERFORMANCE.md in one go — the JMH benchmarks, the side-by-side
 * ratios ({@link PairedMain}), then the commit and peak-heap programs — and writes {@code target/bench-results/summary.md} (ratios first) beside
 * JMH's {@code jmh.json}. Options ({@code -Dbench.args="..."} through Maven):
 * <pre>
 *   --only=open,open-count,dl4j,read,random,walk,edit,commit,heap   which parts (default: all;
 *                                                    open-count: 10,000 ÷ 100 arrays side by side)
 *   --only=shardcommit --shardcommit-formats=sdnb-sharded-1g,container-sharded-1g --shardcommit-reps=5
 *                                                    a 1 KiB change of a 4 GiB shard set (not in the default run: 4 GiB more disk)
 *   --forks=1 --warmup=2 --iterations=3 --time=1     JMH forks, iterations, seconds per iteration
 *   --param=NAME=v1,v2                               override a JMH parameter (repeatable)
 *   --commit-reps=7 --drop-caches                    commit rounds; empty the page cache first (root)
 *   --commit-formats=sdnb,sdnb-sharded,sdz,fb,zip-tags,sdz-deflate,container,container-deflate   formats of the commit item
 *   --deflate-mib=256 --deflate-rounds=5             item "deflate" (only when named): one core vs every core
 *   --only=graphjson                                  graph.json read and write as a graph grows (only when named)
 *   --heap-levels=64m,32m,16m,12m,8m,6m,4m                 heap sizes tried for item 6, largest first
 *   --heap-read-formats=sdnb,sdz,fb --heap-write-formats=sdnb,sdz,fb   (sdz-deflate possible)
 *   --jmh=false                                      skip the JMH benchmarks
 *   --paired=false --paired-seconds=12               skip the side-by-side ratios; seconds per pair
 *   --paired-formats=fb,sdnb                         only these formats in the side-by-side read pairs
 *   --keep                                           keep the generated models (target/bench-models)
 * </pre>
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new HashMap<>();
    Map<String, String[]> params = new LinkedHashMap<>();
    for (String a : args) {
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("unknown argument " + a);
      }
      String[] kv = a.substring(2).split("=", 2);
      if (kv[0].equals("param")) {
        String[] pv = kv[1].split("=", 2);
        params.put(pv[0], pv[1].split(","));
      } else {
        opt.put(kv[0], kv.length > 1 ? kv[1] : "true");
      }
    }
    Set<String> only = Set.of(opt.getOrDefault("only", "open,open-count,dl4j,read,random,walk,edit,commit,heap").split(","));
    Path out = Path.of("target", "bench-results").toAbsolutePath();
    Files.createDirectories(out);
    long started = System.nanoTime();

    Collection<RunResult> jmh = List.of();
    List<String> includes = new ArrayList<>();
    if (only.contains("open")) {
      includes.add(OpenBench.class.getName() + ".open$");
    }
    if (only.contains("dl4j")) {
      includes.add(Dl4jLoadBench.class.getName() + ".load$");
    }
    if (only.contains("read")) {
      includes.add(SequentialReadBench.class.getName() + ".read$");
    }
    if (only.contains("random")) {
      includes.add(RandomReadBench.class.getName() + ".read4k$");
    }
    if (only.contains("walk")) {
      includes.add(WalkBench.class.getName() + ".walk$");
    }
    if (!includes.isEmpty() && !opt.getOrDefault("jmh", "true").equals("false")) {
      ChainedOptionsBuilder ob = new OptionsBuilder()
          .forks(Integer.parseInt(opt.getOrDefault("forks", "1")))
          .warmupIterations(Integer.parseInt(opt.getOrDefault("warmup", "2")))
          .measurementIterations(Integer.parseInt(opt.getOrDefault("iterations", "3")))
          .warmupTime(TimeValue.seconds(Long.parseLong(opt.getOrDefault("time", "1"))))
          .measurementTime(TimeValue.seconds(Long.parseLong(opt.getOrDefault("time", "1"))))
          .resultFormat(ResultFormatType.JSON)
          .result(out.resolve("jmh.json").toString())
          .shouldFailOnError(false); // one failing benchmark must not end a 20-minute run: it shows as –
      for (String inc : includes) {
        ob.include(inc);
      }
      params.forEach(ob::param);
      jmh = new Runner(ob.build()).run();
    }
    List<PairedMain.Result> paired = List.of();
    if (!opt.getOrDefault("paired", "true").equals("false")) {
      String pf = opt.get("paired-formats");
      paired = PairedMain.run(only, Double.parseDouble(opt.getOrDefault("paired-seconds", "12")),
          pf == null ? null : Set.of(pf.split(",")));
    }
    List<CommitMain.Result> commits = List.of();
    if (only.contains("commit")) {
      commits = CommitMain.run(List.of(opt.getOrDefault("commit-formats", "sdnb,sdnb-sharded,sdz,fb,zip-tags,sdz-deflate").split(",")),
          Integer.parseInt(opt.getOrDefault("commit-reps", "7")), opt.containsKey("drop-caches"));
    }
    String shardCommits = "";
    if (only.contains("shardcommit")) {
      shardCommits = ShardCommitMain.markdown(ShardCommitMain.run(List.of(opt.getOrDefault("shardcommit-formats",
          "sdnb-sharded-1g,container-sharded-1g").split(",")), Integer.parseInt(opt.getOrDefault("shardcommit-reps", "5"))));
    }
    if (only.contains("graphjson")) { // only when named
      System.out.println(GraphJsonWriteMain.markdown(GraphJsonWriteMain.run(List.of(2000, 8000, 32000), 5)));
    }
    if (only.contains("deflate")) {
      DeflateMain.run(Integer.parseInt(opt.getOrDefault("deflate-mib", "256")),
          Integer.parseInt(opt.getOrDefault("deflate-rounds", "5")));
    }
    List<HeapMain.Result> heap = List.of();
    if (only.contains("heap")) {
      heap = HeapMain.run(List.of(opt.getOrDefault("heap-read-formats", "sdnb,sdz,fb").split(",")),
          List.of(opt.getOrDefault("heap-write-formats", "sdnb,sdz,fb").split(",")),
          List.of(opt.getOrDefault("heap-levels", "64m,32m,16m,12m,8m,6m,4m").split(",")));
    }
    String summary = summary(jmh, paired, commits, heap, opt, args, (System.nanoTime() - started) / 60e9) + shardCommits;
    Files.writeString(out.resolve("summary.md"), summary);
    System.out.println();
    System.out.println(summary);
    if (!opt.containsKey("keep")) {
      BenchModels.deleteAll();
    }
  }

  // ---- the summary -----------------------------------------------------------------------------

  /** A JMH score: mean, 99.9% confidence half-width, unit. */
  record Score(double mean, double error, String unit) {
    String show() {
      return Double.isNaN(error) ? fmt(mean) : fmt(mean) + " ± " + fmt(error);
    }
  }

  private static Map<String, Score> scores(Collection<RunResult> results) {
    Map<String, Score> out = new TreeMap<>();
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      String simple = bench.substring(bench.lastIndexOf('.', bench.lastIndexOf('.') - 1) + 1);
      StringBuilder key = new StringBuilder(simple);
      for (String k : r.getParams().getParamsKeys()) {
        key.append('|').append(r.getParams().getParam(k));
      }
      var p = r.getPrimaryResult();
      out.put(key.toString(), new Score(p.getScore(), p.getScoreError(), p.getScoreUnit()));
    }
    return out;
  }

  static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "–";
    }
    double a = Math.abs(v);
    return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", v);
  }

  private static double mean(Map<String, Score> s, String key) {
    Score x = s.get(key);
    return x == null ? Double.NaN : x.mean();
  }

  private static String cell(Map<String, Score> s, String key) {
    Score x = s.get(key);
    return x == null ? "–" : x.show();
  }

  private static String ratio(double r) {
    return Double.isNaN(r) ? "–" : String.format(Locale.ROOT, "%.2f×", r);
  }

  private static String summary(Collection<RunResult> jmh, List<PairedMain.Result> paired, List<CommitMain.Result> commits,
      List<HeapMain.Result> heap, Map<String, String> opt, String[] args, double minutes) throws IOException {
    Map<String, Score> s = scores(jmh);
    StringBuilder b = new StringBuilder();
    b.append("# ModelFS benchmark run\n\n");
    b.append(machine()).append('\n');
    b.append("Command: `mvn -Pbench -DskipTests test-compile exec:exec")
        .append(args.length == 0 ? "" : " -Dbench.args=\"" + String.join(" ", args) + "\"").append("`, ")
        .append(String.format(Locale.ROOT, "%.1f minutes", minutes)).append(". JMH: ")
        .append(opt.getOrDefault("forks", "1")).append(" fork, ").append(opt.getOrDefault("warmup", "2"))
        .append(" warm-up + ").append(opt.getOrDefault("iterations", "3")).append(" measured iterations of ")
        .append(opt.getOrDefault("time", "1")).append(" s; ± is JMH's 99.9% interval.\n\n");

    if (!paired.isEmpty()) {
      b.append("## Side-by-side ratios (A and B alternating in one JVM; median of the per-round ratios)\n\n");
      b.append("| item | case | A | B | A ÷ B time (IQR) | B ÷ A | median A, ms | median B, ms | rounds |\n");
      b.append("|---|---|---|---|---|---|---|---|---|\n");
      for (PairedMain.Result r : paired) {
        b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f× (%.2f–%.2f) | %.2f× | %s | %s | %d |%n", r.item(),
            r.label(), r.a(), r.b(), r.ratio(), r.q1(), r.q3(), 1 / r.ratio(), fmt(r.medianA()), fmt(r.medianB()),
            r.rounds()));
      }
      b.append('\n');
    }

    String[] sizes = {"a100-1MiB", "a100-32MiB", "a100-320MiB", "a100-1GiB"};
    String[] counts = {"a10-32MiB", "a100-32MiB", "a1000-32MiB", "a10000-32MiB"};
    if (s.keySet().stream().anyMatch(k -> k.startsWith("OpenBench") || k.startsWith("Dl4jLoadBench"))) {
      b.append("## 1. Open (mount + unmount), ms\n\n");
      b.append("| format | 1 GiB ÷ 1 MiB | 10,000 ÷ 100 arrays | 1 MiB | 32 MiB | 320 MiB | 1 GiB | 10 arrays | 1,000 arrays | 10,000 arrays |\n");
      b.append("|---|---|---|---|---|---|---|---|---|---|\n");
      for (String f : BenchModels.FORMATS) {
        openRow(b, s, f, "OpenBench.open|" + f + "|", sizes, counts);
      }
      openRow(b, s, "DL4J `SameDiff.load` (fb)", "Dl4jLoadBench.load|", sizes, counts);
      b.append("\nKeys are `model|format`; sizes at 100 arrays, counts at 32 MiB. ");
      for (String m : new String[] {"a100-320MiB", "a100-1GiB"}) {
        b.append(String.format(Locale.ROOT, "DL4J load ÷ our fb mount at %s: %s. ", m,
            ratio(mean(s, "Dl4jLoadBench.load|" + m) / mean(s, "OpenBench.open|fb|" + m))));
      }
      b.append("\n\n");
    }

    if (s.keySet().stream().anyMatch(k -> k.startsWith("SequentialReadBench"))) {
      b.append("## 2. Sequential read of one 256 MiB parameter (ms per read; MB/s)\n\n");
      b.append("| format | channel ÷ raw (throughput) | map ÷ raw map | ours channel | raw channel | ours map | raw map | other |\n");
      b.append("|---|---|---|---|---|---|---|---|\n");
      for (String f : List.of("sdnb", "sdz", "sdz-deflate", "fb", "zip-tags", "container")) {
        String k = "SequentialReadBench.read|" + f + "/";
        double ch = mean(s, k + "ours-channel");
        double raw = mean(s, k + "raw-channel");
        double map = mean(s, k + "ours-map");
        double rawMap = mean(s, k + "raw-map");
        String other = "";
        if (s.containsKey(k + "zipfs")) {
          other = "jdk.zipfs " + cell(s, k + "zipfs") + " (" + mbs(mean(s, k + "zipfs")) + "); ours is "
              + ratio(mean(s, k + "zipfs") / ch) + " faster";
        }
        if (s.containsKey(k + "ours-map-first")) {
          other = "first map (fresh mount, LE copy) " + cell(s, k + "ours-map-first") + " ("
              + mbs(mean(s, k + "ours-map-first")) + ")";
        }
        b.append("| ").append(f).append(" | ").append(ratio(raw / ch)).append(" | ").append(ratio(rawMap / map))
            .append(" | ").append(cell(s, k + "ours-channel")).append(" (").append(mbs(ch)).append(") | ")
            .append(cell(s, k + "raw-channel")).append(" (").append(mbs(raw)).append(") | ")
            .append(cell(s, k + "ours-map")).append(" (").append(mbs(map)).append(") | ")
            .append(cell(s, k + "raw-map")).append(" (").append(mbs(rawMap)).append(") | ")
            .append(other).append(" |\n");
      }
      b.append('\n');
    }

    if (s.keySet().stream().anyMatch(k -> k.startsWith("RandomReadBench"))) {
      b.append("## 3. Random 4 KiB reads of a 256 MiB parameter (µs per read)\n\n");
      b.append("| format | ours ÷ raw (throughput) | ours | raw |\n|---|---|---|---|\n");
      for (String f : List.of("sdnb", "sdz", "sdz-deflate", "fb", "zip-tags", "container", "container-deflate")) {
        String k = "RandomReadBench.read4k|" + f + "/";
        b.append("| ").append(f).append(" | ").append(ratio(mean(s, k + "raw") / mean(s, k + "ours")))
            .append(" | ").append(cell(s, k + "ours")).append(" | ").append(cell(s, k + "raw")).append(" |\n");
      }
      b.append('\n');
    }

    if (!commits.isEmpty()) {
      b.append("## 4. Commit after changing one parameter of a 1 GiB model vs copying it (ms, median)\n\n");
      b.append("| format | commit ÷ (copy + force), medians | same, fastest rounds | commit ÷ copy, medians | commit | copy + force | copy | rounds: commit / copy + force / copy |\n");
      b.append("|---|---|---|---|---|---|---|---|\n");
      for (CommitMain.Result r : commits) {
        b.append("| ").append(r.format()).append(" | ").append(ratio(r.ratio())).append(" | ")
            .append(ratio(r.ratioOfMinima())).append(" | ")
            .append(ratio(r.ratioPlainCopy())).append(" | ").append(fmt(CommitMain.Result.median(r.commit())))
            .append(" | ").append(fmt(CommitMain.Result.median(r.copyForced()))).append(" | ")
            .append(fmt(CommitMain.Result.median(r.copy()))).append(" | ").append(list(r.commit())).append(" / ")
            .append(list(r.copyForced())).append(" / ").append(list(r.copy())).append(" |\n");
      }
      b.append("\n`sync` before every timed step; page cache ").append(opt.containsKey("drop-caches")
          ? "dropped (`echo 3 > /proc/sys/vm/drop_caches`) before every timed step." : "warm (not dropped).")
          .append("\n\n");
    }

    if (s.keySet().stream().anyMatch(k -> k.startsWith("WalkBench"))) {
      b.append("## 5. `Files.walk` + `readAttributes` over 20,000 parameters (ms)\n\n");
      b.append("| tree | ÷ jimfs | time |\n|---|---|---|\n");
      double jim = mean(s, "WalkBench.walk|jimfs");
      for (String t : List.of("fb", "sdnb", "sdz", "sdnb-samediff", "jimfs")) {
        b.append("| ").append(t).append(" | ").append(ratio(mean(s, "WalkBench.walk|" + t) / jim)).append(" | ")
            .append(cell(s, "WalkBench.walk|" + t)).append(" |\n");
      }
      b.append('\n');
    }

    if (!heap.isEmpty()) {
      b.append("## 6. Lowest -Xmx that reads / writes a 2 GiB parameter\n\n");
      b.append("| operation | format | bytes | lowest -Xmx that worked | heap pools' peaks summed there (upper bound) | next lower -Xmx |\n");
      b.append("|---|---|---|---|---|---|\n");
      for (HeapMain.Result r : heap) {
        b.append("| ").append(r.op()).append(" | ").append(r.format()).append(" | ").append(r.bytes()).append(" | ")
            .append(r.lowestOk() == null ? "none" : r.lowestOk()).append(" | ")
            .append(r.peakHeap() < 0 ? "–" : String.format(Locale.ROOT, "%.1f MiB", r.peakHeap() / 1048576.0))
            .append(" | ").append(r.failedAt() == null ? "not tried" : r.failedAt() + ": " + r.failure())
            .append(" |\n");
      }
      b.append('\n');
    }

    b.append("## Raw JMH scores\n\n| benchmark | params | score | unit |\n|---|---|---|---|\n");
    for (var e : s.entrySet()) {
      String[] parts = e.getKey().split("\\|", 2);
      b.append("| ").append(parts[0]).append(" | ").append(parts.length > 1 ? parts[1] : "").append(" | ")
          .append(e.getValue().show()).append(" | ").append(e.getValue().unit()).append(" |\n");
    }
    return b.toString();
  }

  private static void openRow(StringBuilder b, Map<String, Score> s, String label, String prefix, String[] sizes,
      String[] counts) {
    b.append("| ").append(label).append(" | ")
        .append(ratio(mean(s, prefix + sizes[3]) / mean(s, prefix + sizes[0]))).append(" | ")
        .append(ratio(mean(s, prefix + counts[3]) / mean(s, prefix + counts[1])));
    for (String m : sizes) {
      b.append(" | ").append(cell(s, prefix + m));
    }
    for (String m : new String[] {counts[0], counts[2], counts[3]}) {
      b.append(" | ").append(cell(s, prefix + m));
    }
    b.append(" |\n");
  }

  private static String mbs(double ms) {
    return Double.isNaN(ms) ? "–" : String.format(Locale.ROOT, "%.0f MB/s", (256.0 * 1048576 / 1e6) / (ms / 1000));
  }

  private static String list(double[] v) {
    StringBuilder b = new StringBuilder();
    for (double x : v) {
      b.append(b.length() == 0 ? "" : ", ").append(fmt(x));
    }
    return b.toString();
  }

  private static String machine() throws IOException {
    String cpu = "?";
    Path info = Path.of("/proc/cpuinfo");
    if (Files.isReadable(info)) {
      cpu = Files.readAllLines(info).stream().filter(l -> l.startsWith("model name")).findFirst()
          .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("?");
    }
    String mem = "?";
    Path meminfo = Path.of("/proc/meminfo");
    if (Files.isReadable(meminfo)) {
      mem = Files.readAllLines(meminfo).get(0).replaceAll("\\s+", " ");
    }
    return "Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs (" + cpu + "), " + mem + ", "
        + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", Java "
        + System.getProperty("java.vm.version") + " (" + System.getProperty("java.vm.name") + "). Date: "
        + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + ". Models in "
        + Path.of("").toAbsolutePath().relativize(BenchModels.dir()) + ".\n";
  }
}
