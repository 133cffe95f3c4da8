package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.testing.Fixtures;
import org.modelfs.view.Page;

/**
 * {@code view}'s page in a real browser (headless Chromium over the DevTools protocol): for every
 * fixture and for generated graphs (nested scopes, a scope too big to draw whole, a while loop)
 * every op and variable is drawn once all is expanded, a scope collapses and expands on a click,
 * a click on an op shows its named arguments and one on a parameter its statistics, nothing is
 * said on the console, and no request leaves the page. Screenshots go to
 * {@code core/target/view-screenshots/}. Without Chromium the tests are skipped saying so —
 * except under {@code CI=true}, where they fail.
 */
class ViewBrowserTest {
  static final Path SHOTS = Path.of("target", "view-screenshots");
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

  static Stream<Path> fixtures() throws IOException {
    return Fixtures.all().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void everyFixturesPageShowsItsWholeGraph(Path fixture) throws Exception {
    String name = fixture.getFileName().toString();
    Path html = tmp.resolve(name + ".html");
    Path json = tmp.resolve(name + ".json");
    assertEquals(0, MainTest.run("view", fixture.toString(), "-o", html.toString()).code());
    assertEquals(0, MainTest.run("view", fixture.toString(), "--json", "-o", json.toString()).code());
    Map<?, ?> facts = (Map<?, ?>) parse(Files.readString(json));
    Map<?, ?> graph = (Map<?, ?>) ((Map<?, ?>) facts.get("a")).get("graph");
    check(html, graph);
    if (name.equals("simplewhile_1.fb")) { // DL4J's while loop: merge <- next_iteration, drawn as loops
      assertEquals(2L, browser.eval("document.querySelectorAll('.edge.loop').length"));
      browser.screenshot(SHOTS.resolve("loop-simplewhile_1.png"));
    }
    if (name.equals("mlp_adam.fb")) {
      browser.screenshot(SHOTS.resolve("small-mlp_adam.png"));
      // a parameter: its statistics and histogram, and its updater state beside it
      browser.eval("modelfsView.collapseAll(); modelfsView.expandAll()");
      click("[data-id=\"var:layer0/W\"]");
      String panel = (String) browser.eval("document.getElementById('panel').textContent");
      assertTrue(panel.contains("mean") && panel.contains("std") && panel.contains("updater state"), panel);
      assertEquals(true, browser.eval("!!document.querySelector('#panel svg.hist rect')"));
      browser.eval("document.querySelector('nav [data-tab=weights]').click()");
      assertTrue(((String) browser.eval("document.getElementById('weights').textContent")).contains("layer0/W"));
      assertEquals(List.of(), browser.complaints());
    }
  }

  @Test
  void aComparisonPageShowsItsTabs() throws Exception {
    Path html = tmp.resolve("cmp.html");
    assertEquals(0, MainTest.run("view", Fixtures.get("mlp_adam.fb").toString(), Fixtures.get("mlp_noupdater.fb").toString(),
        "-o", html.toString()).code());
    browser.open(html);
    browser.eval("document.getElementById('tab-compare').click()");
    String text = (String) browser.eval("document.getElementById('compare').textContent");
    assertTrue(text.contains("relative change per name scope"), text);
    // the arrays not unchanged (mlp_noupdater has no updater state: each removed), drawn as lazy rows
    assertTrue((Long) browser.eval("document.querySelectorAll('#cbody .wrow').length") > 0, text);
    assertTrue(((String) browser.eval("document.getElementById('cbody').textContent")).contains("removed"), text);
    assertEquals(List.of(), browser.complaints());
    assertEquals(List.of(html.toUri().toString()), browser.requests());
  }

  @Test
  void aGeneratedGraphWithNestedScopesALoopAndAHugeScope() throws Exception {
    Map<String, Object> graph = generated(6, 5, 40, 450);
    Path html = tmp.resolve("generated.html");
    Files.writeString(html, Page.html("generated </script><!-- \u2028", Json.write(Map.of("a", facts(graph)))),
        StandardCharsets.UTF_8);
    check(html, parse(Json.write(graph)));
    assertEquals("generated </script><!-- \u2028 — modelfs view", browser.eval("document.title"));
    assertTrue((Long) browser.eval("document.querySelectorAll('.edge.loop').length") > 0, "the loop's back edge is drawn as a loop");
    browser.eval("modelfsView.collapseAll()");
    browser.screenshot(SHOTS.resolve("large-generated-collapsed.png"));
  }

  /** Opens {@code html}: all drawn when expanded, one scope collapses and expands, an op's arguments, a quiet console, no request out. */
  private static void check(Path html, Object graphObj) throws Exception {
    check(browser, html, graphObj);
  }

  static void check(Chromium browser, Path html, Object graphObj) throws Exception {
    browser.open(html);
    assertEquals(true, browser.eval("typeof modelfsView === 'object'"), "the page's script ran");
    Map<?, ?> graph = (Map<?, ?>) graphObj;
    browser.eval("modelfsView.expandAll()");
    Set<String> ids = new HashSet<>(strings(browser.eval("[...document.querySelectorAll('[data-id]')].map(e => e.getAttribute('data-id'))")));
    Set<String> edgeVars = new HashSet<>(strings(browser.eval("[...document.querySelectorAll('[data-vars]')].flatMap(e => JSON.parse(e.getAttribute('data-vars')))")));
    List<Map<?, ?>> ops = maps(graph == null ? null : graph.get("ops"));
    for (Map<?, ?> op : ops) {
      assertTrue(ids.contains("op:" + op.get("name")), html.getFileName() + ": op " + op.get("name") + " is drawn");
    }
    for (Map<?, ?> v : maps(graph == null ? null : graph.get("variables"))) {
      String n = (String) v.get("name");
      assertTrue(ids.contains("var:" + n) || edgeVars.contains(n), html.getFileName() + ": variable " + n + " is drawn");
    }
    List<String> groups = strings(browser.eval("modelfsView.groups().filter(g => g !== '')"));
    if (!groups.isEmpty()) {
      String g = groups.get(0);
      String sel = "[data-group=" + Chromium.quote(g) + "] .hd";
      click(browser, sel);
      assertEquals(false, browser.eval("modelfsView.isOpen(" + Chromium.quote(g) + ")"), g + " collapsed");
      assertEquals(false, browser.eval("!!document.querySelector('[data-group=' + " + Chromium.quote(Chromium.quote(g)) + " + '].open')"));
      click(browser, sel);
      assertEquals(true, browser.eval("modelfsView.isOpen(" + Chromium.quote(g) + ")"), g + " expanded again");
    }
    Map<?, ?> withArgs = ops.stream().filter(o -> o.get("iArgs") instanceof Map<?, ?> m && !m.isEmpty()
        || o.get("tArgs") instanceof Map<?, ?> t && !t.isEmpty()).findFirst().orElse(ops.isEmpty() ? null : ops.get(0));
    if (withArgs != null) {
      click(browser, "[data-id=" + Chromium.quote("op:" + withArgs.get("name")) + "]");
      String panel = (String) browser.eval("document.getElementById('panel').textContent");
      assertTrue(panel.contains((String) withArgs.get("opName")), panel);
      for (String list : List.of("iArgs", "tArgs", "bArgs", "sArgs", "dArgs")) {
        if (withArgs.get(list) instanceof Map<?, ?> named) {
          for (Object k : named.keySet()) {
            assertTrue(panel.contains(list + "." + k), withArgs.get("name") + ": " + list + "." + k + " in " + panel);
          }
        }
      }
    }
    assertEquals(List.of(), browser.complaints(), html.getFileName() + ": the console");
    assertEquals(List.of(html.toUri().toString()), browser.requests(), html.getFileName() + ": requests");
  }

  /** A real click (mouse events at the element's centre, through the page's handlers). */
  private static void click(String selector) throws IOException {
    click(browser, selector);
  }

  static void click(Chromium browser, String selector) throws IOException {
    Object r = browser.eval("(() => { const e = document.querySelector(" + Chromium.quote(selector) + ");"
        + " if (!e) return 'missing'; e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return 'ok'; })()");
    assertEquals("ok", r, selector);
  }

  /** {@code blocks} scopes of {@code layers} nested scopes of {@code ops} ops each, a while loop, and one flat scope of {@code flat} ops. */
  static Map<String, Object> generated(int blocks, int layers, int ops, int flat) {
    List<Object> vars = new ArrayList<>();
    List<Object> opList = new ArrayList<>();
    vars.add(variable("input", "PLACEHOLDER"));
    String prev = "input";
    for (int b = 0; b < blocks; b++) {
      for (int l = 0; l < layers; l++) {
        String scope = "block" + b + "/layer" + l + "/";
        vars.add(variable(scope + "W", "VARIABLE"));
        for (int k = 0; k < ops; k++) {
          String out = scope + "op" + k;
          vars.add(variable(out, "ARRAY"));
          opList.add(op(out, k % 3 == 0 ? "matmul" : "add", List.of(prev, scope + "W"), out));
          prev = out;
        }
      }
    }
    for (int k = 0; k < flat; k++) {
      String out = "flat/relu" + k;
      vars.add(variable(out, "ARRAY"));
      opList.add(op(out, "relu", List.of(prev), out));
      prev = out;
    }
    // while/Enter -> while/Merge <- while/NextIteration; Merge -> Switch -> body -> NextIteration
    for (String n : List.of("while/Enter", "while/Merge", "while/Switch", "while/body", "while/NextIteration", "while/Exit")) {
      vars.add(variable(n, "ARRAY"));
    }
    opList.add(op("while/Enter", "Enter", List.of(prev), "while/Enter"));
    opList.add(op("while/Merge", "Merge", List.of("while/Enter", "while/NextIteration"), "while/Merge"));
    opList.add(op("while/Switch", "Switch", List.of("while/Merge"), "while/Switch"));
    opList.add(op("while/body", "add", List.of("while/Switch", "input"), "while/body"));
    opList.add(op("while/NextIteration", "NextIteration", List.of("while/body"), "while/NextIteration"));
    opList.add(op("while/Exit", "Exit", List.of("while/Switch"), "while/Exit"));
    Map<String, Object> g = new LinkedHashMap<>();
    g.put("variables", vars);
    g.put("ops", opList);
    g.put("placeholders", List.of("input"));
    g.put("lossVariables", List.of("while/Exit"));
    g.put("outputs", List.of());
    return g;
  }

  static Map<String, Object> facts(Map<String, Object> graph) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("model", "generated </script>");
    f.put("tag", "default");
    f.put("graph", graph);
    f.put("arrays", List.of());
    return f;
  }

