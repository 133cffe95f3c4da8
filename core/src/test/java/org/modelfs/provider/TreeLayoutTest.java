package org.modelfs.provider;

import java.nio.file.attribute.DosFileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributeView;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.testing.SyntheticModels;
import org.modelfs.tree.NameMappingTest;

/**
 * The tree of docs/FILESYSTEM.md §1–§2 through the NIO API, on a model whose names exercise every mapping
 * rule: canonical listings, other spellings, case-insensitive tags, virtual directories, the
 * root aliases, and what each file holds.
 */
class TreeLayoutTest {
  @TempDir static Path tmp;
  static FileSystem fs;
  static final Map<String, String> METADATA = new LinkedHashMap<>();

  static {
    METADATA.put("author", "modelfs tests");
    METADATA.put("notes/long", "ünïcode ✓");
  }

  @BeforeAll
  static void mount() throws IOException {
    List<String> names = Arrays.stream(NameMappingTest.TABLE).map(r -> r[0]).toList();
    var synthetic = SyntheticModels.named(tmp.resolve("data.bin"), names, METADATA);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), tmp.resolve("odd.sdnb"), WriteOptions.of(ModelFormat.SDNB));
    }
    fs = ModelFileSystems.open(tmp.resolve("odd.sdnb"));
  }

  @AfterAll
  static void unmount() throws IOException {
    fs.close();
  }

  static Stream<Arguments> names() {
    List<Arguments> out = new ArrayList<>();
    for (int i = 0; i < NameMappingTest.TABLE.length; i++) {
      out.add(Arguments.of(NameMappingTest.TABLE[i][0], NameMappingTest.TABLE[i][1], i));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "[{0}] at params/{1}")
  @MethodSource("names")
  void everyNameHasItsCanonicalFile(String name, String canonical, int index) throws IOException {
    Path p = fs.getPath("/tags/default/params/" + canonical);
    assertTrue(Files.isRegularFile(p), p + " is a file");
    assertEquals(p, p.toRealPath());
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(index, b.getFloat(0));
    assertEquals(index + 0.5f, b.getFloat(4));
    SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
    assertEquals("VARIABLE", a.kind());
    assertEquals(index % 2 == 0 ? "c" : "f", a.order());
    assertArrayEquals(index % 2 == 0 ? new long[] {2} : new long[] {2, 1}, a.shape());
    Path m = fs.getPath("/updater/" + canonical + "/M");
    assertEquals(-index - 0.5f, ByteBuffer.wrap(Files.readAllBytes(m)).order(ByteOrder.LITTLE_ENDIAN).getFloat(4));
    assertEquals("UPDATER", Files.getAttribute(m, "samediff:kind"));
  }

  /** Other spellings: {@code /} for {@code %2F}, lower-case escapes, escaped letters. */
  static Stream<Arguments> spellings() {
    return Stream.of(
        Arguments.of("params/a/b", "/tags/default/params/a%2Fb"),
        Arguments.of("params/a/b/c", "/tags/default/params/a%2Fb%2Fc"),
        Arguments.of("params/a%2fb", "/tags/default/params/a%2Fb"),
        Arguments.of("params/layer0%2FW", "/tags/default/params/layer0/W"),
        Arguments.of("params/%2e%2e", "/tags/default/params/%2E%2E"),
        Arguments.of("params/%6C%61yer0/W", "/tags/default/params/layer0/W"),
        Arguments.of("params/x%252Fy", "/tags/default/params/x%252Fy"),
        Arguments.of("params/%2Flead", "/tags/default/params/%2Flead"),
        Arguments.of("updater/a/b/M", "/tags/default/updater/a%2Fb/M"),
        Arguments.of("updater/encoder%2Flayer0%2FW/V", "/tags/default/updater/encoder/layer0/W/V"));
  }

  @ParameterizedTest(name = "tags/DEFAULT/{0}")
  @MethodSource("spellings")
  void otherSpellingsFindTheSameFile(String spelling, String canonical) throws IOException {
    Path p = fs.getPath("/tags/DEFAULT/" + spelling);
    assertTrue(Files.exists(p), p + " exists");
    assertEquals(fs.getPath(canonical), p.toRealPath());
    assertTrue(Files.isSameFile(p, fs.getPath(canonical)));
  }

  @Test
  void listingsShowCanonicalNames() throws IOException {
    // the root aliases resolve but are not listed: a walk of / sees each file once (§1)
    assertEquals(List.of("tags"), list("/"));
    assertEquals(List.of("graph", "graph.json", "params", "updater", "metadata"), list("/tags/default"));
    assertEquals(List.of("default"), list("/tags"));
    List<String> params = list("/params");
    assertTrue(params.containsAll(List.of("layer0", "encoder", "a", "a%2Fb", "%2E%2E", "%", "100%25")), params.toString());
    assertEquals(List.of("layer0", "layer1"), list("/params/encoder"));
    assertEquals(List.of("M", "V"), list("/updater/encoder/layer1/b"));
    // the SDNB writer records its own format keys beside the user's; they are shown, not hidden
    assertEquals(List.of("author", "creation.time", "nd4j.format.type", "nd4j.format.version", "notes"),
        list("/metadata"));
  }

  @Test
  void walkingTheRootSeesEveryFileOnceAndARootAliasWalksTheNewestTag() throws IOException {
    try (Stream<Path> s = Files.walk(fs.getPath("/tags/default/params"))) {
      assertEquals(NameMappingTest.TABLE.length, s.filter(Files::isRegularFile).count());
    }
    try (Stream<Path> s = Files.walk(fs.getPath("/params"))) {
      assertEquals(NameMappingTest.TABLE.length, s.filter(Files::isRegularFile).count());
    }
    try (Stream<Path> s = Files.walk(fs.getPath("/"))) {
      assertEquals(3 * NameMappingTest.TABLE.length + 2 + 5, s.filter(Files::isRegularFile).count());
    }
  }

  @Test
  void virtualDirectories() throws IOException {
    Path dir = fs.getPath("/params/encoder");
    BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class);
    assertTrue(a.isDirectory());
    assertEquals(0, a.size());
    assertThrows(NoSuchFileException.class, () -> Files.readAttributes(fs.getPath("/params/encoder/nope"),
        BasicFileAttributes.class));
    assertThrows(NotDirectoryException.class, () -> Files.newDirectoryStream(fs.getPath("/params/a")));
    assertFalse(Files.exists(fs.getPath("/params/encoder/layer0/W/x")));
  }

  @Test
  void rootAliasesAreTheNewestTag() throws IOException {
    for (String f : List.of("graph", "graph.json", "params/layer0/W", "updater/a%2Fb/V", "metadata/author")) {
      Path alias = fs.getPath("/" + f);
      Path tagged = fs.getPath("/tags/default/" + f);
      assertArrayEquals(Files.readAllBytes(tagged), Files.readAllBytes(alias), f);
      assertEquals(Files.getAttribute(tagged, "fileKey"), Files.getAttribute(alias, "fileKey"), f);
      assertEquals("default", Files.getAttribute(alias, "samediff:tag"));
    }
  }

  @Test
  void metadataFilesHoldTheUtf8Values() throws IOException {
    assertEquals("modelfs tests", Files.readString(fs.getPath("/metadata/author")));
    assertEquals("ünïcode ✓", Files.readString(fs.getPath("/metadata/notes/long"), StandardCharsets.UTF_8));
    assertEquals(METADATA.get("notes/long").getBytes(StandardCharsets.UTF_8).length,
        Files.size(fs.getPath("/metadata/notes/long")));
  }

  @Test
  void graphIsAFlatGraphWithoutArrayData() throws IOException {
    byte[] g = Files.readAllBytes(fs.getPath("/graph"));
    FlatGraph graph = FlatGraph.getRootAsFlatGraph(ByteBuffer.wrap(g).order(ByteOrder.LITTLE_ENDIAN));
    assertEquals(NameMappingTest.TABLE.length, graph.variablesLength());
    for (int i = 0; i < graph.variablesLength(); i++) {
      assertNull(graph.variables(i).ndarray(), "no array in the graph file");
    }
    assertEquals(0, graph.updaterStateLength());
    assertTrue(g.length < 8 * 1024, "structure only: " + g.length + " bytes");
  }

  @Test
  void viewsAndAttributeMaps() throws IOException {
    Path w = fs.getPath("/params/layer0/W");
    Map<String, Object> all = Files.readAttributes(w, "samediff:*");
    assertEquals("FLOAT", all.get("dtype"));
    assertEquals("c", all.get("order"));
    assertEquals("raw", all.get("stored"));
    assertEquals(8L, all.get("size"));
    assertArrayEquals(new long[] {2}, (long[]) all.get("shape"));
    assertEquals(Map.of("size", 8L, "isDirectory", false), Files.readAttributes(w, "size,isDirectory"));
    assertEquals("VARIABLE", Files.getFileAttributeView(w, SamediffFileAttributeView.class).readAttributes().kind());
    assertNull(Files.getFileAttributeView(w, PosixFileAttributeView.class));
    assertNull(Files.getFileAttributeView(w, DosFileAttributeView.class));
    assertThrows(UnsupportedOperationException.class, () -> Files.readAttributes(w, "posix:*"));
    assertThrows(IllegalArgumentException.class, () -> Files.readAttributes(w, "samediff:nonsense"));
    SamediffFileAttributes g = Files.readAttributes(fs.getPath("/graph"), SamediffFileAttributes.class);
    assertNull(g.dtype());
    assertEquals("default", g.tag());
    assertEquals(Files.getLastModifiedTime(tmp.resolve("odd.sdnb")), g.lastModifiedTime());
  }

  private static List<String> list(String dir) throws IOException {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(fs.getPath(dir))) {
      for (Path p : s) {
        out.add(p.getFileName().toString());
      }
    }
    return out;
  }
}
