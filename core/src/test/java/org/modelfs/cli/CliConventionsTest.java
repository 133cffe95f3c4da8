package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.JsonText;
import org.modelfs.format.ModelFormatException;

/**
 * The command line's conventions (docs/CLI.md): help and versions, exit codes 0/1/2, JSON that
 * parses with one schema per command, exact sizes, {@code -} for standard input and output,
 * UTF-8 whatever the locale, progress lines, and messages in the user's words.
 */
class CliConventionsTest {
  @TempDir Path tmp;

  private Path example(String name) throws IOException {
    return Files.copy(Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb"), tmp.resolve(name));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    assertInstanceOf(Map.class, o);
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    assertInstanceOf(List.class, o);
    return (List<Object>) o;
  }

  private static Object json(MainTest.Result r) {
    assertEquals(0, r.code(), r.err());
    return JsonText.parse(r.out(), 64, true);
  }

  @Test
  void helpAndVersion() {
    for (String[] args : List.of(new String[] {"help"}, new String[] {"--help"}, new String[] {"-h"})) {
      MainTest.Result r = MainTest.run(args);
      assertEquals(0, r.code());
      assertTrue(r.out().contains("tree ") && r.out().contains("Print the tree"), r.out());
    }
    for (String[] args : List.of(new String[] {"help", "tree"}, new String[] {"tree", "--help"},
        new String[] {"tree", "-h"})) {
      MainTest.Result r = MainTest.run(args);
      assertEquals(0, r.code(), String.join(" ", args));
      assertTrue(r.out().startsWith("usage: modelfs tree MODEL [PATH]"), r.out());
      assertTrue(r.out().contains("example:"), r.out());
    }
    for (String verb : List.of("info", "convert", "tree", "ls", "cp", "rm", "meta", "cat", "tag", "extract", "avg",
        "diff")) {
      assertTrue(MainTest.run("help", verb).out().contains("example:\n  modelfs " + verb), verb);
    }
    assertEquals(2, MainTest.run("help", "nope").code());
    assertEquals(2, MainTest.run().code());
    MainTest.Result v = MainTest.run("--version");
    assertEquals(0, v.code());
    assertTrue(v.out().matches("modelfs \\d+\\.\\d+\\.\\d+.*\\n"), v.out());
  }

  @Test
  void jsonOfInfoLsTreeTagListAndDiffParses() throws IOException {
    String m = example("m.fb").toString();
    Map<String, Object> info = object(json(MainTest.run("info", m, "--json")));
    assertEquals("fb", info.get("format"));
    Map<String, Object> tag = object(list(info.get("tags")).get(0));
    assertEquals(true, tag.get("newest"));
    Map<String, Object> w = null;
    for (Object a : list(tag.get("arrays"))) {
      if ("layer0/W".equals(object(a).get("name"))) {
        w = object(a);
      }
    }
    assertEquals(List.of(4L, 8L), w.get("shape"));
    assertEquals(128L, w.get("bytes"));

    List<Object> ls = list(json(MainTest.run("ls", m, "/params/layer0", "--json")));
    assertEquals("W", object(ls.get(0)).get("name"));
    assertEquals(128L, object(ls.get(0)).get("size"));
    assertEquals("FLOAT", object(ls.get(0)).get("dtype"));

    Map<String, Object> tree = object(json(MainTest.run("tree", m, "--json")));
    assertEquals("directory", tree.get("type"));
    assertEquals("/tags/default/params", object(tree.get("aliases")).get("params"));

    Map<String, Object> tags = object(json(MainTest.run("tag", "list", m, "--json")));
    assertEquals("default", object(list(tags.get("tags")).get(0)).get("name"));

    Path other = example("n.fb");
    MainTest.run("cp", tmp.resolve("m.fb") + ":/params/layer1/W", tmp.resolve("w.bin").toString());
    Files.write(tmp.resolve("z.bin"), new byte[96]);
    assertEquals(0, MainTest.run("cp", tmp.resolve("z.bin").toString(), other + ":/params/layer1/W").code());
    Map<String, Object> diff = object(json(MainTest.run("diff", m, other.toString(), "--json")));
    Map<String, Object> change = object(list(diff.get("changes")).get(0));
    assertEquals(List.of("change", "path", "a", "b", "differingElements", "maxAbsDifference", "nanMismatches"),
        List.copyOf(change.keySet()), "exactly the documented keys");
    assertEquals("changed", change.get("change"));
    assertEquals("params/layer1/W", change.get("path"));
    assertTrue(((Number) change.get("maxAbsDifference")).doubleValue() > 0);
    assertEquals(1L, object(diff.get("counts")).get("changed"));
    assertEquals(1, MainTest.run("diff", m, other.toString(), "--exit-code").code(), "differs: 1");
    assertEquals(2, MainTest.run("diff", m, tmp.resolve("missing.fb").toString(), "--exit-code").code(), "trouble: 2");
  }

  @Test
  void exactSizesAndDefaultPaths() throws IOException {
    String m = example("m.fb").toString();
    assertTrue(MainTest.run("ls", m, "/graph", "--bytes").out().matches("graph  \\d+ B\\n"));
    MainTest.Result root = MainTest.run("ls", m);
    assertEquals("tags/\n", root.out(), "ls MODEL lists /, which lists tags/ only");
    assertTrue(MainTest.run("tree", m, "--bytes").out().contains("W  128 B  VARIABLE"));
  }

  @Test
  void aDashIsStandardInputAndOutput() throws IOException {
    Path m = example("m.fb");
    byte[] w = Files.readAllBytes(tmp.resolve("m.fb")); // any bytes; we need W's
    MainTest.Result out = MainTest.run("cp", m + ":/params/layer0/W", "-");
    assertEquals(0, out.code(), out.err());
    assertFalse(Files.exists(Path.of("-")), "no file named -");
    byte[] newW = new byte[128];
    newW[3] = 0x3f;
    InputStream stdin = System.in;
    try {
      System.setIn(new ByteArrayInputStream(newW));
      MainTest.Result in = MainTest.run("cp", "-", m + ":/params/layer0/W");
      assertEquals(0, in.code(), in.err());
    } finally {
      System.setIn(stdin);
    }
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      assertArrayEquals(newW, Files.readAllBytes(fs.getPath("/params/layer0/W")));
    }
    assertTrue(w.length > 0);
  }

