package org.modelfs.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Item 6: the lowest {@code -Xmx} at which a child JVM ({@link HeapChild}, default G1 collector)
 * reads a 2 GiB parameter (model {@code heap2g}; fb: 2,000,000,000 bytes) through a channel and
 * through {@code map}, or writes one through the file system and commits it. Tries each heap size
 * of {@code levels}, largest first, until one fails. A control run reads a 1 KiB parameter the same
 * way: the floor of a JVM that mounts a model at all.
 */
public final class HeapMain {
  private HeapMain() {}

  /**
   * One row: the lowest heap that worked, the next lower one that failed (or {@code null}),
   * the peak heap use reported by the child at the lowest working heap, and the last error line.
   */
  public record Result(String op, String format, long bytes, String lowestOk, String failedAt, long peakHeap,
      String failure, double seconds) {}

  public static List<Result> run(List<String> readFormats, List<String> writeFormats, List<String> levels)
      throws Exception {
    List<Result> out = new ArrayList<>();
    Path tmp = BenchModels.dir().resolve("tmp");
    Files.createDirectories(tmp);
    Path control = BenchModels.ensure("a100-1MiB", "sdnb");
    out.add(search("read (control: a 1 KiB parameter)", "sdnb", BenchModels.SMALL_BYTES, levels,
        () -> List.of("read", control.toString(), BenchModels.smallName(0), "4")));
    for (String f : readFormats) {
      Path model = BenchModels.ensure("heap2g", f);
      long bytes = BenchModels.spec("heap2g", f).largeBytes();
      out.add(search("read", f, bytes, levels, () -> List.of("read", model.toString(), BenchModels.largeName(0), "0")));
    }
    Path work = BenchModels.dir().resolve("heap-write");
    for (String f : writeFormats) {
      Path base = BenchModels.ensure("a100-1MiB", f);
      long bytes = f.equals("fb") ? 2_000_000_000L : 2L << 30;
      Path model = work.resolve(base.getFileName());
      out.add(search("write", f, bytes, levels, () -> {
        CommitMain.deleteTree(work);
        Files.createDirectories(work);
        Files.copy(base, model);
        return List.of("write", model.toString(), Long.toString(bytes));
      }));
      CommitMain.deleteTree(work);
    }
    CommitMain.deleteTree(tmp);
    return out;
  }

  /** What the child is asked to do (prepared afresh before each run). */
  interface Job {
    List<String> args() throws Exception;
  }

  private static Result search(String op, String format, long bytes, List<String> levels, Job job)
      throws Exception {
    String lowest = null;
    long peak = -1;
    String failedAt = null;
    String failure = null;
    double seconds = 0;
    for (String level : levels) {
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx" + level, "-Djava.io.tmpdir=" + BenchModels.dir().resolve("tmp"),
          "-Dbench.dir=" + BenchModels.dir(), "-cp", System.getProperty("java.class.path"),
          HeapChild.class.getName()));
      cmd.addAll(job.args());
      Path log = BenchModels.dir().resolve("heap-child.log");
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      boolean done = p.waitFor(15, TimeUnit.MINUTES);
      if (!done) {
        p.destroyForcibly().waitFor();
      }
      double s = (System.nanoTime() - t0) / 1e9;
      List<String> lines = Files.readAllLines(log);
      String ok = lines.stream().filter(l -> l.startsWith("OK peakHeap=")).findFirst().orElse(null);
      System.out.printf(Locale.ROOT, "[heap] %s %s -Xmx%s: %s (%.1f s)%n", op, format, level,
          ok != null && done && p.exitValue() == 0 ? ok : "FAILED " + lastError(lines), s);
      if (ok == null || !done || p.exitValue() != 0) {
        failedAt = level;
        failure = done ? lastError(lines) : "timed out";
        break;
      }
      lowest = level;
      peak = Long.parseLong(ok.substring("OK peakHeap=".length()));
      seconds = s;
    }
    return new Result(op, format, bytes, lowest, failedAt, peak, failure, seconds);
  }

  /**
   * The child's first exception line and, when it has one, its first cause: below the lowest
   * heap that works the JVM throws OutOfMemoryError wherever it happens to allocate, and what
   * surfaces can be a secondary exception (the shared OutOfMemoryError instance cannot suppress
   * itself, state half-built when it was thrown), so the cause is shown too.
   */
  private static String lastError(List<String> lines) {
    String first = null;
    for (String l : lines) {
      if (first == null && (l.contains("Error") || l.contains("Exception"))) {
        first = l.trim();
      } else if (first != null && l.startsWith("Caused by")) {
        return first + " — " + l.trim();
      }
    }
    return first != null ? first : lines.isEmpty() ? "no output" : lines.get(lines.size() - 1).trim();
  }
}
