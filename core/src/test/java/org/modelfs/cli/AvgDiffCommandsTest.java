package org.modelfs.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.model.DType;
import org.modelfs.model.Float16;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.Sidecars;

/**
 * {@code avg} and {@code diff} through {@link Main#run}: the averaged tag checked against means
 * computed here, every refusal leaving the model byte-identical, diff lines and numbers, exit
 * codes.
 */
class AvgDiffCommandsTest {
  /** A training configuration DL4J reads (updater state is loaded only with one). */
  private static final String ADAM = "{\"updater\":{\"@class\":\"org.nd4j.linalg.learning.config.Adam\",\"learningRate\":0.001}}";

  private static final List<String> TAGS = List.of("a", "b", "c");

  @TempDir Path tmp;

  // ---- building models through the file system ------------------------------------------------

  private static ByteBuffer le(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Writes {@code bytes} as a new array file of the given dtype and shape. */
  private static void write(FileSystem fs, String path, String dtype, long[] shape, ByteBuffer bytes)
      throws IOException {
    try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath(path), Set.of(StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING), ModelFileSystems.attribute("dtype", dtype),
        ModelFileSystems.attribute("shape", shape))) {
      bytes.rewind();
      while (bytes.hasRemaining()) {
        ch.write(bytes);
      }
    }
  }

  /**
   * An SDZ with tags a, b, c, each holding random FLOAT {@code layer0/W} [3,4], DOUBLE
   * {@code layer0/b} [4], HALF {@code h} [5], BFLOAT16 {@code bf} [6], FLOAT {@code x%y} [2], the
   * INT {@code idx} [3] equal in every tag, Adam-like state {@code layer0/W/M}, and metadata
   * {@code note} = the tag's name.
   */
  private Path threeTags(String name) throws IOException {
    Path model = tmp.resolve(name);
    Random r = new Random(42);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
      for (String tag : TAGS) {
        if (tag.equals("a")) {
          Files.move(fs.getPath("/tags/default"), fs.getPath("/tags/a"));
        } else {
          Files.createDirectory(fs.getPath("/tags", tag));
        }
        String t = "/tags/" + tag + "/";
        ByteBuffer w = le(48);
        for (int i = 0; i < 12; i++) {
          w.putFloat((float) r.nextGaussian());
        }
        write(fs, t + "params/layer0/W", "FLOAT", new long[] {3, 4}, w);
        ByteBuffer b = le(32);
        for (int i = 0; i < 4; i++) {
          b.putDouble(r.nextGaussian());
        }
        write(fs, t + "params/layer0/b", "DOUBLE", new long[] {4}, b);
        ByteBuffer h = le(10);
        for (int i = 0; i < 5; i++) {
          h.putShort(Float16.toHalf(r.nextGaussian() * 100));
        }
        write(fs, t + "params/h", "HALF", new long[] {5}, h);
        ByteBuffer bf = le(12);
        for (int i = 0; i < 6; i++) {
          bf.putShort(Float16.toBfloat16(r.nextGaussian()));
        }
        write(fs, t + "params/bf", "BFLOAT16", new long[] {6}, bf);
        write(fs, t + "params/x%25y", "FLOAT", new long[] {2}, le(8).putFloat(r.nextFloat()).putFloat(7f));
        write(fs, t + "params/idx", "INT", new long[] {3}, le(12).putInt(3).putInt(1).putInt(4));
        write(fs, t + "updater/layer0/W/M", "FLOAT", new long[] {3, 4}, le(48));
        write(fs, t + "updater/layer0/W/V", "FLOAT", new long[] {3, 4}, le(48));
        Files.writeString(fs.getPath(t + "training.json"), ADAM); // DL4J loads updater state only with one
        Files.writeString(fs.getPath(t + "metadata/note"), tag);
      }
    }
    return model;
  }

  private static byte[] read(Path model, String path) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.readAllBytes(fs.getPath(path));
    }
  }

  private static ByteBuffer readLe(Path model, String path) throws IOException {
    return ByteBuffer.wrap(read(model, path)).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static MainTest.Result ok(String... args) {
    MainTest.Result r = MainTest.run(args);
    assertEquals(0, r.code(), String.join(" ", args) + " → " + r.err());
    return r;
  }

  // ---- avg ------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"m.sdz", "m.zip"})
  void avgOfThreeTagsIsTheElementwiseMean(String file) throws Exception {
    Path model = threeTags(file);
    String m = model.toString();
    MainTest.Result r = ok("avg", m, "--tags", "a, b,C", "--into", "mean");
    assertTrue(r.err().contains("updater state is not averaged: tag mean has none"), r.err());
    assertTrue(r.err().contains("averaged 5 floating-point parameter(s)"), r.err());
    assertEquals("a\nb\nc\nmean\n", ok("tag", "list", m).out());

    ByteBuffer[] w = new ByteBuffer[3];
    ByteBuffer[] b = new ByteBuffer[3];
    ByteBuffer[] h = new ByteBuffer[3];
    ByteBuffer[] bf = new ByteBuffer[3];
    for (int i = 0; i < 3; i++) {
      String t = "/tags/" + TAGS.get(i) + "/params/";
      w[i] = readLe(model, t + "layer0/W");
      b[i] = readLe(model, t + "layer0/b");
      h[i] = readLe(model, t + "h");
      bf[i] = readLe(model, t + "bf");
    }
    ByteBuffer mw = readLe(model, "/params/layer0/W");
    for (int i = 0; i < 12; i++) {
      float expected = (float) (((double) w[0].getFloat(4 * i) + w[1].getFloat(4 * i) + w[2].getFloat(4 * i)) / 3);
      assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(mw.getFloat(4 * i)), "W[" + i + "]");
    }
    ByteBuffer mb = readLe(model, "/params/layer0/b");
    double[][] bs = new double[3][4];
    double[] means = new double[4];
    for (int i = 0; i < 4; i++) {
      for (int k = 0; k < 3; k++) {
        bs[k][i] = b[k].getDouble(8 * i);
      }
      means[i] = mb.getDouble(8 * i);
    }
    // DOUBLE: within 2 ulps of the exact mean (a naive double sum is not, where values cancel)
    ArrayMeanTest.assertWithinTwoUlps(DType.DOUBLE, bs, means, "layer0/b");
    ByteBuffer mh = readLe(model, "/params/h");
    for (int i = 0; i < 5; i++) {
      double sum = (double) Float16.halfToFloat(h[0].getShort(2 * i)) + Float16.halfToFloat(h[1].getShort(2 * i))
          + Float16.halfToFloat(h[2].getShort(2 * i));
      assertEquals(Float16.toHalf(sum / 3), mh.getShort(2 * i), "h[" + i + "]");
    }
    ByteBuffer mbf = readLe(model, "/params/bf");
    for (int i = 0; i < 6; i++) {
      double sum = (double) Float16.bfloat16ToFloat(bf[0].getShort(2 * i))
          + Float16.bfloat16ToFloat(bf[1].getShort(2 * i)) + Float16.bfloat16ToFloat(bf[2].getShort(2 * i));
      assertEquals(Float16.toBfloat16(sum / 3), mbf.getShort(2 * i), "bf[" + i + "]");
    }
    // an element equal in every tag keeps its bits; the INT array is the last tag's
    assertEquals(7f, readLe(model, "/params/x%25y").getFloat(4));
    assertArrayEquals(read(model, "/tags/c/params/idx"), read(model, "/params/idx"));
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      SamediffFileAttributes a = Files.readAttributes(fs.getPath("/params/layer0/W"), SamediffFileAttributes.class);
      assertEquals("FLOAT", a.dtype());
      assertArrayEquals(new long[] {3, 4}, a.shape());
      assertEquals("VARIABLE", a.kind());
      assertEquals("HALF", Files.getAttribute(fs.getPath("/params/h"), "samediff:dtype"));
      assertEquals("INT", Files.getAttribute(fs.getPath("/params/idx"), "samediff:dtype"));
      try (Stream<Path> s = Files.list(fs.getPath("/tags/mean/updater"))) {
        assertEquals(0, s.count(), "no updater state");
      }
      assertEquals("c", Files.readString(fs.getPath("/metadata/note")), "the last tag's metadata");
    }
    // the other tags are untouched
    assertEquals("0 changed, 0 added, 0 removed, 8 identical\n", ok("diff", m + "#a", threeTags("copy-" + file) + "#a").out());
  }

  @Test
  void avgTakesTheStructureOfTheLastTag() throws Exception {
    Path model = threeTags("m.sdz");
    ok("avg", model.toString(), "--tags", "c,a", "--into", "ca");
    assertArrayEquals("a".getBytes(), read(model, "/tags/ca/metadata/note"));
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertArrayEquals(Files.readAllBytes(fs.getPath("/tags/a/graph")), Files.readAllBytes(fs.getPath("/tags/ca/graph")));
    }
  }

  @Test
  void avgRefusesAndLeavesTheModelAsItWas() throws Exception {
    Path model = threeTags("m.sdz");
    String m = model.toString();
    byte[] original = Files.readAllBytes(model);
    refused(model, original, 2, "no tag 'nope'", "avg", m, "--tags", "a,nope", "--into", "t");
    refused(model, original, 2, "at least two tags", "avg", m, "--tags", "a", "--into", "t");
    refused(model, original, 2, "empty tag name", "avg", m, "--tags", "a,,b", "--into", "t");
    refused(model, original, 2, "--tags and --into are required", "avg", m, "--tags", "a,b");
    refused(model, original, 2, "tag 'b' exists", "avg", m, "--tags", "a,b", "--into", "B");
    refused(model, original, 2, "a tag name is", "avg", m, "--tags", "a,b", "--into", "-bad");
    refused(model, original, 2, "'..' is not a tag name", "avg", m, "--tags", "a,..", "--into", "t");
    refused(model, original, 2, "'..' is not a tag name", "avg", m, "--tags", "a,b", "--into", "..");
    refused(model, original, 2, "'x/y' is not a tag name", "avg", m, "--tags", "a,b", "--into", "x/y");
  }

  @Test
  void avgRefusesDifferingIntArraysShapesAndNames() throws Exception {
    Path model = threeTags("m.sdz");
    try (FileSystem fs = ModelFileSystems.open(model)) {
      write(fs, "/tags/b/params/idx", "INT", new long[] {3}, le(12).putInt(3).putInt(1).putInt(5));
      write(fs, "/tags/c/params/layer0/W", "FLOAT", new long[] {4, 3}, le(48));
      write(fs, "/tags/c/updater/layer0/W/M", "FLOAT", new long[] {4, 3}, le(48)); // its state follows its shape
      write(fs, "/tags/c/updater/layer0/W/V", "FLOAT", new long[] {4, 3}, le(48));
      write(fs, "/tags/c/params/only/in/c", "FLOAT", new long[] {1}, le(4));
    }
    String m = model.toString();
    byte[] original = Files.readAllBytes(model);
    MainTest.Result r = refused(model, original, 2, "params/layer0/W is FLOAT[3,4] c in tag a but FLOAT[4,3] c in tag c",
        "avg", m, "--tags", "a,b,c", "--into", "t");
    assertTrue(r.err().contains("params/only/in/c is in tag c but not in tag a"), r.err());
    refused(model, original, 2, "params/only/in/c is in tag c but not in tag b",
        "avg", m, "--tags", "b,c", "--into", "t");
    r = refused(model, original, 2, "params/idx (INT[3]) differs between tags a and b",
        "avg", m, "--tags", "a,b", "--into", "t");
    assertTrue(r.err().contains(m) && r.err().contains("must be equal in every tag"), r.err());
  }

  @Test
  void singleTagFormatsAreRefusedBeforeAveraging() throws Exception {
    Path fb = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("m.fb"));
    byte[] original = Files.readAllBytes(fb);
    refused(fb, original, 2, "the fb format holds one tag; convert to sdz, zip-tags or container first",
        "avg", fb.toString(), "--tags", "default,default", "--into", "mean");
    assertEquals(List.of(), Sidecars.journals(fb), "no journal left behind");
    // a tag listed twice counts twice; in an SDZ that is a copy of its arrays
    Path sdz = tmp.resolve("m.sdz");
    ok("convert", fb.toString(), sdz.toString());
    ok("avg", sdz.toString(), "--tags", "default,default", "--into", "same");
    List<String> lines = ok("diff", sdz + "#default", sdz + "#same").out().lines().toList();
    assertTrue(lines.subList(0, lines.size() - 1).stream().allMatch(l -> l.startsWith("- updater/")), lines.toString());
    assertTrue(lines.get(lines.size() - 1).startsWith("0 changed, 0 added, "), lines.toString());
  }

  private static MainTest.Result refused(Path model, byte[] original, int code, String message, String... args)
      throws IOException {
    MainTest.Result r = MainTest.run(args);
    assertEquals(code, r.code(), String.join(" ", args) + " → " + r.err());
    assertTrue(r.err().contains(message), r.err());
    assertArrayEquals(original, Files.readAllBytes(model), "the model is unchanged");
    return r;
  }

  // ---- diff -----------------------------------------------------------------------------------

  /**
   * Tag v1, then v2 with: W changed (max |Δ| 0.5), b the same, idx with 2 of 4 elements changed,
   * dt FLOAT → DOUBLE, gone removed, extra added; updater W/M changed (0.25), b/M removed, W/V
   * added.
   */
  private Path twoVersions() throws IOException {
    // zip-tags: its tags' updater state need not be what an updater keeps (DL4J loads no zip-tags)
    Path model = tmp.resolve("d.zip");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
      Files.move(fs.getPath("/tags/default"), fs.getPath("/tags/v1"));
      write(fs, "/tags/v1/params/layer0/W", "FLOAT", new long[] {2, 3},
          le(24).putFloat(0).putFloat(1).putFloat(2).putFloat(3).putFloat(4).putFloat(5));
      write(fs, "/tags/v1/params/layer0/b", "FLOAT", new long[] {3}, le(12).putFloat(1).putFloat(2).putFloat(3));
      write(fs, "/tags/v1/params/idx", "INT", new long[] {4}, le(16).putInt(1).putInt(2).putInt(3).putInt(4));
      write(fs, "/tags/v1/params/dt", "FLOAT", new long[] {2, 3}, le(24));
      write(fs, "/tags/v1/params/gone", "FLOAT", new long[] {2}, le(8));
      write(fs, "/tags/v1/updater/layer0/W/M", "FLOAT", new long[] {2, 3}, le(24));
      write(fs, "/tags/v1/updater/layer0/b/M", "FLOAT", new long[] {3}, le(12));
      Files.writeString(fs.getPath("/tags/v1/training.json"), ADAM);
      Files.createDirectory(fs.getPath("/tags/v2"));
      write(fs, "/tags/v2/params/layer0/W", "FLOAT", new long[] {2, 3},
          le(24).putFloat(0).putFloat(1.25f).putFloat(2).putFloat(3).putFloat(4.5f).putFloat(5));
      write(fs, "/tags/v2/params/layer0/b", "FLOAT", new long[] {3}, le(12).putFloat(1).putFloat(2).putFloat(3));
      write(fs, "/tags/v2/params/idx", "INT", new long[] {4}, le(16).putInt(1).putInt(7).putInt(3).putInt(9));
      write(fs, "/tags/v2/params/dt", "DOUBLE", new long[] {2, 3}, le(48));
      write(fs, "/tags/v2/params/extra", "DOUBLE", new long[] {2}, le(16));
      write(fs, "/tags/v2/updater/layer0/W/M", "FLOAT", new long[] {2, 3}, le(24).putFloat(0).putFloat(-0.25f));
      write(fs, "/tags/v2/updater/layer0/W/V", "FLOAT", new long[] {2, 3}, le(24));
      Files.writeString(fs.getPath("/tags/v2/training.json"), ADAM);
    }
    return model;
  }

  @Test
  void diffListsAddedRemovedAndChangedArrays() throws Exception {
    Path model = twoVersions();
    String m = model.toString();
    String expected = """
        ~ params/layer0/W  FLOAT[2,3]  max|Δ| 0.5
        ~ params/idx  INT[4]  2 of 4 elements differ
        ~ params/dt  FLOAT[2,3] -> DOUBLE[2,3]
        - params/gone  FLOAT[2]
        + params/extra  DOUBLE[2]
        ~ updater/layer0/W/M  FLOAT[2,3]  max|Δ| 0.25
        - updater/layer0/b/M  FLOAT[3]
        + updater/layer0/W/V  FLOAT[2,3]
        4 changed, 2 added, 2 removed, 1 identical
        """;
    assertEquals(expected, ok("diff", m + "#v1", m + "#v2").out());
    assertEquals(expected, ok("diff", m + "#V1", m).out(), "no '#': the newest tag");
    MainTest.Result r = MainTest.run("diff", m + "#v1", m + "#v2", "--exit-code");
    assertEquals(1, r.code(), r.err());
    assertEquals(expected, r.out());
    // the other way round
    String back = ok("diff", m + "#v2", m + "#v1").out();
    assertTrue(back.contains("~ params/dt  DOUBLE[2,3] -> FLOAT[2,3]\n"), back);
    assertTrue(back.contains("+ params/gone  FLOAT[2]\n- params/extra  DOUBLE[2]\n") || back.contains("- params/extra"), back);
    assertTrue(back.endsWith("4 changed, 2 added, 2 removed, 1 identical\n"), back);
    // two files
    Path copy = Files.copy(model, tmp.resolve("copy.zip"));
    assertEquals(expected, ok("diff", m + "#v1", copy.toString()).out());
  }

  @Test
  void identicalModelsPrintOnlyTheSummary() throws Exception {
    Path model = threeTags("m.sdz");
    Path copy = Files.copy(model, tmp.resolve("same.sdz"));
    assertEquals("0 changed, 0 added, 0 removed, 8 identical\n", ok("diff", model.toString(), copy.toString()).out());
    MainTest.Result r = MainTest.run("diff", model.toString(), copy.toString(), "--exit-code");
    assertEquals(0, r.code(), r.err());
    assertEquals("0 changed, 0 added, 0 removed, 8 identical\n", ok("diff", model + "#b", model + "#B").out());
    // a clone shares nothing on disk but holds the same bytes
    ok("tag", "add", model.toString(), "d", "--from", "b");
    assertEquals("0 changed, 0 added, 0 removed, 8 identical\n", ok("diff", model + "#b", model.toString()).out());
  }

  @Test
  void diffReportsTheLargestDifference() throws Exception {
    Path model = threeTags("m.sdz");
    String m = model.toString();
    String out = ok("diff", m + "#a", m + "#b").out();
    double maxW = 0;
    double maxH = 0;
    ByteBuffer wa = readLe(model, "/tags/a/params/layer0/W");
    ByteBuffer wb = readLe(model, "/tags/b/params/layer0/W");
    for (int i = 0; i < 12; i++) {
      maxW = Math.max(maxW, Math.abs((double) wa.getFloat(4 * i) - wb.getFloat(4 * i)));
    }
    ByteBuffer ha = readLe(model, "/tags/a/params/h");
    ByteBuffer hb = readLe(model, "/tags/b/params/h");
    for (int i = 0; i < 5; i++) {
      maxH = Math.max(maxH, Math.abs((double) Float16.halfToFloat(ha.getShort(2 * i)) - Float16.halfToFloat(hb.getShort(2 * i))));
    }
    assertTrue(out.contains("~ params/layer0/W  FLOAT[3,4]  max|Δ| " + DiffCommand.number(maxW) + "\n"), out);
    assertTrue(out.contains("~ params/h  HALF[5]  max|Δ| " + DiffCommand.number(maxH) + "\n"), out);
    double printed = Double.parseDouble(out.split("params/layer0/W  FLOAT\\[3,4]  max\\|Δ\\| ")[1].split("\n")[0]);
    assertEquals(maxW, printed, maxW * 1e-5);
    assertTrue(out.endsWith("5 changed, 0 added, 0 removed, 3 identical\n"), out);
  }

  @Test
  void diffErrors() throws Exception {
    Path model = twoVersions();
    String m = model.toString();
    MainTest.Result r = MainTest.run("diff", m + "#nope", m);
    assertEquals(2, r.code());
    assertTrue(r.err().contains("no tag 'nope'") && r.err().contains("v1, v2"), r.err());
    r = MainTest.run("diff", tmp.resolve("missing.sdz") + "#v1", m);
    assertEquals(2, r.code());
    assertTrue(r.err().contains("missing.sdz"), r.err());
    assertEquals(2, MainTest.run("diff", m).code());
    assertEquals(2, MainTest.run("diff", m, m, "--wat").code());
  }

  @Test
  void arraysLongerThanOneChunk() throws Exception {
    int n = 2 * Elements.CHUNK + 3; // two full chunks and a short one
    Path model = tmp.resolve("big.sdz");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
      for (int t = 0; t < 2; t++) {
        if (t == 1) {
          Files.createDirectory(fs.getPath("/tags/v2"));
        }
        ByteBuffer b = le(4 * n);
        for (int i = 0; i < n; i++) {
          b.putFloat(t == 1 && i == n - 2 ? i + 3f : i);
        }
        write(fs, (t == 0 ? "/tags/default" : "/tags/v2") + "/params/big", "FLOAT", new long[] {n}, b);
      }
    }
    String m = model.toString();
    assertEquals("~ params/big  FLOAT[" + n + "]  max|Δ| 3\n1 changed, 0 added, 0 removed, 0 identical\n",
        ok("diff", m + "#default", m + "#v2").out());
    ok("avg", m, "--tags", "default,v2", "--into", "mean");
    ByteBuffer mean = readLe(model, "/params/big");
    assertEquals(4L * n, mean.capacity());
    for (int i = 0; i < n; i++) {
      assertEquals(i == n - 2 ? i + 1.5f : i, mean.getFloat(4 * i), "element " + i);
    }
  }

  @Test
  void numbersHaveSixSignificantDigits() {
    assertEquals("0.0123", DiffCommand.number(0.0123));
    assertEquals("0.5", DiffCommand.number(0.5));
    assertEquals("0", DiffCommand.number(0));
    assertEquals("1.5e-07", DiffCommand.number(1.5e-7));
    assertEquals("123457", DiffCommand.number(123456.7));
    assertEquals("1.23457e+06", DiffCommand.number(1234567));
    assertEquals("Infinity", DiffCommand.number(Double.POSITIVE_INFINITY));
  }
}
