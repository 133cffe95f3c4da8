package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Fixtures;

/**
 * {@code view}'s facts for two tags of one model, one parameter changed by a known amount: the
 * array is "changed" with the relative change ‖Δ‖/‖W‖ computed here from the bytes, the others
 * unchanged, the name scope's change over its parameters, no op added or removed; and the
 * {@code MODEL#T1..T2} form means the same as {@code MODEL#T1 MODEL#T2}.
 */
class ViewCommandTest {
  /** mlp_adam's parameters (all FLOAT). */
  static final List<String> PARAMS = List.of("&MyParam*", "const/scale", "layer0/W", "layer0/b", "layer1/W", "sd_var");
  @TempDir Path tmp;

  @Test
  void twoTagsCompared() throws Exception {
    Path sdz = tmp.resolve("m.sdz");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), sdz.toString()).code());
    assertEquals(0, MainTest.run("tag", "add", sdz.toString(), "v2").code());
    double ww = 0;
    double dd = 0;
    double bb = 0;
    try (FileSystem fs = ModelFileSystems.open(sdz, Map.of())) {
      Path w = fs.getPath("/tags/v2/params/layer0/W");
      ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(w)).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < b.capacity() / 4; i++) {
        float x = b.getFloat(4 * i);
        float y = x * 1.5f + 0.25f;
        ww += (double) x * x;
        dd += ((double) y - x) * ((double) y - x);
        b.putFloat(4 * i, y);
      }
      Files.write(w, b.array());
      ByteBuffer bias = ByteBuffer.wrap(Files.readAllBytes(fs.getPath("/tags/v2/params/layer0/b")))
          .order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < bias.capacity() / 4; i++) {
        bb += (double) bias.getFloat(4 * i) * bias.getFloat(4 * i);
      }
    }
    MainTest.Result r = MainTest.run("view", sdz + "#default..v2", "--json");
    assertEquals(0, r.code(), r.err());
    MainTest.Result r2 = MainTest.run("view", sdz + "#default", sdz + "#v2", "--json");
    assertEquals(r.out().replace(sdz + "#default..v2", ""), r2.out().replace(sdz + "#default..v2", ""));
    Map<?, ?> doc = (Map<?, ?>) ViewBrowserTest.parse(r.out());
    Map<?, ?> cmp = (Map<?, ?>) doc.get("compare");
    for (Object o : (List<?>) cmp.get("arrays")) {
      Map<?, ?> a = (Map<?, ?>) o;
      boolean w = a.get("area").equals("params") && a.get("name").equals("layer0/W");
      assertEquals(w ? "changed" : "unchanged", a.get("change"), a.get("area") + "/" + a.get("name"));
      if (w) {
        Map<?, ?> d = (Map<?, ?>) a.get("delta");
        close(Math.sqrt(dd / ww), (Double) d.get("relativeChange"));
        assertTrue(((Map<?, ?>) d.get("histogram")).get("counts") instanceof List<?> l && l.size() == 64);
      }
    }
    for (Object o : (List<?>) cmp.get("scopes")) {
      Map<?, ?> s = (Map<?, ?>) o;
      if (s.get("scope").equals("layer0")) {
        close(Math.sqrt(dd / (ww + bb)), (Double) s.get("relativeChange"));
      }
    }
    Map<?, ?> ops = (Map<?, ?>) cmp.get("ops");
    assertEquals(List.of(), ops.get("added"));
    assertEquals(List.of(), ops.get("removed"));
    assertEquals(List.of(), ops.get("changed"));
  }

  /**
   * An array both tags store once (one stored array, equal file keys) is "unchanged" without
   * being read: no delta, and its share of a scope's ‖W‖ comes from its statistics. That norm
   * equals √Σx² of the bytes, and equals what reading both arrays gives for the same values
   * stored twice (a copy of the model).
   */
  @Test
  void anArrayBothTagsStoreOnceIsNotReadAndItsNormIsStillRight() throws Exception {
    Path zip = tmp.resolve("m.zip"); // zip-tags stores an array two tags share once (FORMATS.md §8)
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), zip.toString(), "--format", "zip-tags").code());
    assertEquals(0, MainTest.run("tag", "add", zip.toString(), "v2").code());
    Path copy = tmp.resolve("copy.zip");
    Files.copy(zip, copy);
    try (FileSystem fs = ModelFileSystems.open(zip, Map.of())) { // v2's parameters: links to default's arrays
      for (String p : PARAMS) {
        Files.delete(fs.getPath("/tags/v2/params/" + p));
        Files.createLink(fs.getPath("/tags/v2/params/" + p), fs.getPath("/tags/default/params/" + p));
      }
    }
    Map<String, Double> squares = new TreeMap<>();
    try (FileSystem fs = ModelFileSystems.open(zip, Map.of())) {
      for (String p : PARAMS) {
        Path a = fs.getPath("/tags/default/params/" + p);
        assertTrue(Files.isSameFile(a, fs.getPath("/tags/v2/params/" + p)), p + ": one stored array in both tags");
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(a)).order(ByteOrder.LITTLE_ENDIAN);
        double ss = 0;
        for (int i = 0; i < b.capacity() / 4; i++) {
          ss += (double) b.getFloat(4 * i) * b.getFloat(4 * i);
        }
        for (int i = p.indexOf('/'); ; i = p.indexOf('/', i + 1)) {
          squares.merge(i < 0 ? "" : p.substring(0, i), ss, Double::sum);
          if (i < 0) {
            break;
          }
        }
      }
    }
    Map<?, ?> once = compare(zip + "#default..v2");
    for (Object o : (List<?>) once.get("arrays")) {
      Map<?, ?> a = (Map<?, ?>) o;
      assertEquals("unchanged", a.get("change"), a.get("name").toString());
      assertEquals(null, a.get("delta"), a.get("name") + ": not read");
    }
    Map<?, ?> twice = compare(zip + "#default", copy + "#default");
    Map<String, Double> shortcut = norms(once);
    Map<String, Double> read = norms(twice);
    assertEquals(squares.keySet(), shortcut.keySet());
    for (Map.Entry<String, Double> e : squares.entrySet()) {
      close(Math.sqrt(e.getValue()), shortcut.get(e.getKey()));
      close(read.get(e.getKey()), shortcut.get(e.getKey()));
    }
    for (Object o : (List<?>) twice.get("arrays")) {
      assertTrue(((Map<?, ?>) o).get("delta") instanceof Map<?, ?>, o + ": two stored arrays are read");
    }
  }

  /** The delta step reports its progress on stderr as the statistics step does (one line, its bytes). */
  @Test
  void theDeltaStepReportsProgress() throws Exception {
    Path sdz = tmp.resolve("p.sdz");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), sdz.toString()).code());
    assertEquals(0, MainTest.run("tag", "add", sdz.toString(), "v2").code());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    long[] clock = {0};
    List<Long> totals = new ArrayList<>();
    ViewCommand.facts(List.of(new DiffCommand.Ref(sdz.toString(), "default"), new DiffCommand.Ref(sdz.toString(), "v2")),
        total -> new Progress(err, "view: array statistics", total, true, () -> clock[0]),
        total -> {
          totals.add(total);
          return new Progress(err, "view: deltas", total, true, () -> clock[0] += 1_000_000_000L);
        });
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(1, totals.size());
    assertTrue(totals.get(0) > 0, "the total: the bytes of the arrays compared");
    assertTrue(text.contains("view: deltas: " + Listing.size(totals.get(0)) + " of " + Listing.size(totals.get(0))), text);
    assertTrue(text.contains("view: array statistics"), text);
  }

  private static Map<?, ?> compare(String... refs) throws Exception {
    String[] args = new String[refs.length + 2];
    args[0] = "view";
    System.arraycopy(refs, 0, args, 1, refs.length);
    args[refs.length + 1] = "--json";
    MainTest.Result r = MainTest.run(args);
    assertEquals(0, r.code(), r.err());
    return (Map<?, ?>) ((Map<?, ?>) ViewBrowserTest.parse(r.out())).get("compare");
  }

  private static Map<String, Double> norms(Map<?, ?> compare) {
    Map<String, Double> out = new TreeMap<>();
    for (Object o : (List<?>) compare.get("scopes")) {
      out.put((String) ((Map<?, ?>) o).get("scope"), (Double) ((Map<?, ?>) o).get("norm"));
    }
    return out;
  }

  private static void close(double expected, double actual) {
    assertTrue(Math.abs(expected - actual) <= 1e-12 * Math.max(1, Math.abs(expected)), expected + " vs " + actual);
  }
}
