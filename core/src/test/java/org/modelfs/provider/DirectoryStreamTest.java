package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.testing.Fixtures;

/**
 * Directory listings of a mounted model through {@code DirectoryStream} (filters, globs, the
 * one-iterator and closed-stream rules, filter failures) and through {@code Files.list},
 * {@code Files.walk} and {@code Files.find} with predicates on the {@code samediff} attributes.
 */
class DirectoryStreamTest {
  @TempDir static Path tmp;
  static FileSystem mlp;
  static FileSystem dtypes;

  @BeforeAll
  static void mount() throws IOException {
    mlp = ModelFileSystems.open(ProviderTestModels.copy(tmp, "mlp_adam.fb"));
    dtypes = ModelFileSystems.open(Fixtures.get("dtypes.fb"));
  }

  @AfterAll
  static void unmount() throws IOException {
    mlp.close();
    dtypes.close();
  }

  private static Set<String> list(DirectoryStream<Path> ds) throws IOException {
    try (ds) {
      Set<String> out = new TreeSet<>();
      for (Path p : ds) {
        out.add(p.toString());
      }
      return out;
    }
  }

  static Stream<Arguments> listings() {
    return Stream.of(
        // the root lists tags/ only; its aliases resolve without being listed (docs/FILESYSTEM.md §1)
        Arguments.of("/", "*", Set.of("/tags")),
        Arguments.of("/", "*.json", Set.of()),
        Arguments.of("/tags/default", "*.json", Set.of("/tags/default/graph.json", "/tags/default/training.json")),
        Arguments.of("/tags/DEFAULT", "graph*", Set.of("/tags/DEFAULT/graph", "/tags/DEFAULT/graph.json")),
        Arguments.of("/params", "*", Set.of("/params/&MyParam*", "/params/const", "/params/layer0", "/params/layer1",
            "/params/sd_var")),
        Arguments.of("/params", "layer?", Set.of("/params/layer0", "/params/layer1")),
        Arguments.of("/params", "{const,sd_var}", Set.of("/params/const", "/params/sd_var")),
        Arguments.of("/params", "[&]*", Set.of("/params/&MyParam*")),
        Arguments.of("/params", "*.json", Set.of()),
        Arguments.of("/updater/layer0/W", "*", Set.of("/updater/layer0/W/M", "/updater/layer0/W/V")),
        Arguments.of("/tags/default/metadata", "*", Set.of()),
        // a relative directory lists relative entries
        Arguments.of("params/layer0", "*", Set.of("params/layer0/W", "params/layer0/b")),
        Arguments.of("tags", "*", Set.of("tags/default")));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("listings")
  void globListing(String dir, String glob, Set<String> expected) throws IOException {
    assertEquals(new TreeSet<>(expected), list(Files.newDirectoryStream(mlp.getPath(dir), glob)));
    if (glob.equals("*")) {
      assertEquals(new TreeSet<>(expected), list(Files.newDirectoryStream(mlp.getPath(dir))));
      try (Stream<Path> s = Files.list(mlp.getPath(dir))) {
        assertEquals(new TreeSet<>(expected), s.map(Path::toString).collect(Collectors.toCollection(TreeSet::new)));
      }
    }
  }

  @Test
  void aFilterSeesEveryEntryAndSelects() throws IOException {
    List<Path> seen = new ArrayList<>();
    DirectoryStream.Filter<Path> filesOnly = p -> {
      seen.add(p);
      return Files.isRegularFile(p);
    };
    assertEquals(Set.of("/tags/default/graph", "/tags/default/graph.json", "/tags/default/training.json"),
        list(Files.newDirectoryStream(mlp.getPath("/tags/default"), filesOnly)));
    assertEquals(6, seen.size());
  }

  @Test
  void aSecondIteratorIsIllegal() throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(mlp.getPath("/params"))) {
      Iterator<Path> it = ds.iterator();
      assertThrows(IllegalStateException.class, ds::iterator);
      assertTrue(it.hasNext(), "the first iterator still works");
    }
  }

  @Test
  void iteratingAfterCloseStops() throws IOException {
    DirectoryStream<Path> ds = Files.newDirectoryStream(mlp.getPath("/params"));
    Iterator<Path> it = ds.iterator();
    assertTrue(it.hasNext());
    it.next();
    ds.close();
    assertFalse(it.hasNext());
    assertThrows(NoSuchElementException.class, it::next);
    ds.close(); // idempotent
    DirectoryStream<Path> unused = Files.newDirectoryStream(mlp.getPath("/params"));
    unused.close();
    assertThrows(IllegalStateException.class, unused::iterator);
  }

  @Test
  void aFilterThrowingIOExceptionGivesDirectoryIteratorException() throws IOException {
    IOException boom = new IOException("boom");
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(mlp.getPath("/params"), p -> {
      throw boom;
    })) {
      Iterator<Path> it = ds.iterator();
      DirectoryIteratorException e = assertThrows(DirectoryIteratorException.class, it::hasNext);
      assertSame(boom, e.getCause());
    }
    // next() without hasNext() fails the same way
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(mlp.getPath("/params"), p -> {
      throw boom;
    })) {
      DirectoryIteratorException e = assertThrows(DirectoryIteratorException.class, () -> ds.iterator().next());
      assertSame(boom, e.getCause());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/graph", "/params/layer0/W", "/tags/default/training.json", "/updater/layer0/W/M"})
  void listingAFileIsNotADirectory(String file) {
    Path p = mlp.getPath(file);
    assertThrows(NotDirectoryException.class, () -> Files.newDirectoryStream(p).close());
    assertThrows(NotDirectoryException.class, () -> Files.newDirectoryStream(p, "*").close());
    assertThrows(NotDirectoryException.class, () -> Files.list(p).close());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/nope", "/params/nope", "/tags/v9", "/params/layer0/W/below", "/updater/layer0/nope"})
  void listingAMissingDirectoryIsNoSuchFile(String dir) {
    Path p = mlp.getPath(dir);
    assertThrows(NoSuchFileException.class, () -> Files.newDirectoryStream(p).close());
    assertThrows(NoSuchFileException.class, () -> Files.list(p).close());
    assertThrows(NoSuchFileException.class, () -> Files.walk(p).close());
  }

  static Stream<Arguments> walks() {
    return Stream.of(
        Arguments.of("/params", 0, Set.of("/params")),
        Arguments.of("/params", 1, Set.of("/params", "/params/&MyParam*", "/params/const", "/params/layer0",
            "/params/layer1", "/params/sd_var")),
        Arguments.of("/params", 2, Set.of("/params", "/params/&MyParam*", "/params/const", "/params/const/scale",
            "/params/layer0", "/params/layer0/W", "/params/layer0/b", "/params/layer1", "/params/layer1/W",
            "/params/sd_var")),
        Arguments.of("/tags/default/updater/layer0", Integer.MAX_VALUE, Set.of("/tags/default/updater/layer0",
            "/tags/default/updater/layer0/W", "/tags/default/updater/layer0/W/M", "/tags/default/updater/layer0/W/V",
            "/tags/default/updater/layer0/b", "/tags/default/updater/layer0/b/M", "/tags/default/updater/layer0/b/V")),
        Arguments.of("/params/layer0/W", 5, Set.of("/params/layer0/W")),
        Arguments.of("/", 1, Set.of("/", "/tags")),
        Arguments.of("/", 2, Set.of("/", "/tags", "/tags/default")));
  }

  @ParameterizedTest(name = "{0} depth {1}")
  @MethodSource("walks")
  void walkWithMaxDepth(String start, int depth, Set<String> expected) throws IOException {
    try (Stream<Path> s = Files.walk(mlp.getPath(start), depth)) {
      List<String> all = s.map(Path::toString).toList();
      assertEquals(new TreeSet<>(expected), new TreeSet<>(all));
      assertEquals(all.size(), new TreeSet<>(all).size(), "no path twice");
      assertEquals(start, all.get(0), "the start comes first");
    }
  }

  @Test
  void walkingTheWholeTreeVisitsEachFileOnce() throws IOException {
    try (Stream<Path> s = Files.walk(mlp.getPath("/"))) {
      List<Path> files = s.filter(Files::isRegularFile).toList();
      // tags/default only: graph, graph.json, training.json, 6 params, M and V of 4 params
      assertEquals(3 + 6 + 8, files.size(), files.toString());
    }
  }

  private static SamediffFileAttributes samediff(Path p) {
    try {
      return Files.readAttributes(p, SamediffFileAttributes.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static BiPredicate<Path, BasicFileAttributes> dtype(String dtype) {
    return (p, a) -> a.isRegularFile() && dtype.equals(samediff(p).dtype());
  }

  static Stream<Arguments> finds() {
    return Stream.of(
        Arguments.of("FLOAT params", dtype("FLOAT"),
            Set.of("empty", "f32", "forder", "my/param/name", "unicode/ümlaut")),
        Arguments.of("HALF params", dtype("HALF"), Set.of("f16")),
        Arguments.of("DOUBLE params", dtype("DOUBLE"), Set.of("f64", "scalar")),
        Arguments.of("BFLOAT16 params", dtype("BFLOAT16"), Set.of("bf16")),
        Arguments.of("integer params", (BiPredicate<Path, BasicFileAttributes>) (p, a) -> a.isRegularFile()
            && Set.of("BYTE", "UBYTE", "SHORT", "INT", "LONG").contains(samediff(p).dtype()),
            Set.of("i8", "u8", "i16", "i32", "i64")),
        Arguments.of("VARIABLE kind", (BiPredicate<Path, BasicFileAttributes>) (p, a) ->
            "VARIABLE".equals(samediff(p).kind()), Set.of("forder", "my/param/name", "unicode/ümlaut")),
        Arguments.of("f-order", (BiPredicate<Path, BasicFileAttributes>) (p, a) -> "f".equals(samediff(p).order()),
            Set.of("forder")),
        Arguments.of("scalars (shape [])", (BiPredicate<Path, BasicFileAttributes>) (p, a) ->
            a.isRegularFile() && samediff(p).shape().length == 0, Set.of("empty", "scalar")),
        Arguments.of("rank 3", (BiPredicate<Path, BasicFileAttributes>) (p, a) ->
            a.isRegularFile() && samediff(p).shape().length == 3, Set.of("f64")),
        Arguments.of("empty files", (BiPredicate<Path, BasicFileAttributes>) (p, a) ->
            a.isRegularFile() && a.size() == 0, Set.of("empty")),
        Arguments.of("directories", (BiPredicate<Path, BasicFileAttributes>) (p, a) ->
            a.isDirectory(), Set.of("", "my", "my/param", "unicode")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("finds")
  void findBySamediffAttributes(String label, BiPredicate<Path, BasicFileAttributes> matcher, Set<String> expected)
      throws IOException {
    for (String root : List.of("/params", "/tags/default/params")) {
      Path start = dtypes.getPath(root);
      try (Stream<Path> s = Files.find(start, Integer.MAX_VALUE, matcher)) {
        Set<String> found = s.map(p -> start.relativize(p).toString()).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(expected), found, root);
      }
    }
  }

  /** The attributes Files.find hands the predicate are the samediff ones (one read per file). */
  @Test
  void findPassesSamediffAttributes() throws IOException {
    try (Stream<Path> s = Files.find(mlp.getPath("/params"), 9, (p, a) ->
        a instanceof SamediffFileAttributes sa && "CONSTANT".equals(sa.kind()))) {
      assertEquals(Set.of("/params/const/scale", "/params/sd_var"),
          s.map(Path::toString).collect(Collectors.toCollection(TreeSet::new)));
    }
  }

  @Test
  void aDirectoryStreamOfTheEmptyPathListsTheRoot() throws IOException {
    Set<String> fromEmpty = list(Files.newDirectoryStream(mlp.getPath("")));
    assertEquals(Set.of("tags"), fromEmpty);
  }

  @Test
  void entriesResolveAgainstTheDirectoryAsGiven() throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(mlp.getPath("/tags/default/../default/params/layer0"))) {
      for (Path p : ds) {
        assertEquals(mlp.getPath("/tags/default/../default/params/layer0"), p.getParent());
        assertInstanceOf(Path.class, p);
        assertTrue(Files.isRegularFile(p));
      }
    }
  }
}