  @Test
  void argumentsManglesByTheLocaleAreReadAgainAsUtf8() {
    byte[] cmdline = "java\0-cp\0x\0org.modelfs.cli.Main\0cp\0w.bin\0m.fb:/params/ünï\0"
        .getBytes(StandardCharsets.UTF_8);
    String[] decoded = {"cp", "w.bin", "m.fb:/params/\uFFFD\uFFFDn\uFFFD\uFFFD"};
    String[] raw = Utf8Args.fromCmdline(cmdline, 3);
    assertArrayEquals(new String[] {"cp", "w.bin", "m.fb:/params/ünï"}, raw);
    assertTrue(Utf8Args.consistent(decoded, raw));
    assertFalse(Utf8Args.consistent(new String[] {"rm", "w.bin", decoded[2]}, raw), "other arguments: not used");
  }

  /** A child JVM under LANG=C: a non-ASCII parameter name survives the command line both ways. */
  @Test
  void namesSurviveACLocale() throws Exception {
    Path m = example("u.fb");
    Path w = Files.write(tmp.resolve("w.bin"), new byte[16]);
    assertEquals(0, child(List.of("cp", w.toString(), m + ":/params/ünï")).code(), "cp under LANG=C");
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      assertTrue(Files.exists(fs.getPath("/params/ünï")));
    }
    MainTest.Result ls = child(List.of("ls", m.toString(), "/params"));
    assertTrue(ls.out().contains("ünï  16 B"), ls.out());
    MainTest.Result tree = child(List.of("tree", m.toString(), "/params"));
    assertTrue(tree.out().contains("`-- ") || tree.out().contains("|-- "), "ASCII drawing under LANG=C: " + tree.out());
  }

  private static MainTest.Result child(List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("LANG", "C");
    pb.environment().put("LC_ALL", "C");
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    return new MainTest.Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
  }

  @Test
  void progressLinesOnAPipeAndARedrawnLineOnATerminal() {
    AtomicLong clock = new AtomicLong();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Progress pipe = new Progress(err, "convert", 100L << 20, false, clock::get);
    for (int i = 0; i < 10; i++) {
      clock.addAndGet(1_000_000_000L);
      pipe.advance(10L << 20);
    }
    pipe.done();
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(3, text.lines().count(), text); // at 5 s, at 10 s, and the last line
    assertTrue(text.contains("convert: 50.0 MiB of 100.0 MiB (50%), 10.0 MiB/s, 5s left"), text);
    assertTrue(text.contains("done in 10.0s"), text);

    bytes.reset();
    Progress tty = new Progress(err, "verify", 0, true, clock::get);
    clock.addAndGet(200_000_000L);
    tty.advance(1 << 20);
    tty.done();
    assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("\rverify: 1.0 MiB"), bytes.toString(StandardCharsets.UTF_8));
    assertEquals("", capture(p -> Progress.start(p, "x", 1, true).done()), "--quiet");
  }

  @Test
  void aTotalTheWorkPassesIsNoTotal() {
    // a convert's total is the array bytes; a small model's graph alone passes it
    AtomicLong clock = new AtomicLong();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), "convert", 812, false, clock::get);
    clock.addAndGet(6_000_000_000L);
    p.at(6963);
    p.done();
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.startsWith("convert: 6.8 KiB, "), text);
    assertTrue(!text.contains(" of ") && !text.contains("%"), text);
  }

  private static String capture(Consumer<PrintStream> f) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    f.accept(new PrintStream(b, true, StandardCharsets.UTF_8));
    return b.toString(StandardCharsets.UTF_8);
  }

  @Test
  void messagesInTheUsersWords() throws IOException {
    Path text = Files.writeString(tmp.resolve("notes.fb"), "hello world, this is text");
    MainTest.Result info = MainTest.run("info", text.toString());
    assertEquals(2, info.code());
    assertTrue(info.err().contains("model file at offset 0: not a SameDiff model"), "the offset of the bad bytes, not the"
        + " number they make: " + info.err());
    assertTrue(info.err().contains("not a SameDiff model"), info.err());

    Path sdz = tmp.resolve("m.sdz");
    assertEquals(0, MainTest.run("convert", example("m.fb").toString(), sdz.toString()).code());
    MainTest.Result meta = MainTest.run("meta", "get", sdz.toString(), "nokey");
    assertEquals(2, meta.code());
    assertTrue(meta.err().contains("no metadata key 'nokey'"), meta.err());

    Files.write(tmp.resolve("short.bin"), new byte[100]);
    MainTest.Result cp = MainTest.run("cp", tmp.resolve("short.bin").toString(), tmp.resolve("m.fb") + ":/params/layer0/W");
    assertEquals(2, cp.code());
    assertTrue(cp.err().contains("nothing was written") && !cp.err().contains("still pending")
        && !cp.err().contains("samediff:"), cp.err());

    MainTest.Result convert = MainTest.run("convert", tmp.resolve("m.fb").toString(), tmp.resolve("nodir/x.sdz").toString());
    assertEquals(2, convert.code());
    assertFalse(convert.err().contains("modelfs-lock"), convert.err());

    // the API: a file that is no model is an IOException, never an unchecked one
    assertThrows(ModelFormatException.class, () -> ModelFileSystems.open(Path.of("pom.xml")));
    assertThrows(IOException.class, () -> ModelFileSystems.open(tmp));
  }
}
