package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

  private static void close(double expected, double actual) {
    assertTrue(Math.abs(expected - actual) <= 1e-12 * Math.max(1, Math.abs(expected)), expected + " vs " + actual);
  }
}
