package org.modelfs.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * The {@code view} benchmark of docs/PERFORMANCE.md: a model of {@code --ops} ops (default
 * 10,000, in nested name scopes) over {@code --params} FLOAT parameters of {@code --elements}
 * each (default 2,048 × 262,144: 2 GiB; each 1 MiB, so SDNB stores it as a blob beside the graph, not inside it), written as SDNB, its graph given by writing graph.json
 * through a mount (the route a user takes). Then {@code modelfs view} in a child JVM with
 * {@code -Xmx256m} (wall time), and the page in headless Chromium (time from navigation to the
 * top level drawn and answering clicks). Run:
 * {@code mvn -B -Pbench -pl core -DskipTests test-compile exec:exec -Dexec.args="-Xmx1g -cp %classpath org.modelfs.cli.ViewBench"}.
 */
public final class ViewBench {
  private ViewBench() {}

  public static void main(String[] args) throws Exception {
    int ops = 10_000;
    int params = 2_048;
    int elements = 262_144;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "ops" -> ops = Integer.parseInt(kv[1]);
        case "params" -> params = Integer.parseInt(kv[1]);
        case "elements" -> elements = Integer.parseInt(kv[1]);
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    Path dir = Files.createDirectories(Path.of("target", "view-bench").toAbsolutePath());
    Path model = dir.resolve("m" + ops + "-" + params + "x" + elements + ".sdnb");
    if (!Files.exists(model)) {
      long t = System.nanoTime();
      Path data = dir.resolve("data.bin");
      SyntheticModels.Synthetic s = SyntheticModels.floats(data, params, elements);
      try (var src = s.data()) {
        ModelFiles.write(s.tag(), model, WriteOptions.of(ModelFormat.SDNB));
      }
      Files.delete(data);
      try (FileSystem fs = ModelFileSystems.open(model, Map.of())) {
        Files.writeString(fs.getPath("/tags/default/graph.json"), graphJson(ops, params, elements));
      }
      System.out.printf("generated %s (%d bytes) in %.1f s%n", model.getFileName(), Files.size(model),
          (System.nanoTime() - t) / 1e9);
    }
    Path html = dir.resolve("m.html");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    long t = System.nanoTime();
    Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        "org.modelfs.cli.Main", "view", model.toString(), "-o", html.toString()).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("view failed");
    }
    double viewSeconds = (System.nanoTime() - t) / 1e9;
    System.out.printf("view: %.2f s with -Xmx256m; page %d bytes%n", viewSeconds, Files.size(html));
    Path exe = Chromium.find();
    if (exe == null) {
      System.out.println("no chromium: the page's time is not measured");
      return;
    }
    try (Chromium c = new Chromium(exe, Files.createDirectories(dir.resolve("profile")))) {
      for (int run = 0; run < 3; run++) {
        c.open(html);
        System.out.printf("page: top level drawn and interactive %.0f ms after navigation (our script %.0f ms); complaints %s%n",
            ((Number) c.eval("modelfsView.readyAt")).doubleValue(),
            ((Number) c.eval("modelfsView.firstRenderMs")).doubleValue(), c.complaints());
      }
      long e = System.nanoTime();
      c.eval("modelfsView.toggle('block0')");
      System.out.printf("expanding block0 (in-page): %.0f ms%n", (System.nanoTime() - e) / 1e6);
      c.screenshot(dir.resolve("large.png"));
    }
  }

  /** {@code ops} add ops in scopes block{k/1000}/layer{k/100 % 10}, each adding one parameter to the previous result. */
  static String graphJson(int ops, int params, int elements) {
    StringBuilder sb = new StringBuilder("{\"variables\": [\n");
    List<String> vars = new ArrayList<>();
    vars.add("{\"name\": \"input\", \"kind\": \"PLACEHOLDER\", \"dtype\": \"FLOAT\", \"shape\": [" + elements + "]}");
    for (int i = 0; i < params; i++) {
      vars.add("{\"name\": \"big/w" + i + "\", \"kind\": \"VARIABLE\", \"dtype\": \"FLOAT\", \"shape\": [" + elements + "]}");
    }
    List<String> opList = new ArrayList<>();
    String prev = "input";
    for (int k = 0; k < ops; k++) {
      String name = "block" + k / 1000 + "/layer" + k / 100 % 10 + "/add" + k;
      vars.add("{\"name\": \"" + name + "\", \"kind\": \"ARRAY\", \"dtype\": \"FLOAT\", \"shape\": null}");
      opList.add("{\"name\": \"" + name + "\", \"opName\": \"add\", \"opType\": \"CUSTOM\", \"inputs\": [\"" + prev
          + "\", \"big/w" + k % params + "\"], \"outputs\": [\"" + name + "\"], \"outputTypes\": [\"FLOAT\"], \"iArgs\": {}, \"tArgs\": {}}");
      prev = name;
    }
    sb.append(String.join(",\n", vars)).append("],\n\"ops\": [\n").append(String.join(",\n", opList))
        .append("],\n\"placeholders\": [\"input\"], \"lossVariables\": [], \"outputs\": [\"").append(prev).append("\"]}\n");
    return sb.toString();
  }
}
