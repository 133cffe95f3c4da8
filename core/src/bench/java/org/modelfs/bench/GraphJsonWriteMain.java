package org.modelfs.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.JsonTrees;

/**
 * docs/PERFORMANCE.md, "Issue 19: graph.json": what reading and writing graph.json costs as a
 * graph grows — DL4J's MLP fixture with N extra {@code softmax} ops (each with its output
 * variable), committed as fb. Per N, medians of the repetitions, each step on a fresh mount:
 * <ul>
 *   <li>{@code read}: the first read of graph.json (the rendering);
 *   <li>{@code write back}: the bytes as read written back (compared with the rendering);
 *   <li>{@code reformatted}: the same JSON without indentation written back — read, checked and
 *       built whole, found unchanged: nothing to commit;
 *   <li>{@code one edit}: one op's {@code tArgs} changed — read, checked, built and applied
 *       (rolled back, not committed).
 * </ul>
 * {@code java -cp <bench class path> org.modelfs.bench.GraphJsonWriteMain [--reps=5] N…}
 * (default 2000 8000 32000); also {@code BenchMain --only=graphjson}.
 */
public final class GraphJsonWriteMain {
  private GraphJsonWriteMain() {}

  /** Medians in ms for one N. */
  record Result(int ops, long jsonBytes, double read, double writeBack, double reformatted, double oneEdit) {}

  public static void main(String[] args) throws Exception {
    int reps = 5;
    List<Integer> sizes = new ArrayList<>();
    for (String a : args) {
      if (a.startsWith("--reps=")) {
        reps = Integer.parseInt(a.substring(7));
      } else {
        sizes.add(Integer.parseInt(a));
      }
    }
    System.out.println(markdown(run(sizes.isEmpty() ? List.of(2000, 8000, 32000) : sizes, reps)));
  }

  static List<Result> run(List<Integer> sizes, int reps) throws Exception {
    List<Result> out = new ArrayList<>();
    Path dir = Files.createTempDirectory("modelfs-graphjson-bench");
    for (int n : sizes) {
      Path m = dir.resolve("g" + n + ".fb");
      Files.copy(Fixtures.get("mlp_adam.fb"), m);
      try (FileSystem fs = ModelFileSystems.open(m)) {
        Path g = fs.getPath("/graph.json");
        Files.writeString(g, JsonTrees.edit(Files.readString(g), d -> JsonTrees.addSoftmaxOps(d, n, true)));
      }
      double[][] t = new double[4][reps];
      long size = 0;
      for (int r = -1; r < reps; r++) { // r = -1: warm-up
        double[] step = new double[4];
        byte[] shown;
        try (FileSystem fs = ModelFileSystems.open(m, Map.of("commitOnClose", "false"))) {
          Path g = fs.getPath("/graph.json");
          long s0 = System.nanoTime();
          shown = Files.readAllBytes(g);
          step[0] = ms(s0);
          size = shown.length;
          long s1 = System.nanoTime();
          Files.write(g, shown);
          step[1] = ms(s1);
        }
        String text = new String(shown, StandardCharsets.UTF_8);
        byte[] compact = JsonTrees.write(JsonTrees.parse(text)).getBytes(StandardCharsets.UTF_8);
        byte[] edited = JsonTrees.edit(text, d -> JsonTrees.object(JsonTrees.op(d, "matmul"), "tArgs").put("alpha", 0.5))
            .getBytes(StandardCharsets.UTF_8);
        try (FileSystem fs = ModelFileSystems.open(m, Map.of("commitOnClose", "false"))) {
          Path g = fs.getPath("/graph.json");
          Files.readAllBytes(g); // rendered once, as a user's read before the write
          long s2 = System.nanoTime();
          Files.write(g, compact);
          step[2] = ms(s2);
          if (((JournaledFileSystem) fs).hasPendingChanges()) {
            throw new IllegalStateException("a reformatted graph.json left changes to commit");
          }
          long s3 = System.nanoTime();
          Files.write(g, edited);
          step[3] = ms(s3);
          ((JournaledFileSystem) fs).rollback();
        }
        for (int k = 0; r >= 0 && k < 4; k++) {
          t[k][r] = step[k];
        }
      }
      out.add(new Result(n, size, CommitMain.Result.median(t[0]), CommitMain.Result.median(t[1]),
          CommitMain.Result.median(t[2]), CommitMain.Result.median(t[3])));
      Files.delete(m);
    }
    Files.delete(dir);
    return out;
  }

  private static double ms(long start) {
    return (System.nanoTime() - start) / 1e6;
  }

  static String markdown(List<Result> results) {
    StringBuilder sb = new StringBuilder(
        "| ops | graph.json | read | write back as read | reformatted (unchanged) | one edit | one edit per op |\n"
            + "|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Result r : results) {
      sb.append(String.format("| %,d | %.1f MB | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.1f µs |%n", r.ops(),
          r.jsonBytes() / 1e6, r.read(), r.writeBack(), r.reformatted(), r.oneEdit(), 1000 * r.oneEdit() / r.ops()));
    }
    return sb.toString();
  }
}
