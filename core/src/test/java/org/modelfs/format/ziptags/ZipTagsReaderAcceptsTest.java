package org.modelfs.format.ziptags;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.sdz.SdzFormat;
import org.modelfs.model.ArrayStreams;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.testing.BytesChannel;

/**
 * A zip-tags file built entry by entry, the way another writer might: CRLF text files with runs of
 * spaces and blank lines, escaped names, unknown entries below a tag and at the top level, sparse
 * array numbers, and the decision's shared reference {@code shared_param <other_tag>/7}; it reads
 * back STORED and DEFLATED, and the shared array is one file.
 */
class ZipTagsReaderAcceptsTest {
  private static final String JSON = "{\"updater\":{\"@class\":\"org.nd4j.linalg.learning.config.Adam\"}}";

  @TempDir Path dir;

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static ArrayData array(DType t, long[] shape, char order, byte[] data) {
    return new ArrayData(t, shape, order, false, ChannelSource.of("mem", new BytesChannel(data)), 0, data.length, false,
        ArrayData.Storage.RAW);
  }

  private static byte[] arrayFile(ArrayData a) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FlatArrayFile.write(a, new CountingOutput(out));
    return out.toByteArray();
  }

  /** The graph.fb our writer makes for {@code t} (a FlatGraph with variables, no arrays). */
  private static byte[] graph(Tag t) throws IOException {
    for (SdzFormat.Part p : ZipTagsWriter.parts(List.of(t), "graph")) {
      if (p.name().equals(t.name() + "/graph.fb")) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.content().writeTo(new CountingOutput(out));
        return out.toByteArray();
      }
    }
    throw new AssertionError("no graph.fb");
  }

  private static byte[] crlf(String... lines) {
    return String.join("\r\n", lines).getBytes(StandardCharsets.UTF_8);
  }

  private static Path zip(Path out, Map<String, byte[]> entries, boolean deflate) throws IOException {
    try (ZipArchiveOutputStream zos = new ZipArchiveOutputStream(out.toFile())) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        ZipArchiveEntry ze = new ZipArchiveEntry(e.getKey());
        ze.setMethod(deflate ? ZipArchiveEntry.DEFLATED : ZipArchiveEntry.STORED);
        CRC32 crc = new CRC32();
        crc.update(e.getValue());
        ze.setSize(e.getValue().length);
        ze.setCrc(crc.getValue());
        zos.putArchiveEntry(ze);
        zos.write(e.getValue());
        zos.closeArchiveEntry();
      }
    }
    return out;
  }

  @ParameterizedTest(name = "deflated: {0}")
  @ValueSource(booleans = {false, true})
  void handBuiltZipReadsBack(boolean deflate) throws IOException {
    byte[] shared = bytes(24, 1);
    byte[] own = bytes(16, 2);
    byte[] ownNew = bytes(16, 3);
    byte[] w = bytes(32, 4);
    byte[] m = bytes(24, 5);
    byte[] v = bytes(24, 6);
    byte[] v2 = bytes(24, 7);
    ArrayData sharedA = array(DType.FLOAT, new long[] {2, 3}, 'c', shared);
    ArrayData ownA = array(DType.INT32, new long[] {4}, 'c', own);
    ArrayData wA = array(DType.DOUBLE, new long[] {2, 2}, 'f', w);
    Tag structure = new Tag("base", null, List.of(
        new Variable("shared_param", VarKind.VARIABLE, DType.FLOAT, new long[] {2, 3}, sharedA, -1),
        new Variable("own param", VarKind.CONSTANT, DType.INT32, new long[] {4}, ownA, -1),
        new Variable("layer0/W", VarKind.VARIABLE, DType.DOUBLE, new long[] {2, 2}, wA, -1),
        new Variable("x", VarKind.PLACEHOLDER, DType.FLOAT, new long[] {-1, 3}, null, -1)), List.of(), null, Map.of());
    byte[] graph = graph(structure);

    Map<String, byte[]> e = new LinkedHashMap<>();
    e.put("tags.txt", crlf("base", "", "ft", ""));
    e.put("README", "made by hand".getBytes(StandardCharsets.UTF_8));
    e.put("base/graph.fb", graph);
    e.put("base/params.txt", crlf("shared_param   7", "", "own%20param 0", "   layer0/W 3  ", ""));
    e.put("base/params/7.fb", arrayFile(sharedA));
    e.put("base/params/0.fb", arrayFile(ownA));
    e.put("base/params/3.fb", arrayFile(wA));
    e.put("base/notes.txt", "not part of the layout".getBytes(StandardCharsets.UTF_8));
    e.put("base/updater.txt", crlf("shared_param  M=0   V=1", ""));
    e.put("base/updater/0.fb", arrayFile(array(DType.FLOAT, new long[] {2, 3}, 'c', m)));
    e.put("base/updater/1.fb", arrayFile(array(DType.FLOAT, new long[] {2, 3}, 'c', v)));
    e.put("base/metadata.txt", crlf("model.name two%20words", "empty %", "pct 100%25", ""));
    e.put("ft/graph.fb", graph);
    e.put("ft/params.txt", "shared_param base/7\nown%20param 0\nlayer0/W base/3\n".getBytes(StandardCharsets.UTF_8));
    e.put("ft/params/0.fb", arrayFile(array(DType.INT32, new long[] {4}, 'c', ownNew)));
    e.put("ft/updater.txt", "shared_param M=base/0 V=1\n".getBytes(StandardCharsets.UTF_8));
    e.put("ft/updater/1.fb", arrayFile(array(DType.FLOAT, new long[] {2, 3}, 'c', v2)));
    e.put("ft/trainingConfig.fb", ZipTagsWriter.trainingConfig(JSON));
    e.put("ft/future/params_maps.txt", "a later version's file".getBytes(StandardCharsets.UTF_8));
    Path z = zip(dir.resolve("hand.zip"), e, deflate);

    try (Model model = Models.open(z)) {
      assertEquals(ModelFormat.ZIP_TAGS, model.format());
      assertEquals(List.of("base", "ft"), model.tags().stream().map(Tag::name).toList());
      Tag base = model.tags().get(0);
      Tag ft = model.tags().get(1);
      assertSame(ft, model.newest());

      assertBytes(shared, var(base, "shared_param").array());
      assertBytes(own, var(base, "own param").array());
      assertBytes(w, var(base, "layer0/W").array());
      assertEquals('f', var(base, "layer0/W").array().order());
      assertNull(var(base, "x").array());
      assertBytes(ownNew, var(ft, "own param").array());
      assertSame(var(base, "shared_param").array(), var(ft, "shared_param").array(), "base/7 is one array in both tags");
      assertSame(var(base, "layer0/W").array(), var(ft, "layer0/W").array());

      assertEquals(Map.of("model.name", "two words", "empty", "", "pct", "100%"), base.metadata());
      assertNull(base.trainingConfig());
      assertEquals(JSON, ft.trainingConfig());
      UpdaterState bu = base.updater().get(0);
      UpdaterState fu = ft.updater().get(0);
      assertEquals("shared_param", fu.paramName());
      assertEquals(List.of("M", "V"), List.copyOf(fu.arrays().keySet()));
      assertSame(bu.arrays().get("M"), fu.arrays().get("M"), "M=base/0 is base's array");
      assertBytes(v, bu.arrays().get("V"));
      assertBytes(v2, fu.arrays().get("V"));
      ArrayData.Storage expected = deflate ? ArrayData.Storage.DEFLATED : ArrayData.Storage.RAW;
      assertEquals(expected, var(ft, "shared_param").array().storage());
      if (!deflate) {
        assertEquals(0, var(base, "shared_param").array().offset() % 64, "STORED elements are 64-byte aligned in the zip");
      }
    }

    try (FileSystem fs = ModelFileSystems.open(z)) {
      Path a = fs.getPath("/tags/base/params/shared_param");
      Path b = fs.getPath("/tags/ft/params/shared_param");
      assertTrue(Files.isSameFile(a, b), "the shared array is one file");
      assertEquals(Files.readAttributes(a, "basic:fileKey").get("fileKey"),
          Files.readAttributes(b, "basic:fileKey").get("fileKey"));
      assertNotNull(Files.readAttributes(a, "basic:size"));
    }
  }

  private static Variable var(Tag t, String name) {
    return t.variables().stream().filter(v -> v.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError(t.name() + " has no variable " + name));
  }

  private static void assertBytes(byte[] expected, ArrayData a) throws IOException {
    assertNotNull(a);
    try (InputStream in = ArrayStreams.littleEndianStream(a)) {
      assertArrayEquals(expected, in.readAllBytes());
    }
  }
}