  static Map<String, Object> variable(String name, String kind) {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("name", name);
    v.put("kind", kind);
    v.put("dtype", "FLOAT");
    v.put("shape", List.of(16L, 16L));
    return v;
  }

  private static Map<String, Object> op(String name, String opName, List<String> inputs, String output) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("name", name);
    o.put("opName", opName);
    o.put("opType", "CUSTOM");
    o.put("inputs", inputs);
    o.put("outputs", List.of(output));
    o.put("iArgs", opName.equals("matmul") ? Map.of("transX", 0L, "transY", 0L) : Map.of());
    return o;
  }

  static Object parse(String json) throws IOException {
    return ViewFacts.plain(new JsonStream(new StringReader(json), "json").value(Integer.MAX_VALUE));
  }

  static List<Map<?, ?>> maps(Object list) {
    List<Map<?, ?>> out = new ArrayList<>();
    if (list instanceof List<?> l) {
      l.forEach(x -> out.add((Map<?, ?>) x));
    }
    return out;
  }

  static List<String> strings(Object list) {
    List<String> out = new ArrayList<>();
    ((List<?>) list).forEach(x -> out.add((String) x));
    return out;
  }

  @Test
  void theVendoredLayoutLibraryIsTheOnePinned() throws Exception {
    byte[] bytes;
    try (var in = Page.class.getResourceAsStream(Page.DAGRE)) {
      bytes = in.readAllBytes();
    }
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    assertEquals(Page.DAGRE_SHA256, HexFormat.of().formatHex(sha.digest(bytes)));
    assertFalse(new String(bytes, StandardCharsets.ISO_8859_1).contains("</script"));
  }
}
