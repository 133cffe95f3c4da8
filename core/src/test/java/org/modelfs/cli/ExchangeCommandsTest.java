package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.exchange.Npy;
import org.modelfs.exchange.Safetensors;
import org.modelfs.exchange.SafetensorsSpec;
import org.modelfs.model.DType;
import org.modelfs.testing.Fixtures;

/**
 * {@code export} and {@code import} through {@link Main#run}: round trips of every array of the
 * example model (fb and SDZ) and of the dtype fixture leave every array as it was (dtype, shape,
 * order, bytes); mismatches are refused with the full list and the model file untouched;
 * {@code --allow-new} adds; usage mistakes and refusals exit 2 naming the file.
 */
class ExchangeCommandsTest {
  @TempDir Path tmp;

  static MainTest.Result run(String... args) {
    return MainTest.run(args);
  }

  static void ok(String... args) {
    MainTest.Result r = run(args);
    assertEquals(0, r.code(), String.join(" ", args) + " → " + r.err());
  }

  private Path copy(String fixture, String name) throws IOException {
    Path src = Fixtures.get(fixture);
    Path out = tmp.resolve(name);
    if (name.endsWith(".fb")) {
      Files.copy(src, out);
    } else {
      ok("convert", src.toString(), out.toString());
    }
    return out;
  }

