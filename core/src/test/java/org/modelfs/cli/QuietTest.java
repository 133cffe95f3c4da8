package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.testing.Fixtures;

/**
 * {@code -q}/{@code --quiet} is one global option (docs/CLI.md): every command in
 * {@link Main#COMMANDS}, run with it and succeeding, prints nothing on stderr. The table of
 * invocations must name every command, so a new command cannot be added without one.
 */
class QuietTest {
  @TempDir Path tmp;

  /** One successful invocation of every command, in order (later ones use what earlier ones wrote). */
  private Map<String, List<String>> invocations() {
    String fb = tmp.resolve("m.sdnb").toString();
    String sdz = tmp.resolve("m.sdz").toString();
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put("convert", List.of("convert", Fixtures.get("mlp_adam.fb").toString(), sdz));
    m.put("info", List.of("info", sdz));
    m.put("tree", List.of("tree", sdz));
    m.put("ls", List.of("ls", sdz, "/params"));
    m.put("cat", List.of("cat", sdz, "graph.json"));
    m.put("cp", List.of("cp", sdz + ":/params/layer0/W", tmp.resolve("w.bin").toString()));
    m.put("rm", List.of("rm", sdz, "/updater/layer0/W/M", "/updater/layer0/W/V"));
    m.put("meta", List.of("meta", "set", sdz, "author", "Ada"));
    m.put("tag", List.of("tag", "add", sdz, "v2"));
    m.put("graph", List.of("graph", sdz));
    m.put("avg", List.of("avg", sdz, "--tags", "default,v2", "--into", "mean"));
    m.put("diff", List.of("diff", sdz + "#default", sdz + "#v2"));
    m.put("view", List.of("view", sdz + "#default..v2", "-o", tmp.resolve("m.html").toString()));
    m.put("extract", List.of("extract", sdz, "mean", fb));
    m.put("export", List.of("export", fb, tmp.resolve("m.safetensors").toString()));
    m.put("import", List.of("import", tmp.resolve("m.safetensors").toString(), fb));
    m.put("verify", List.of("verify", sdz));
    m.put("clean", List.of("clean", sdz));
    return m;
  }

  @Test
  void everyCommandIsSilentOnStderrWithQuiet() throws Exception {
    Map<String, List<String>> all = invocations();
    assertEquals(new TreeSet<>(Main.COMMANDS.keySet()), new TreeSet<>(all.keySet()),
        "every command needs a --quiet invocation here");
    int i = 0;
    for (List<String> line : all.values()) {
      List<String> args = new ArrayList<>(line);
      // both spellings, both places: after the command and before it
      switch (i++ % 3) {
        case 0 -> args.add("--quiet");
        case 1 -> args.add(1, "-q");
        default -> args.add(0, "-q");
      }
      MainTest.Result r = MainTest.run(args.toArray(String[]::new));
      assertEquals(0, r.code(), args + " → " + r.err());
      assertEquals("", r.err(), args + " printed on stderr");
    }
  }

  @Test
  void withoutQuietConvertSaysWhatItWrote() throws Exception {
    Path out = tmp.resolve("m.sdnb");
    MainTest.Result r = MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), out.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("wrote"), r.err());
    assertTrue(Files.size(out) > 0);
  }

  @Test
  void quietStillPrintsTheErrorThatEndsACommand() {
    MainTest.Result r = MainTest.run("info", "-q", tmp.resolve("missing.fb").toString());
    assertEquals(Main.ERROR, r.code());
    assertTrue(r.err().contains("missing.fb"), r.err());
  }
}
