package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import org.modelfs.ModelFileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.format.Codecs;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.Fixtures;
import org.modelfs.view.Page;

/**
 * {@code view}'s page of real model files in a real browser (headless Chromium, as
 * {@link ViewBrowserTest}): DL4J's MLP and its imported while loop written by {@code convert} in
 * every format, their graph.json edited as a user edits it to give ops and variables hostile
 * names (quotes, {@code </script>}, {@code <!--}, U+2028, non-ASCII, deep scopes, a 300-character
 * name); two checkpoints with an op removed (drawn as a struck-out ghost); and a weights tab of
 * 20,000 arrays, drawn lazily (only the rows in view are in the page).
 */
class ViewModelsBrowserTest {
  /** Renames made in graph.json, as JSON text: every occurrence of the quoted old name. */
  static final Map<String, String> MLP_RENAMES = Map.of(
      "layer0/W", "enc \"q\"/</script><!--/\u00fcn\u00ef\u2028\u2713/W",
      "layer1/W", "a/b/c/d/e/f/deep/W",
      "matmul_1", "head/" + "L".repeat(300),
      "add_1", "act 'it'/&amp;<b>add</b>"); // op names only: an opName is never renamed
  static final Map<String, String> WHILE_RENAMES = Map.of(
      "while/Merge", "while/M\u00e9rge \"0\"</script>",
      "while/Add", "while/\u6dfb\u52a0 <!-- add");
  @TempDir static Path tmp;
  private static Chromium browser;

  @BeforeAll
  static void start() throws Exception {
    Path exe = Chromium.find();
    if (exe == null && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("CI=true and chromium is not installed (.ci/run installs it: apt-get install chromium)");
    }
    Assumptions.assumeTrue(exe != null, "chromium is not installed (apt-get install chromium): the browser tests are skipped");
    browser = new Chromium(exe, Files.createDirectories(tmp.resolve("profile")));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
  }