  /** Every array file of every tag: path → "DTYPE [shape] order" and the bytes in hex. */
  static Map<String, String> arrays(Path model) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
        Stream<Path> s = Files.walk(fs.getPath("/tags"))) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
        if (a.dtype() != null) {
          out.put(p.toString(), a.dtype() + " " + Arrays.toString(a.shape()) + " " + a.order() + " "
              + HexFormat.of().formatHex(Files.readAllBytes(p)));
        }
      }
    }
    return out;
  }

  /** The array files of the newest tag as the CLI names them: params/… and updater/…/…. */
  private static List<String> arrayPaths(Path model) throws IOException {
    List<String> out = new ArrayList<>();
    for (String p : arrays(model).keySet()) {
      out.add(p.substring(p.indexOf('/', "/tags/".length()) + 1));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"mlp_adam.fb", "mlp_adam.sdz", "dtypes.fb", "dtypes.sdz"})
  void npyRoundTripOfEveryArrayLeavesEveryArrayAsItWas(String name) throws IOException {
    Path model = copy(name.startsWith("mlp") ? "mlp_adam.fb" : "dtypes.fb", name);
    Map<String, String> before = arrays(model);
    List<String> paths = arrayPaths(model);
    assertTrue(paths.size() >= 14, paths.toString());
    int i = 0;
    for (String p : paths) {
      Path npy = tmp.resolve("a" + i++ + ".npy");
      ok("export", model + ":" + p, npy.toString(), "--raw-bfloat16", "--quiet");
      assertTrue(Files.size(npy) >= 128);
    }
    i = 0;
    for (String p : paths) {
      ok("import", tmp.resolve("a" + i++ + ".npy").toString(), model + ":" + p, "--raw-bfloat16", "--quiet");
    }
    assertEquals(before, arrays(model));
  }

  @ParameterizedTest
  @ValueSource(strings = {"mlp_adam.fb", "mlp_adam.sdz", "dtypes.fb", "dtypes.sdz"})
  void safetensorsRoundTripWithUpdaterLeavesEveryArrayAsItWas(String name) throws IOException {
    Path model = copy(name.startsWith("mlp") ? "mlp_adam.fb" : "dtypes.fb", name);
    Map<String, String> before = arrays(model);
    Path st = tmp.resolve("m.safetensors");
    ok("export", model.toString(), st.toString(), "--with-updater", "--quiet");
    Map<String, String> meta = new TreeMap<>();
    Map<String, SafetensorsSpec.Tensor> spec = SafetensorsSpec.read(Files.readAllBytes(st), meta);
    assertEquals(before.size(), spec.size(), spec.keySet().toString());
    if (name.startsWith("mlp")) {
      MainTest.Result r = run("import", st.toString(), model.toString(), "--allow-new");
      assertEquals(2, r.code(), r.err());
      assertTrue(r.err().contains("updater/layer0/W/M: F32 [4, 8] looks like updater state (export --with-updater"
          + " names it so); give --with-updater to import it as such"), r.err());
    }
    ok("import", st.toString(), model.toString(), "--with-updater", "--quiet");
    assertEquals(before, arrays(model));
  }

  @Test
  void safetensorsIsRowMajorAndImportKeepsTheParameterOrder() throws IOException {
    Path model = copy("dtypes.fb", "d.fb");
    Path st = tmp.resolve("d.safetensors");
    ok("export", model.toString(), st.toString());
    var spec = SafetensorsSpec.read(Files.readAllBytes(st), new TreeMap<>());
    // forder is FLOAT [3, 4] in f order: the file holds it transposed to row-major
    byte[] f;
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      f = Files.readAllBytes(fs.getPath("/params/forder"));
    }
    byte[] c = new byte[48];
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 4; k++) {
        System.arraycopy(f, (k * 3 + r) * 4, c, (r * 4 + k) * 4, 4);
      }
    }
    assertArrayEquals(c, spec.get("forder").data());
    assertEquals(List.of(3L, 4L), spec.get("forder").shape());
    assertEquals("BF16", spec.get("bf16").dtype());
    assertEquals(List.of(0L), spec.get("empty").shape()); // an ND4J empty array: no elements
    assertFalse(spec.containsKey("updater/forder/M"));
  }

  @Test
  void importReplacesValuesOfTheNamedParametersOnly() throws IOException {
    Path model = copy("mlp_adam.fb", "m.fb");
    Map<String, String> before = arrays(model);
    Path w = tmp.resolve("w.bin");
    ByteBuffer b = ByteBuffer.allocate(128).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 32; i++) {
      b.putFloat(i * 0.5f);
    }
    Files.write(w, b.array());
    Path st = tmp.resolve("one.safetensors");
    writeSafetensors(st, List.of(new Safetensors.Entry("layer0/W", DType.FLOAT, new long[] {4, 8}, 'c',
        () -> FileChannel.open(w))));
    ok("import", st.toString(), model.toString());
    Map<String, String> after = arrays(model);
    String key = "/tags/default/params/layer0/W";
    assertEquals("FLOAT [4, 8] c " + HexFormat.of().formatHex(b.array()), after.get(key));
    after.remove(key);
    before.remove(key);
    assertEquals(before, after); // the parameters the file lacks are left alone
  }

  private static void writeSafetensors(Path out, List<Safetensors.Entry> entries) throws IOException {
    try (FileChannel o = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      Safetensors.write(o, entries, Map.of(), out.toString(), x -> { });
    }
  }

  private Path floats(String name, int n) throws IOException {
    Path p = tmp.resolve(name);
    ByteBuffer b = ByteBuffer.allocate(n * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      b.putFloat(100 + i);
    }
    Files.write(p, b.array());
    return p;
  }

  @Test
  void mismatchesAndNewNamesAreRefusedWithTheFullListAndTheModelUntouched() throws IOException {
    Path model = copy("mlp_adam.fb", "m.fb");
    byte[] bytes = Files.readAllBytes(model);
    Path f32 = floats("f.bin", 32);
    Path f64 = floats("d.bin", 16);
    Path f3 = floats("g.bin", 3);
    Path st = tmp.resolve("bad.safetensors");
    writeSafetensors(st, List.of(
        new Safetensors.Entry("layer0/W", DType.FLOAT, new long[] {8, 4}, 'c', () -> FileChannel.open(f32)),
        new Safetensors.Entry("layer0/b", DType.DOUBLE, new long[] {1, 8}, 'c', () -> FileChannel.open(f64)),
        new Safetensors.Entry("layer1/W", DType.FLOAT, new long[] {8, 3}, 'c', () -> FileChannel.open(floats("h.bin", 24))),
        new Safetensors.Entry("brand/new", DType.FLOAT, new long[] {3}, 'c', () -> FileChannel.open(f3))));
    MainTest.Result r = run("import", st.toString(), model.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains(st + ": 3 tensor(s) do not fit tag default of " + model + "; nothing was imported"), r.err());
    assertTrue(r.err().contains("layer0/W: the file has F32 [8, 4] (FLOAT), the model FLOAT [4, 8]"), r.err());
    assertTrue(r.err().contains("layer0/b: the file has F64 [1, 8] (DOUBLE), the model FLOAT [1, 8]"), r.err());
    assertTrue(r.err().contains("brand/new: F32 [3] is not in " + model + " (--allow-new adds it)"), r.err());
    assertFalse(r.err().contains("layer1/W"), r.err());
    assertArrayEquals(bytes, Files.readAllBytes(model));
    try (Stream<Path> s = Files.list(tmp)) {
      assertFalse(s.anyMatch(p -> p.getFileName().toString().startsWith(".m.fb")), "no journal or lock left");
    }
  }

  @Test
  void allowNewAddsTheNamesTheModelLacks() throws IOException {
    Path model = copy("mlp_adam.fb", "m.sdz");
    Map<String, String> before = arrays(model);
    Path f3 = floats("g.bin", 3);
    Path st = tmp.resolve("new.safetensors");
    writeSafetensors(st, List.of(
        new Safetensors.Entry("brand/new", DType.FLOAT, new long[] {3}, 'c', () -> FileChannel.open(f3)),
        new Safetensors.Entry("layer0/W/x", DType.FLOAT, new long[] {1, 3}, 'c', () -> FileChannel.open(f3)),
        new Safetensors.Entry("layer1/W", DType.FLOAT, new long[] {8, 3}, 'c', () -> FileChannel.open(floats("h.bin", 24)))));
    assertEquals(2, run("import", st.toString(), model.toString()).code());
    assertEquals(before, arrays(model));
    ok("import", st.toString(), model.toString(), "--allow-new");
    Map<String, String> after = arrays(model);
    String three = HexFormat.of().formatHex(Files.readAllBytes(f3));
    assertEquals("FLOAT [3] c " + three, after.get("/tags/default/params/brand/new"));
    assertEquals("FLOAT [1, 3] c " + three, after.get("/tags/default/params/layer0%2FW%2Fx"));
    assertEquals("FLOAT [8, 3] c " + HexFormat.of().formatHex(Files.readAllBytes(tmp.resolve("h.bin"))),
        after.get("/tags/default/params/layer1/W"));
    assertEquals(before.size() + 2, after.size());
  }

  @Test
  void npyImportTakesDtypeShapeAndOrderFromTheHeader() throws IOException {
    Path model = copy("mlp_adam.fb", "m.fb");
    Path d = tmp.resolve("d.bin");
    ByteBuffer b = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 6; i++) {
      b.putDouble(i + 0.25);
    }
    Files.write(d, b.array());
    Path npy = tmp.resolve("x.npy");
    try (FileChannel in = FileChannel.open(d);
        FileChannel out = FileChannel.open(npy, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      Npy.write(out, DType.DOUBLE, new long[] {2, 3}, 'f', false, in, 0, 48, "x", x -> { });
    }
    ok("import", npy.toString(), model + ":extra/x");                 // a new parameter by name
    ok("import", npy.toString(), model + ":/params/const/scale", "--change-dtype", "--change-shape"); // a FLOAT scalar replaced by a DOUBLE [2, 3]: asked for
    Map<String, String> after = arrays(model);
    String hex = HexFormat.of().formatHex(b.array());
    assertEquals("DOUBLE [2, 3] f " + hex, after.get("/tags/default/params/extra/x"));
    assertEquals("DOUBLE [2, 3] f " + hex, after.get("/tags/default/params/const/scale"));
  }

  @Test
  void tagsOfAMultiTagModel() throws IOException {
    Path model = copy("mlp_adam.fb", "m.sdz");
    ok("tag", "add", model.toString(), "v2");
    Path f = floats("w.bin", 32);
    Path st = tmp.resolve("w.safetensors");
    writeSafetensors(st, List.of(new Safetensors.Entry("layer0/W", DType.FLOAT, new long[] {4, 8}, 'c', () -> FileChannel.open(f))));
    ok("import", st.toString(), model + "#default");
    Map<String, String> a = arrays(model);
    assertTrue(a.get("/tags/default/params/layer0/W").endsWith(HexFormat.of().formatHex(Files.readAllBytes(f))));
    assertNotEquals(a.get("/tags/default/params/layer0/W"), a.get("/tags/v2/params/layer0/W"));
    Path npy = tmp.resolve("w.npy");
    ok("export", model + "#DEFAULT:params/layer0/W", npy.toString()); // tags match in any case
    ok("import", npy.toString(), model + "#v2:layer0/W");
    a = arrays(model);
    assertEquals(a.get("/tags/default/params/layer0/W"), a.get("/tags/v2/params/layer0/W"));
    ok("export", model + ":/tags/default/params/layer0/b", tmp.resolve("b.npy").toString());
    MainTest.Result r = run("export", model + "#v3", tmp.resolve("x.safetensors").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("no tag 'v3' (its tags: default, v2)"), r.err());
  }

  @Test
  void utf8IsRefusedForNpyAndSkippedWithAWarningForSafetensors() throws IOException {
    Path model = copy("mlp_adam.fb", "m.sdz");
    try (FileSystem fs = ModelFileSystems.open(model)) {
      ByteBuffer b = ByteBuffer.allocate(19).order(ByteOrder.LITTLE_ENDIAN).putLong(0).putLong(3).put("abc".getBytes());
      try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/params/names"),
          Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          ModelFileSystems.attribute("dtype", "UTF8"), ModelFileSystems.attribute("shape", new long[] {1}),
          ModelFileSystems.attribute("kind", "CONSTANT"))) {
        ch.write(b.flip());
      }
    }
    MainTest.Result r = run("export", model + ":names", tmp.resolve("n.npy").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains(model + ":/params/names: a UTF8 (string) array has no NumPy equivalent without pickling"), r.err());
    assertFalse(Files.exists(tmp.resolve("n.npy")));
    r = run("export", model.toString(), tmp.resolve("m.safetensors").toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("skipped names (UTF8 [1]): safetensors has no UTF8 dtype"), r.err());
    ok("import", tmp.resolve("m.safetensors").toString(), model.toString()); // names is left alone
  }

  @Test
  void refusalsAndUsageMistakesExitTwoNamingTheFile() throws IOException {
    Path model = copy("dtypes.fb", "d.fb");
    String m = model.toString();
    Path out = tmp.resolve("keep.npy");
    Files.writeString(out, "keep");
    Object[][] cases = {
      {new String[] {"export", m, tmp.resolve("x.txt").toString()}, "OUT must end in .npy"},
      {new String[] {"export", m, out.toString()}, "a .npy file holds one array: give MODEL[#TAG]:PATH"},
      {new String[] {"export", m + ":f32", tmp.resolve("x.safetensors").toString()}, "holds a whole tag"},
      {new String[] {"export", m + ":f32", out.toString(), "--with-updater"}, "--with-updater applies to .safetensors"},
      {new String[] {"export", m + ":nothing", out.toString()}, m + ":/params/nothing: no such array"},
      {new String[] {"export", m + ":graph.json", out.toString()}, m + ":/graph.json: is not an array"},
      {new String[] {"export", m + ":params/my", out.toString()}, "is a directory"},
      {new String[] {"export", m + ":bf16", out.toString()}, m + ":/params/bf16: BFLOAT16 has no NumPy dtype"},
      {new String[] {"export", "nope.fb:f32", out.toString()}, "nope.fb:f32: no model file"},
      {new String[] {"export", m + ":f32"}, "expected 2 argument(s)"},
      {new String[] {"export", m + ":f32", out.toString(), "--bogus"}, "unknown option --bogus"},
      {new String[] {"import", out.toString(), m + ":f32"}, "keep.npy: not a NumPy .npy file"},
      {new String[] {"import", tmp.resolve("missing.npy").toString(), m + ":f32"}, "missing.npy"},
    };
    for (Object[] c : cases) {
      MainTest.Result r = run((String[]) c[0]);
      assertEquals(2, r.code(), String.join(" ", (String[]) c[0]) + " → " + r.err());
      assertTrue(r.err().contains((String) c[1]), String.join(" ", (String[]) c[0]) + " → " + r.err());
    }
    assertEquals("keep", Files.readString(out), "a refused export leaves OUT as it was");
    Path npy = tmp.resolve("f.npy");
    ok("export", m + ":f32", npy.toString());
    Object[][] imports = {
      {new String[] {"import", npy.toString(), m}, "a .npy file holds one array"},
      {new String[] {"import", npy.toString(), m + ":f32", "--allow-new"}, "--allow-new and --with-updater apply to .safetensors"},
      {new String[] {"import", npy.toString(), m + ":/tags/default/metadata/x"}, "is not an array file"},
      {new String[] {"import", npy.toString(), m + ":params/my"}, "is a directory"},
      {new String[] {"import", npy.toString(), m + "#v9:f32"}, "no tag 'v9'"},
    };
    byte[] bytes = Files.readAllBytes(model);
    for (Object[] c : imports) {
      MainTest.Result r = run((String[]) c[0]);
      assertEquals(2, r.code(), String.join(" ", (String[]) c[0]) + " → " + r.err());
      assertTrue(r.err().contains((String) c[1]), String.join(" ", (String[]) c[0]) + " → " + r.err());
    }
    assertArrayEquals(bytes, Files.readAllBytes(model));
    try (Stream<Path> s = Files.list(tmp)) {
      assertFalse(s.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no partial output left");
    }
  }

  @Test
  void quietPrintsNothingAndHelpHasAnExample() throws IOException {
    Path model = copy("mlp_adam.fb", "m.fb");
    MainTest.Result r = run("export", model.toString(), tmp.resolve("m.safetensors").toString(), "--quiet");
    assertEquals("", r.err());
    assertEquals("", r.out());
    for (String c : new String[] {"export", "import"}) {
      MainTest.Result h = run("help", c);
      assertEquals(0, h.code());
      assertTrue(h.out().contains("example"), h.out());
    }
    assertTrue(run("help").out().contains("export"));
  }

  @Test
  void exportReplacesAnExistingOutputWhole() throws IOException {
    Path model = copy("mlp_adam.fb", "m.fb");
    Path out = tmp.resolve("w.npy");
    Files.writeString(out, "old content that is longer than nothing");
    ok("export", model + ":layer0/W", out.toString());
    try (FileChannel in = FileChannel.open(out)) {
      Npy.Header h = Npy.readHeader(in, "w.npy", false);
      assertEquals(DType.FLOAT, h.dtype());
    }
    Files.move(out, tmp.resolve("w2.npy"), StandardCopyOption.REPLACE_EXISTING);
  }
}
