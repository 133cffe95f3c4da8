package org.modelfs.provider;

import java.util.LinkedHashMap;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.SyntheticModels;
import org.modelfs.testing.RecursiveCopy;
import org.modelfs.testing.TreeTsv;

/**
 * zip-tags through {@code Files.*} (issue 5): three tags that share 90% of their parameters
 * store each shared array once, reopen with {@code isSameFile} true across tags, and survive a
 * round trip through SDZ and back with the sharing found again; odd names, updater state and
 * metadata come back as written.
 */
class ZipTagsTest {
  private static final int PARAMS = 20;
  private static final int ELEMENTS = 16_384; // 64 KiB per parameter
  private static final long ARRAY_BYTES = 4L * ELEMENTS;
  @TempDir Path tmp;

  @Test
  void threeTagsSharingNinetyPercentStoreEachSharedArrayOnce() throws Exception {
    Path model = tmp.resolve("m.zip");
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), PARAMS, ELEMENTS);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.ZIP_TAGS));
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.move(fs.getPath("/tags/default"), fs.getPath("/tags/v1"));
      RecursiveCopy.copyTree(fs.getPath("/tags/v1"), fs.getPath("/tags/v2"));
      Files.write(fs.getPath("/tags/v2/params/big/w0"), pattern(1));
      Files.write(fs.getPath("/tags/v2/params/big/w1"), pattern(2));
      RecursiveCopy.copyTree(fs.getPath("/tags/v2"), fs.getPath("/tags/v3"));
      Files.write(fs.getPath("/tags/v3/params/big/w2"), pattern(3));
      Files.write(fs.getPath("/tags/v3/params/big/w3"), pattern(4));
    }
    // 20 arrays in v1, 2 new in v2, 2 new in v3: 24 array files, not 60
    assertEquals(24, arrayEntries(model), "array files");
    long size = Files.size(model);
    assertTrue(size >= 24 * ARRAY_BYTES && size < 25 * ARRAY_BYTES, "each shared array once: " + size + " bytes");
    String v3Params = entry(model, "v3/params.txt");
    assertTrue(v3Params.contains("big/w5 v1/5\n") && v3Params.contains("big/w0 v2/0\n")
        && v3Params.contains("big/w2 0\n"), v3Params);

    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(List.of("v1", "v2", "v3"), list(fs.getPath("/tags")));
      assertTrue(Files.isSameFile(fs.getPath("/tags/v1/params/big/w5"), fs.getPath("/tags/v3/params/big/w5")));
      assertTrue(Files.isSameFile(fs.getPath("/tags/v2/params/big/w0"), fs.getPath("/tags/v3/params/big/w0")));
      assertFalse(Files.isSameFile(fs.getPath("/tags/v1/params/big/w0"), fs.getPath("/tags/v2/params/big/w0")));
      assertEquals(fileKey(fs.getPath("/tags/v1/params/big/w9")), fileKey(fs.getPath("/tags/v2/params/big/w9")));
      assertArrayEquals(pattern(3), Files.readAllBytes(fs.getPath("/params/big/w2")), "root aliases show v3");
      assertArrayEquals(pattern(1), Files.readAllBytes(fs.getPath("/tags/v3/params/big/w0")));
      assertArrayEquals(Files.readAllBytes(fs.getPath("/tags/v1/params/big/w2")),
          Files.readAllBytes(fs.getPath("/tags/v2/params/big/w2")));
    }
    Map<String, String> before = tagTsvs(model);

    // through sdz (each tag a whole SDNB: no sharing there) and back
    Path sdz = tmp.resolve("m.sdz");
    Path back = tmp.resolve("back.zip");
    cli("convert", model.toString(), sdz.toString());
    assertTrue(Files.size(sdz) > 60 * ARRAY_BYTES, "sdz stores every tag's arrays");
    assertEquals(before, tagTsvs(sdz));
    cli("convert", sdz.toString(), back.toString());
    assertEquals(before, tagTsvs(back));
    assertEquals(24, arrayEntries(back), "equal arrays of the same name found again");
    assertTrue(Math.abs(Files.size(back) - size) < ARRAY_BYTES / 4, Files.size(back) + " vs " + size);
    try (FileSystem fs = ModelFileSystems.open(back)) {
      assertTrue(Files.isSameFile(fs.getPath("/tags/v1/params/big/w5"), fs.getPath("/tags/v3/params/big/w5")));
    }
  }

  @Test
  void oddNamesUpdaterStateAndMetadataComeBackAsWritten() throws Exception {
    List<String> names = List.of("plain", "with space", "per%cent", "new\nline", "tab\there", "", "layer0/W",
        "a/b/c", "é/ü", "=eq", "%", "%41", "trailing ");
    Map<String, String> metadata = new TreeMap<>(Map.of("author", "someone with spaces", "empty", "",
        "multi\nline key", "value\r\nwith CRLF", "unicode", "日本語"));
    var synthetic = SyntheticModels.named(tmp.resolve("data.bin"), names, metadata);
    Path model = tmp.resolve("odd.zip");
    try (var data = synthetic.data()) {
      String expected = ModelTsv.of(synthetic.tag());
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.ZIP_TAGS));
      try (Model m = Models.open(model)) {
        assertEquals(ModelFormat.ZIP_TAGS, m.format());
        Tag t = m.newest();
        assertEquals(expected, ModelTsv.of(t));
        assertEquals(metadata, t.metadata());
        assertEquals(List.of("M", "V"), List.copyOf(t.updater().get(1).arrays().keySet()));
      }
    }
    String params = entry(model, "default/params.txt");
    assertTrue(params.contains("with%20space 1\n") && params.contains("per%25cent 2\n")
        && params.contains("new%0Aline 3\n") && params.contains("% 5\n") && params.contains("layer0/W 6\n"), params);
    assertTrue(entry(model, "default/updater.txt").contains("plain M=0 V=1\n"));
  }

  @Test
  void storedArraysAre64ByteAlignedAndMapWithoutACopy() throws Exception {
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), 3, 300_000);
    Path model = tmp.resolve("m.zip");
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.ZIP_TAGS));
    }
    try (Model m = Models.open(model)) {
      for (var v : m.newest().arrays()) {
        var a = v.array();
        var mappable = a.source().mappable(a.offset());
        assertTrue(mappable != null && mappable.position() % 64 == 0, v.name() + " at " + (mappable == null ? -1 : mappable.position()));
        assertEquals("raw", a.storage().label());
      }
    }
  }

  @Test
  void deflatedZipTagsReadTheSame() throws Exception {
    Path model = tmp.resolve("m.zip");
    var synthetic = SyntheticModels.named(tmp.resolve("data.bin"), List.of("a", "b/c"), Map.of("k", "v"));
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.ZIP_TAGS).withDeflate(true));
      try (Model m = Models.open(model)) {
        assertEquals(ModelTsv.of(synthetic.tag()), ModelTsv.of(m.newest()));
        assertEquals("deflated", m.newest().arrays().get(0).array().storage().label());
      }
    }
  }

  @Test
  void oneTagFormatsRefuseSeveralTagsAndSayWhere() throws Exception {
    Path model = tmp.resolve("m.zip");
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), 2, 16);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.ZIP_TAGS));
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      RecursiveCopy.copyTree(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = Main.run(new String[] {"convert", model.toString(), tmp.resolve("x.sdnb").toString()},
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, rc);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("holds 2 tags"), err.toString(StandardCharsets.UTF_8));
    assertFalse(Files.exists(tmp.resolve("x.sdnb")));
  }

  private static byte[] pattern(int seed) {
    ByteBuffer b = ByteBuffer.allocate((int) ARRAY_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < ELEMENTS; i++) {
      b.putFloat(seed * 1000f + i);
    }
    return b.array();
  }

  private static Object fileKey(Path p) throws IOException {
    return Files.readAttributes(p, BasicFileAttributes.class).fileKey();
  }

  private static void cli(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = Main.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
  }

  /** Each tag's arrays as TSV (names, attributes, digests), by tag name in order. */
  private static Map<String, String> tagTsvs(Path model) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      for (String t : list(fs.getPath("/tags"))) {
        out.put(t, TreeTsv.of(fs.getPath("/tags", t)));
      }
    }
    return out;
  }

  private static int arrayEntries(Path zip) throws IOException {
    try (ZipFile zf = ZipFile.builder().setPath(zip).get()) {
      int n = 0;
      for (ZipArchiveEntry e : Collections.list(zf.getEntries())) {
        n += e.getName().matches("[^/]+/params/[0-9]+\\.fb") ? 1 : 0;
      }
      return n;
    }
  }

  private static String entry(Path zip, String name) throws IOException {
    try (ZipFile zf = ZipFile.builder().setPath(zip).get(); var in = zf.getInputStream(zf.getEntry(name))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<String> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      List<String> out = new ArrayList<>();
      s.forEach(p -> out.add(p.getFileName().toString()));
      return out;
    }
  }
}