  static Stream<Arguments> modelsAndFormats() {
    List<Arguments> out = new ArrayList<>();
    for (ModelFormat f : Codecs.formats()) {
      out.add(Arguments.of("mlp_adam.fb", f.token()));
      out.add(Arguments.of("tf-import/simplewhile_1.fb", f.token()));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("modelsAndFormats")
  void aRealModelWithHostileNamesInEveryFormat(String fixture, String format) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve(fixture.replace('/', '-') + "-" + format));
    Path model = dir.resolve("model." + (format.startsWith("container") ? "sdmc" : format.replace("-sharded", "")));
    MainTest.Result c = MainTest.run("convert", Fixtures.get(fixture).toString(), model.toString(), "--format", format);
    assertEquals(0, c.code(), c.err());
    Path opened = Files.exists(model) ? model : firstShard(dir);
    rename(opened, fixture.startsWith("mlp") ? MLP_RENAMES : WHILE_RENAMES);
    Path html = dir.resolve("page.html");
    Path json = dir.resolve("page.json");
    assertEquals(0, MainTest.run("view", opened.toString(), "-o", html.toString()).code());
    assertEquals(0, MainTest.run("view", opened.toString(), "--json", "-o", json.toString()).code());
    Map<?, ?> graph = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) ViewBrowserTest.parse(Files.readString(json))).get("a")).get("graph");
    List<String> names = new ArrayList<>();
    ViewBrowserTest.maps(graph.get("ops")).forEach(o -> names.add((String) o.get("name")));
    ViewBrowserTest.maps(graph.get("variables")).forEach(v -> names.add((String) v.get("name")));
    for (String hostile : (fixture.startsWith("mlp") ? MLP_RENAMES : WHILE_RENAMES).values()) {
      assertTrue(names.contains(hostile), hostile + " is in " + format + "'s graph: " + names);
    }
    ViewBrowserTest.check(browser, html, graph);
    if (fixture.contains("simplewhile")) {
      assertEquals(2L, browser.eval("document.querySelectorAll('.edge.loop').length"), "the loop's two back edges");
    } else {
      // the hostile variable selected: its name shown as text, its statistics beside it
      ViewBrowserTest.click(browser, "[data-id=" + Chromium.quote("var:" + MLP_RENAMES.get("layer0/W")) + "]");
      String panel = (String) browser.eval("document.getElementById('panel').textContent");
      assertTrue(panel.contains(MLP_RENAMES.get("layer0/W")) && panel.contains("mean"), panel);
      assertEquals(List.of(), browser.complaints());
    }
    if (format.equals("sdz")) {
      browser.screenshot(ViewBrowserTest.SHOTS.resolve("hostile-" + fixture.replace('/', '-') + ".png"));
    }
  }

  @Test
  void aRemovedOpIsDrawnStruckOutAsWellAsListed() throws Exception {
    Path a = tmp.resolve("a.sdz");
    Path b = tmp.resolve("b.sdz");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), a.toString()).code());
    Files.copy(a, b);
    try (FileSystem fs = ModelFileSystems.open(b, Map.of())) {
      Path g = graphJson(fs);
      String s = Files.readString(g);
      int op = s.indexOf("    {\n      \"name\": \"softmax_cross_entropy_loss\"");
      int end = s.indexOf("\n    }", op) + "\n    }".length();
      String t = s.substring(0, op - 2) + s.substring(end); // the op and the comma before it
      int v = t.indexOf("    {\n      \"name\": \"loss\",");
      int vEnd = t.indexOf("\n    },\n", v) + "\n    },\n".length();
      t = t.substring(0, v) + t.substring(vEnd);
      Files.writeString(g, t.replace("\"lossVariables\": [\n    \"loss\"\n  ]", "\"lossVariables\": []"));
    }
    Path html = tmp.resolve("removed.html");
    MainTest.Result r = MainTest.run("view", a.toString(), b.toString(), "-o", html.toString());
    assertEquals(0, r.code(), r.err());
    browser.open(html);
    browser.eval("modelfsView.expandAll()");
    assertEquals(List.of("op:softmax_cross_entropy_loss"),
        ViewBrowserTest.strings(browser.eval("[...document.querySelectorAll('.node.removed')].map(e => e.getAttribute('data-id'))")));
    assertEquals("line-through", browser.eval("getComputedStyle(document.querySelector('.node.removed text')).textDecorationLine"));
    assertTrue((Long) browser.eval("document.querySelectorAll('.edge.removed').length") > 0, "its edges drawn as ghosts too");
    ViewBrowserTest.click(browser, "[data-id=\"op:softmax_cross_entropy_loss\"]");
    assertTrue(((String) browser.eval("document.getElementById('panel').textContent")).contains("removed since"));
    browser.eval("document.getElementById('tab-compare').click()");
    assertTrue(((String) browser.eval("document.getElementById('compare').textContent"))
        .contains("removed: softmax_cross_entropy_loss"));
    assertEquals(List.of(), browser.complaints());
    assertEquals(List.of(html.toUri().toString()), browser.requests());
    browser.eval("document.querySelector('nav [data-tab=graph]').click()");
    browser.screenshot(ViewBrowserTest.SHOTS.resolve("compare-removed-op.png"));
  }

  /**
   * A 10,000-op graph with 20,000 arrays: the weights tab holds only the rows in view, scrolls to
   * the last array, and its opening time is written to {@code target/view-screenshots/weights-20000.txt}.
   */
  @Test
  void theWeightsTabOfTwentyThousandArraysIsDrawnLazily() throws Exception {
    Map<String, Object> graph = ViewBrowserTest.generated(10, 10, 100, 0);
    List<Object> arrays = new ArrayList<>();
    List<Double> counts = new ArrayList<>();
    List<Double> edges = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      counts.add((double) (i * (64 - i)));
      edges.add(-1 + i / 32.0);
    }
    edges.add(1.0);
    for (int i = 0; i < 20_000; i++) {
      Map<String, Object> stats = new LinkedHashMap<>();
      for (String k : List.of("elements", "read", "zeros", "nan", "posInf", "negInf")) {
        stats.put(k, k.equals("elements") || k.equals("read") ? 256L : 0L);
      }
      stats.put("sampled", false);
      stats.put("min", -1.0);
      stats.put("max", 1.0);
      stats.put("mean", i * 1e-4);
      stats.put("std", 0.5);
      stats.put("histogram", Map.of("edges", edges, "counts", counts));
      Map<String, Object> a = new LinkedHashMap<>();
      a.put("name", "block" + i / 2000 + "/layer" + i / 200 % 10 + "/array" + i);
      a.put("area", i % 2 == 0 ? "params" : "updater");
      a.put("param", "p" + i);
      a.put("dtype", "FLOAT");
      a.put("shape", List.of(16L, 16L));
      a.put("bytes", 1024L);
      a.put("stats", stats);
      arrays.add(a);
    }
    Map<String, Object> facts = ViewBrowserTest.facts(graph);
    facts.put("arrays", arrays);
    Path html = tmp.resolve("weights.html");
    Files.writeString(html, Page.html("20,000 arrays", Json.write(Map.of("a", facts))), StandardCharsets.UTF_8);
    browser.open(html);
    Object ms = browser.eval("(() => { const t = performance.now();"
        + " document.querySelector('nav [data-tab=weights]').click(); document.body.offsetHeight;"
        + " return performance.now() - t; })()");
    long rows = (Long) browser.eval("document.querySelectorAll('#wbody .wrow').length");
    assertTrue(rows > 5 && rows < 200, rows + " rows in the page of 20,000");
    assertTrue(((String) browser.eval("document.getElementById('weights').textContent")).contains("block0/layer0/array0"));
    browser.eval("(() => { const w = document.getElementById('weights'); w.scrollTop = w.scrollHeight; modelfsView.fillWeights(); })()");
    assertTrue(((String) browser.eval("document.getElementById('weights').textContent")).contains("updater/block9/layer9/array19999"));
    assertTrue((Long) browser.eval("document.querySelectorAll('#wbody .wrow').length") < 200);
    assertEquals(List.of(), browser.complaints());
    Files.createDirectories(ViewBrowserTest.SHOTS);
    Files.writeString(ViewBrowserTest.SHOTS.resolve("weights-20000.txt"), "weights tab of 20,000 arrays opened in "
        + ms + " ms; graph of 10,000 ops drawn in " + browser.eval("modelfsView.firstRenderMs") + " ms\n");
    browser.screenshot(ViewBrowserTest.SHOTS.resolve("weights-20000.png"));
  }

  /** Renames in graph.json, each old name (quoted, everywhere) to a new one, as a user edits it; the mount's close commits. */
  static void rename(Path model, Map<String, String> renames) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of())) {
      Path g = graphJson(fs);
      String s = Files.readString(g);
      for (Map.Entry<String, String> e : renames.entrySet()) {
        String from = Json.write(e.getKey()).trim();
        assertTrue(s.contains(from), e.getKey());
        s = s.replace(from, Json.write(e.getValue()).trim());
      }
      Files.writeString(g, s);
    }
  }

  /** The graph.json of the model's one tag: at the root of a one-tag format, else under {@code /tags/<tag>}. */
  private static Path graphJson(FileSystem fs) throws Exception {
    Path root = fs.getPath("/graph.json");
    if (Files.exists(root)) {
      return root;
    }
    try (Stream<Path> s = Files.list(fs.getPath("/tags"))) {
      return s.findFirst().orElseThrow().resolve("graph.json");
    }
  }

  private static Path firstShard(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().contains("shard1")).findFirst().orElseThrow();
    }
  }
}
