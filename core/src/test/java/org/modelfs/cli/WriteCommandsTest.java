package org.modelfs.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.Sidecars;

/**
 * The writing commands {@code cp}, {@code rm}, {@code meta}: results checked through a fresh
 * mount, failed commits leave the model file byte-identical, exit codes.
 */
class WriteCommandsTest {
  @TempDir Path tmp;

  private Path sdnb(String name) throws IOException {
    Path out = tmp.resolve(name);
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      ModelFiles.write(m.newest(), out, WriteOptions.of(ModelFormat.SDNB));
    }
    return out;
  }

  private static byte[] read(Path model, String path) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.readAllBytes(fs.getPath(path));
    }
  }

  private static SamediffFileAttributes attributes(Path model, String path) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.readAttributes(fs.getPath(path), SamediffFileAttributes.class);
    }
  }

  private static boolean exists(Path model, String path) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.exists(fs.getPath(path));
    }
  }

  /** Every file below {@code dir} of the model with its bytes. */
  private static Map<String, byte[]> files(Path model, String dir) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
        Stream<Path> s = Files.walk(fs.getPath(dir))) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        out.put(p.toString(), Files.readAllBytes(p));
      }
    }
    return out;
  }

  private static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 7 + 3);
    }
    return b;
  }

  private static MainTest.Result ok(String... args) {
    MainTest.Result r = MainTest.run(args);
    assertEquals(0, r.code(), String.join(" ", args) + " → " + r.err());
    return r;
  }

  @Test
  void cpToDiskWritesWhatCatWrites() throws Exception {
    Path model = sdnb("m.sdnb");
    Path w = tmp.resolve("w.bin");
    ok("cp", model + ":/params/layer0/W", w.toString());
    ByteArrayOutputStream cat = new ByteArrayOutputStream();
    assertEquals(0, Main.run(new String[] {"cat", model.toString(), "/params/layer0/W"},
        new PrintStream(cat), new PrintStream(new ByteArrayOutputStream())));
    assertArrayEquals(cat.toByteArray(), Files.readAllBytes(w));
    assertEquals(128, Files.size(w));
    // a relative path inside, from an fb model, into a directory
    Path dir = Files.createDirectory(tmp.resolve("out"));
    ok("cp", Fixtures.get("mlp_adam.fb") + ":params/layer0/W", dir.toString());
    assertArrayEquals(cat.toByteArray(), Files.readAllBytes(dir.resolve("W")));
  }

  @Test
  void cpFromDiskReplacesOneParameter() throws Exception {
    Path model = sdnb("m.sdnb");
    Map<String, byte[]> before = files(model, "/params");
    Path w = Files.write(tmp.resolve("w.bin"), pattern(128));
    ok("cp", w.toString(), model + ":params/layer0/W");
    assertArrayEquals(pattern(128), read(model, "/params/layer0/W"));
    SamediffFileAttributes a = attributes(model, "/params/layer0/W");
    assertEquals("FLOAT", a.dtype());
    assertArrayEquals(new long[] {4, 8}, a.shape());
    assertEquals("VARIABLE", a.kind());
    Map<String, byte[]> after = files(model, "/params");
    assertEquals(before.keySet(), after.keySet());
    for (String p : before.keySet()) {
      if (!p.equals("/params/layer0/W")) {
        assertArrayEquals(before.get(p), after.get(p), p);
      }
    }
    assertEquals(List.of(), Sidecars.journals(model), "no journal left behind");
  }

  @Test
  void cpCreatesANewParameterWithItsAttributes() throws Exception {
    Path model = sdnb("m.sdnb");
    Path bin = Files.write(tmp.resolve("new.bin"), pattern(24));
    ok("cp", bin.toString(), model + ":/params/extra/bias", "--dtype", "FLOAT", "--shape", "2,3");
    assertArrayEquals(pattern(24), read(model, "/params/extra/bias"));
    SamediffFileAttributes a = attributes(model, "/params/extra/bias");
    assertEquals("FLOAT", a.dtype());
    assertArrayEquals(new long[] {2, 3}, a.shape());
    assertEquals("c", a.order());
    // the same bytes as a 3x2 f-order INT array
    ok("cp", bin.toString(), model + ":/params/extra/ints", "--dtype", "INT", "--shape", "3,2", "--order", "f");
    SamediffFileAttributes i = attributes(model, "/params/extra/ints");
    assertEquals("INT", i.dtype());
    assertArrayEquals(new long[] {3, 2}, i.shape());
    assertEquals("f", i.order());
  }

  @Test
  void cpOfTheWrongSizeFailsAndLeavesTheModelAsItWas() throws Exception {
    Path model = sdnb("m.sdnb");
    byte[] original = Files.readAllBytes(model);
    Path bin = Files.write(tmp.resolve("short.bin"), pattern(100));
    MainTest.Result r = MainTest.run("cp", bin.toString(), model + ":/params/layer0/W");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("layer0/W") && r.err().contains("needs 128"), r.err());
    assertArrayEquals(original, Files.readAllBytes(model));
    // a new parameter whose shape does not fit the bytes
    r = MainTest.run("cp", bin.toString(), model + ":/params/extra", "--shape", "2,3");
    assertEquals(2, r.code(), r.err());
    assertArrayEquals(original, Files.readAllBytes(model));
    // the writer lock was released: the next command writes
    ok("cp", Files.write(bin, pattern(128)).toString(), model + ":/params/layer0/W");
    assertArrayEquals(pattern(128), read(model, "/params/layer0/W"));
  }

  @Test
  void cpBetweenTwoModelsKeepsTheAttributes() throws Exception {
    Path a = sdnb("a.sdnb");
    Path b = sdnb("b.sdnb");
    ok("cp", Files.write(tmp.resolve("w.bin"), pattern(128)).toString(), a + ":/params/layer0/W");
    byte[] bBefore = read(b, "/params/layer0/b");
    ok("cp", a + ":/params/layer0/W", b + ":/params/layer0/W");
    assertArrayEquals(pattern(128), read(b, "/params/layer0/W"));
    assertArrayEquals(bBefore, read(b, "/params/layer0/b"));
    ok("cp", a + ":/params/layer0/W", b + ":/params/copy/W");
    SamediffFileAttributes c = attributes(b, "/params/copy/W");
    assertEquals("FLOAT", c.dtype());
    assertArrayEquals(new long[] {4, 8}, c.shape());
    assertArrayEquals(pattern(128), read(b, "/params/copy/W"));
    // within one model, with a new shape
    ok("cp", b + ":/params/copy/W", b + ":/params/copy/W2", "--shape", "8,4");
    assertArrayEquals(new long[] {8, 4}, attributes(b, "/params/copy/W2").shape());
    assertArrayEquals(pattern(128), read(b, "/params/copy/W2"));
    assertArrayEquals(pattern(128), read(b, "/params/copy/W"));
    // onto itself (through the tag's own path): nothing to commit, the file is not rewritten
    byte[] bytes = Files.readAllBytes(b);
    FileTime time = Files.getLastModifiedTime(b);
    ok("cp", b + ":/params/copy/W", b + ":/tags/default/params/copy/W");
    assertArrayEquals(bytes, Files.readAllBytes(b));
    assertEquals(time, Files.getLastModifiedTime(b));
  }

  @Test
  void rmDeletesUpdaterStateAndMetadata() throws Exception {
    Path model = sdnb("m.sdnb");
    ok("meta", "set", model.toString(), "note", "temporary");
    assertTrue(exists(model, "/updater/layer0/W/M"));
    assertTrue(exists(model, "/metadata/note"));
    // half of a parameter's Adam state is refused (DL4J loads exactly the keys its updater keeps)
    byte[] before = Files.readAllBytes(model);
    MainTest.Result half = MainTest.run("rm", model.toString(), "/updater/layer0/W/M");
    assertEquals(2, half.code(), half.err());
    assertTrue(half.err().contains("holds [V], but the updater of training.json keeps [M, V]"), half.err());
    assertArrayEquals(before, Files.readAllBytes(model));
    ok("rm", model.toString(), "/updater/layer0/W/M", "/updater/layer0/W/V", "metadata/note");
    assertFalse(exists(model, "/updater/layer0/W/M"));
    assertFalse(exists(model, "/updater/layer0/W/V"));
    assertTrue(exists(model, "/updater/layer0/b/M"));
    assertFalse(exists(model, "/metadata/note"));
    assertTrue(exists(model, "/params/layer0/W"));
    // one missing path: nothing is deleted
    byte[] original = Files.readAllBytes(model);
    MainTest.Result r = MainTest.run("rm", model.toString(), "/updater/layer0/b/M", "/updater/layer0/b/V", "/params/nope");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("/params/nope"), r.err());
    assertArrayEquals(original, Files.readAllBytes(model));
  }

  @Test
  void metaSetGetRmRoundTrip() throws Exception {
    Path model = sdnb("m.sdnb");
    String m = model.toString();
    ok("meta", "set", m, "author", "Ada Lovelace");
    ok("meta", "set", m, "run/id", "42 – ü");
    assertEquals("Ada Lovelace\n", ok("meta", "get", m, "author").out());
    assertEquals("42 – ü\n", ok("meta", "get", m, "run/id").out());
    String all = ok("meta", "get", m).out();
    assertTrue(all.contains("author = Ada Lovelace\n"), all);
    assertTrue(all.contains("run/id = 42 – ü\n"), all);
    assertTrue(all.contains("nd4j.format.type = "), all);
    assertArrayEquals("Ada Lovelace".getBytes(StandardCharsets.UTF_8),
        read(model, "/metadata/author"));
    ok("meta", "set", m, "author", "Grace Hopper");
    assertEquals("Grace Hopper\n", ok("meta", "get", m, "author").out());
    ok("meta", "rm", m, "author");
    assertFalse(exists(model, "/metadata/author"));
    assertEquals(2, MainTest.run("meta", "get", m, "author").code());
    assertEquals(2, MainTest.run("meta", "rm", m, "author").code());
  }

  @Test
  void metaSetOnFbFailsAtCommitAndLeavesTheFile() throws Exception {
    Path fb = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("m.fb"));
    byte[] original = Files.readAllBytes(fb);
    MainTest.Result r = MainTest.run("meta", "set", fb.toString(), "author", "Ada");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("fb format cannot hold metadata"), r.err());
    assertArrayEquals(original, Files.readAllBytes(fb));
    assertFalse(exists(fb, "/metadata/author"));
    // the fb model still takes a change it can hold
    ok("cp", Files.write(tmp.resolve("w.bin"), pattern(128)).toString(), fb + ":/params/layer0/W");
    assertArrayEquals(pattern(128), read(fb, "/params/layer0/W"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "cp                                   | 2",
    "cp MODEL:/params/layer0/W            | 2",
    "cp MODEL:/params/layer0/W a b        | 2",
    "cp DISK DISK                         | 2",
    "cp MODEL:/params/layer0/W DISK --dtype FLOAT | 2",
    "cp DISK MODEL:/params/x --dtype NOPE | 2",
    "cp DISK MODEL:/params/x --shape 2,x  | 2",
    "cp DISK MODEL:/params/x --shape 2,-3 | 2",
    "cp DISK MODEL:/params/x --order z    | 2",
    "cp DISK MODEL:/params/x --wat 1      | 2",
    "cp MODEL:/params/nope DISK           | 2",
    "cp MODEL:/params DISK                | 2",
    "cp missing.sdnb:/params/x DISK       | 2",
    "cp DISK MODEL:/graph.json            | 2",
    "rm                                   | 2",
    "rm MODEL                             | 2",
    "rm MODEL /params                     | 2",
    "rm MODEL /updater/layer0             | 2",
    "meta                                 | 2",
    "meta get                             | 2",
    "meta wat MODEL                       | 2",
    "meta get MODEL a b                   | 2",
    "meta set MODEL key                   | 2",
    "meta rm MODEL                        | 2",
    "meta get MODEL nope                  | 2",
  })
  void exitCodes(String line, int code) throws Exception {
    Path model = sdnb("m.sdnb");
    byte[] original = Files.readAllBytes(model);
    Path disk = Files.write(tmp.resolve("disk.bin"), pattern(128));
    String[] args = line.trim().split("\\s+");
    for (int i = 0; i < args.length; i++) {
      args[i] = args[i].replace("MODEL", model.toString()).replace("DISK", disk.toString())
          .replace("missing.sdnb", tmp.resolve("missing.sdnb").toString());
    }
    MainTest.Result r = MainTest.run(args);
    assertEquals(code, r.code(), line + " → " + r.err());
    assertFalse(r.err().isBlank(), "a message on stderr");
    assertArrayEquals(original, Files.readAllBytes(model), "the model is unchanged");
  }
}
