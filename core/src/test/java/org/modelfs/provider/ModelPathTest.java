package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;

/**
 * Table tests of {@link ModelPath} in the style of jdk.zipfs's PathOps, on paths of a mounted
 * model, plus a differential run of the same operations against jdk.zipfs and the default (Unix)
 * file system. In the tables {@code ''} is the empty string, an empty cell {@code null}, and
 * {@code !Name} an exception of that simple class name.
 */
class ModelPathTest {
  static final Path MODEL = Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb");

  @TempDir static Path tmp;
  static FileSystem fs;
  static FileSystem zipfs;

  @BeforeAll
  static void mount() throws IOException {
    fs = ModelFileSystems.open(MODEL);
    Path zip = tmp.resolve("empty.zip");
    new ZipOutputStream(Files.newOutputStream(zip)).close();
    zipfs = FileSystems.newFileSystem(zip, Map.of());
    assertEquals("jar", zipfs.provider().getScheme());
  }

  @AfterAll
  static void unmount() throws IOException {
    fs.close();
    zipfs.close();
  }

  static Path p(String s) {
    return fs.getPath(s);
  }

  /** The result's string ("null" for null), or "!" and the simple name of what was thrown. */
  static String outcome(Callable<?> op) {
    try {
      return String.valueOf(op.call());
    } catch (Exception e) {
      return "!" + e.getClass().getSimpleName();
    }
  }

  /** A table cell as {@link String#valueOf} shows it: an empty cell is null. */
  static String shown(String expected) {
    return expected == null ? "null" : expected;
  }

  // ---- construction -------------------------------------------------------------------------

  static Stream<List<String>> construction() {
    // first, more..., expected
    return Stream.of(
        List.of("/", "/"),
        List.of("/", "", "/"),
        List.of("/", "foo", "/foo"),
        List.of("/", "/foo", "/foo"),
        List.of("/", "foo/", "/foo"),
        List.of("foo", "bar", "gus", "foo/bar/gus"),
        List.of("", ""),
        List.of("", "/", "/"),
        List.of("", "foo", "", "bar", "", "/gus", "foo/bar/gus"),
        List.of("//foo//bar", "/foo/bar"),
        List.of("foo/", "foo"),
        List.of("///", "/"),
        List.of("a//b///c////", "a/b/c"),
        List.of("/tags/default/", "params", "/layer0/W", "/tags/default/params/layer0/W"),
        List.of(".", "."),
        List.of("/./..", "/./.."),
        List.of("a\\b", "a\\b"),
        List.of("\\", "\\"),
        List.of("a%2Fb/%", "a%2Fb/%"),
        List.of("&MyParam*", "&MyParam*"),
        List.of(" x y ", " x y "),
        List.of("é/😀", "é/😀"));
  }

  @ParameterizedTest
  @MethodSource
  void construction(List<String> row) {
    String[] more = row.subList(1, row.size() - 1).toArray(String[]::new);
    assertEquals(row.get(row.size() - 1), fs.getPath(row.get(0), more).toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"foo\u0000bar", "\u0000foo", "bar\u0000", "//foo\u0000bar", "//\u0000foo",
      "//bar\u0000", "\u0000"})
  void nulIsInvalid(String s) {
    InvalidPathException e = assertThrows(InvalidPathException.class, () -> fs.getPath(s));
    assertEquals(s.indexOf('\0'), e.getIndex());
    assertThrows(InvalidPathException.class, () -> fs.getPath("a", s));
    assertThrows(InvalidPathException.class, () -> p("a").resolve(s));
    assertThrows(InvalidPathException.class, () -> p("a").resolveSibling(s));
    assertThrows(InvalidPathException.class, () -> p("a").startsWith(s));
    assertThrows(InvalidPathException.class, () -> p("a").endsWith(s));
  }

  // ---- components ---------------------------------------------------------------------------

  @ParameterizedTest(name = "''{0}'': root {1}, parent {2}, file name {3}, {4} names, absolute {5}")
  @CsvSource(delimiter = '|', textBlock = """
      /                       | /  |                      |         | 0 | true
      ''                      |    |                      | ''      | 1 | false
      a                       |    |                      | a       | 1 | false
      /a                      | /  | /                    | a       | 1 | true
      a/b                     |    | a                    | b       | 2 | false
      /a/b/c                  | /  | /a/b                 | c       | 3 | true
      //foo//bar              | /  | /foo                 | bar     | 2 | true
      .                       |    |                      | .       | 1 | false
      ..                      |    |                      | ..      | 1 | false
      /..                     | /  | /                    | ..      | 1 | true
      a/..                    |    | a                    | ..      | 2 | false
      /tags/default/params/x  | /  | /tags/default/params | x       | 4 | true
      params/a%2Fb            |    | params               | a%2Fb   | 2 | false
      /a\\b                   | /  | /                    | a\\b    | 1 | true
      """)
  void components(
      String path, String root, String parent, String fileName, int count, boolean abs) {
    Path x = p(path);
    assertEquals(shown(root), String.valueOf(x.getRoot()));
    assertEquals(shown(parent), String.valueOf(x.getParent()));
    assertEquals(shown(fileName), String.valueOf(x.getFileName()));
    assertEquals(count, x.getNameCount());
    assertEquals(abs, x.isAbsolute());
    for (Path component : Arrays.asList(x.getRoot(), x.getParent(), x.getFileName())) {
      if (component != null) {
        assertSame(fs, component.getFileSystem());
      }
    }
  }

  @Test
  void emptyPathIsOneEmptyName() {
    Path empty = p("");
    assertEquals("", empty.getName(0).toString());
    assertEquals("", empty.subpath(0, 1).toString());
    assertEquals(List.of(empty), iterate(empty));
    assertEquals(empty, empty.getFileName());
    assertEquals(p("/"), empty.toAbsolutePath());
    assertEquals(1, p("/").relativize(p("/")).getNameCount());
  }

  @ParameterizedTest(name = "''{0}''.names() = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      ''                        | ''
      /                         | ''
      a                         | a
      /tags/default/params/W    | tags,default,params,W
      ../a/./b                  | ..,a,.,b
      /a%2Fb/x y/&MyParam*      | a%2Fb,x y,&MyParam*
      """)
  void names(String path, String joined) {
    List<String> expected = joined.isEmpty() ? List.of() : List.of(joined.split(","));
    assertEquals(expected, ((ModelPath) p(path)).names());
  }

  @ParameterizedTest(name = "''{0}''.getName({1}) = {2}")
  @CsvSource(delimiter = '|', textBlock = """
      a/b/c       |  0 | a
      a/b/c       |  1 | b
      a/b/c       |  2 | c
      /a/b/c      |  0 | a
      /a/b/c      |  2 | c
      a/b/c       |  3 | !IllegalArgumentException
      a/b/c       | -1 | !IllegalArgumentException
      /           |  0 | !IllegalArgumentException
      ''          |  0 | ''
      ''          |  1 | !IllegalArgumentException
      a           | 2147483647 | !IllegalArgumentException
      """)
  void getName(String path, int index, String expected) {
    assertEquals(expected, outcome(() -> p(path).getName(index)));
  }

  @ParameterizedTest(name = "''{0}''.subpath({1}, {2}) = {3}")
  @CsvSource(delimiter = '|', textBlock = """
      /a/b/c  | 0 | 1 | a
      /a/b/c  | 0 | 2 | a/b
      /a/b/c  | 0 | 3 | a/b/c
      /a/b/c  | 1 | 3 | b/c
      /a/b/c  | 2 | 3 | c
      a/b/c   | 1 | 2 | b
      a/b/c   | 0 | 4 | !IllegalArgumentException
      a/b/c   | 3 | 4 | !IllegalArgumentException
      a/b/c   | 2 | 2 | !IllegalArgumentException
      a/b/c   | 2 | 1 | !IllegalArgumentException
      a/b/c   | -1 | 1 | !IllegalArgumentException
      /       | 0 | 1 | !IllegalArgumentException
      /       | 0 | 0 | !IllegalArgumentException
      ''      | 0 | 1 | ''
      """)
  void subpath(String path, int begin, int end, String expected) {
    assertEquals(expected, outcome(() -> p(path).subpath(begin, end)));
  }

  static List<Path> iterate(Path path) {
    List<Path> out = new ArrayList<>();
    path.forEach(out::add);
    return out;
  }

  @ParameterizedTest(name = "''{0}'' iterates {1}")
  @CsvSource(delimiter = '|', textBlock = """
      /                   | ''
      a                   | a
      /tags/default/graph | tags,default,graph
      ../a/./b            | ..,a,.,b
      """)
  void iterator(String path, String joined) {
    List<Path> names = iterate(p(path));
    assertEquals(joined, names.stream().map(Path::toString).collect(Collectors.joining(",")));
    names.forEach(n -> assertFalse(n.isAbsolute()));
    names.forEach(n -> assertSame(fs, n.getFileSystem()));
  }

  @Test
  void iteratorIsReadOnly() {
    var it = p("/a/b").iterator();
    it.next();
    assertThrows(UnsupportedOperationException.class, it::remove);
  }

  // ---- startsWith / endsWith ----------------------------------------------------------------

  @ParameterizedTest(name = "''{0}''.startsWith(''{1}'') = {2}")
  @CsvSource(delimiter = '|', textBlock = """
      ''        | ''        | true
      /         | /         | true
      foo       | foo       | true
      /foo      | /         | true
      /foo      | /foo      | true
      /foo/bar  | /         | true
      /foo/bar  | /foo      | true
      /foo/bar  | /foo/     | true
      /foo/bar  | //foo//   | true
      /foo/bar  | /foo/bar  | true
      foo/bar   | foo       | true
      foo/bar   | foo/      | true
      foo/bar   | foo/bar   | true
      ''        | /         | false
      /         | ''        | false
      /         | /foo      | false
      foo       | ''        | false
      foo       | f         | false
      /foo      | /f        | false
      /foo      | ''        | false
      /foo/bar  | /f        | false
      /foo/bar  | foo       | false
      /foo/bar  | foo/bar   | false
      /foo/bar  | ''        | false
      foo/bar   | f         | false
      foo/bar   | /foo      | false
      foo/bar   | /foo/bar  | false
      foo/bar   | foo/bar/x | false
      a/../b    | a         | true
      a/../b    | b         | false
      a%2Fb     | a         | false
      """)
  void startsWith(String path, String prefix, boolean expected) {
    assertEquals(expected, p(path).startsWith(prefix));
    assertEquals(expected, p(path).startsWith(p(prefix)));
  }

  @ParameterizedTest(name = "''{0}''.endsWith(''{1}'') = {2}")
  @CsvSource(delimiter = '|', textBlock = """
      ''        | ''        | true
      /         | /         | true
      /foo      | foo       | true
      /foo      | /foo      | true
      /foo/bar  | bar       | true
      /foo/bar  | foo/bar   | true
      /foo/bar  | foo/bar/  | true
      /foo/bar  | /foo/bar  | true
      /foo/bar/ | bar       | true
      /foo/bar/ | foo/bar   | true
      /foo/bar/ | foo/bar/  | true
      /foo/bar/ | /foo/bar  | true
      foo       | foo       | true
      foo/bar   | bar       | true
      foo/bar   | bar/      | true
      foo/bar   | foo/bar/  | true
      foo/bar   | foo/bar   | true
      ''        | /         | false
      /         | ''        | false
      /         | foo       | false
      /         | /foo      | false
      /foo      | /         | false
      /foo      | ''        | false
      foo       | ''        | false
      /foo/bar  | /bar      | false
      /foo/bar/ | /bar      | false
      foo/bar   | r         | false
      foo/bar   | /foo/bar  | false
      foo/bar   | x/foo/bar | false
      a/..      | ..        | true
      a%2Fb     | b         | false
      """)
  void endsWith(String path, String suffix, boolean expected) {
    assertEquals(expected, p(path).endsWith(suffix));
    assertEquals(expected, p(path).endsWith(p(suffix)));
  }

  // ---- resolve, resolveSibling, relativize, normalize, toAbsolutePath -----------------------

  @ParameterizedTest(name = "''{0}''.resolve(''{1}'') = {2}")
  @CsvSource(delimiter = '|', textBlock = """
      /tmp      | foo       | /tmp/foo
      /tmp      | /foo      | /foo
      /tmp      | ''        | /tmp
      tmp       | foo       | tmp/foo
      tmp       | /foo      | /foo
      tmp       | ''        | tmp
      ''        | ''        | ''
      ''        | foo       | foo
      ''        | /foo      | /foo
      /         | ''        | /
      /         | foo       | /foo
      /         | /foo      | /foo
      /         | /foo/     | /foo
      /tags     | default//params/ | /tags/default/params
      a/b       | ../c      | a/b/../c
      /params   | a%2Fb     | /params/a%2Fb
      """)
  void resolve(String path, String other, String expected) {
    assertEquals(expected, p(path).resolve(other).toString());
    assertEquals(expected, p(path).resolve(p(other)).toString());
    assertSame(fs, p(path).resolve(other).getFileSystem());
  }

  @ParameterizedTest(name = "''{0}''.resolveSibling(''{1}'') = {2}")
  @CsvSource(delimiter = '|', textBlock = """
      foo       | bar       | bar
      foo       | /bar      | /bar
      foo       | ''        | ''
      foo/bar   | gus       | foo/gus
      foo/bar   | /gus      | /gus
      foo/bar   | ''        | foo
      /foo      | gus       | /gus
      /foo      | /gus      | /gus
      /foo      | ''        | /
      /foo/bar  | gus       | /foo/gus
      /foo/bar  | /gus      | /gus
      /foo/bar  | ''        | /foo
      ''        | foo       | foo
      ''        | /foo      | /foo
      /         | foo       | foo
      /         | ''        | ''
      """)
  void resolveSibling(String path, String other, String expected) {
    assertEquals(expected, p(path).resolveSibling(other).toString());
    assertEquals(expected, p(path).resolveSibling(p(other)).toString());
  }

  @ParameterizedTest(name = "''{0}''.relativize(''{1}'') = {2}")
  @CsvSource(delimiter = '|', textBlock = """
      /a/b/c      | /a/b/c      | ''
      /a/b/c      | /a/b/c/d/e  | d/e
      /a/b/c      | /a/x        | ../../x
      /a/b/c      | /x          | ../../../x
      a/b/c       | a/b/c/d     | d
      a/b/c       | a/x         | ../../x
      a/b/c       | x           | ../../../x
      a/b/c       | ''          | ../../..
      ''          | a           | a
      ''          | a/b/c       | a/b/c
      ''          | ''          | ''
      /           | /           | ''
      /           | /a          | a
      /           | /a/c        | a/c
      /a/c        | /           | ../..
      /tmp/path   | /tmp/path/a.txt | a.txt
      /tmp/path/  | /tmp/path/a.txt | a.txt
      /a          | a           | !IllegalArgumentException
      a           | /a          | !IllegalArgumentException
      ''          | /a          | !IllegalArgumentException
      /           | ''          | !IllegalArgumentException
      a/..        | b           | b
      a           | a/..        | ..
      a           | .           | ..
      .           | a           | a
      /a/./b      | /a/b/c      | c
      a/b/.       | a/b         | ''
      a/../b      | c           | ../c
      x/..        | x           | x
      a/b         | a/b/../c    | ../c
      ''          | a/../b      | a/../b
      ..          | ../..       | ..
      ../a        | ../b        | ../b
      a           | ../b        | ../../b
      ..          | a           | !IllegalArgumentException
      ..          | ''          | !IllegalArgumentException
      ../..       | ..          | !IllegalArgumentException
      /..         | /a          | a
      /params/layer0/W | /updater/layer0/W/M | ../../../updater/layer0/W/M
      """)
  void relativize(String path, String other, String expected) {
    assertEquals(expected, outcome(() -> p(path).relativize(p(other))));
  }

  static final List<String> SAMPLES = List.of("", "/", "a", "/a", "a/b", "/a/b", "a/b/c", "/a/b/c",
      "/a/x/y", "x/y/z", "a/x", "/tags/default/params/layer0/W", "/params/layer0/b",
      "/updater/layer0/b/M", "params/a%2Fb");

  /** For paths without "." or "..": p.resolve(p.relativize(q)).normalize() equals q. */
  @Test
  void relativizeThenResolveIsTheOther() {
    for (String a : SAMPLES) {
      for (String b : SAMPLES) {
        Path x = p(a);
        Path y = p(b);
        if (x.isAbsolute() == y.isAbsolute()) {
          assertEquals(y, x.resolve(x.relativize(y)).normalize(), a + " -> " + b);
        }
      }
    }
  }

  @ParameterizedTest(name = "''{0}''.normalize() = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      /                  | /
      ''                 | ''
      foo                | foo
      /foo               | /foo
      .                  | ''
      ..                 | ..
      /..                | /
      /../..             | /
      /../../a           | /a
      foo/.              | foo
      ./foo              | foo
      foo/..             | ''
      /foo/..            | /
      ../foo             | ../foo
      ../../foo          | ../../foo
      foo/../..          | ..
      foo/../../bar      | ../bar
      foo/bar/..         | foo
      foo/bar/gus/../..  | foo
      /foo/bar/gus/../.. | /foo
      /./.               | /
      /.                 | /
      /./abc             | /abc
      a/./b/./c          | a/b/c
      a/b/../../../../c  | ../../c
      ...                | ...
      .a/..b/..          | .a
      /tags/default/params/../updater | /tags/default/updater
      """)
  void normalize(String path, String expected) {
    Path normalized = p(path).normalize();
    assertEquals(expected, normalized.toString());
    assertEquals(normalized, normalized.normalize());
  }

  @ParameterizedTest(name = "''{0}''.toAbsolutePath() = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      /       | /
      ''      | /
      a       | /a
      a/b     | /a/b
      ../a    | /../a
      /a/./b  | /a/./b
      """)
  void toAbsolutePath(String path, String expected) {
    assertEquals(expected, p(path).toAbsolutePath().toString());
  }

  // ---- comparison ---------------------------------------------------------------------------

  @Test
  void compareToOrdersByString() {
    List<String> strings = List.of("", "/", "/a", "/a/b", "/a%2Fb", "/ab", "/b", "a", "a b", "a/b",
        "b", "é", "😀", "\\");
    List<Path> sorted = strings.stream().map(ModelPathTest::p).sorted().toList();
    assertEquals(strings.stream().sorted().toList(), sorted.stream().map(Path::toString).toList());
    for (String s : strings) {
      assertEquals(0, p(s).compareTo(p(s)));
      assertEquals(p(s), p(s));
      assertEquals(p(s).hashCode(), p(s).hashCode());
    }
  }

  @ParameterizedTest(name = "''{0}'' equals ''{1}'': {2}")
  @CsvSource(delimiter = '|', textBlock = """
      /a/b    | //a//b/ | true
      a       | a       | true
      ''      | ''      | true
      /a      | a       | false
      a/.     | a       | false
      a/../b  | b       | false
      A       | a       | false
      a%2Fb   | a/b     | false
      """)
  void equalsIsSameNormalizedString(String a, String b, boolean expected) {
    assertEquals(expected, p(a).equals(p(b)));
    assertEquals(expected, p(a).compareTo(p(b)) == 0);
    if (expected) {
      assertEquals(p(a).hashCode(), p(b).hashCode());
    }
  }

  /**
   * Another mount of the same model is another file system: its paths are never equal and never
   * prefixes or suffixes (as Path specifies; zipfs compares the strings regardless).
   */
  @Test
  void pathsOfAnotherMount() throws IOException {
    try (FileSystem other = ModelFileSystems.open(MODEL)) {
      Path theirs = other.getPath("/params/layer0");
      Path ours = p("/params/layer0");
      assertNotEquals(ours, theirs);
      assertFalse(ours.startsWith(theirs));
      assertFalse(ours.endsWith(other.getPath("layer0")));
      // resolve, resolveSibling and relativize take them as syntax, answering in this file system
      assertEquals(p("/params/layer0/W"), ours.resolve(other.getPath("W")));
      assertEquals(p("/graph"), ours.resolve(other.getPath("/graph")));
      assertSame(fs, p("").resolve(other.getPath("a")).getFileSystem());
      assertEquals(p("/params/b"), ours.resolveSibling(other.getPath("b")));
      assertEquals(p("b"), p("a").resolveSibling(other.getPath("b")));
      assertEquals(p("W"), ours.relativize(other.getPath("/params/layer0/W")));
      assertEquals(p("a"), p("").relativize(other.getPath("a")));
    }
  }

  // ---- other providers, nulls, unsupported operations, closed file systems ---------------

  @Test
  void pathsOfAnotherProvider() {
    Path ours = p("foo");
    Path other = Path.of("foo");
    assertThrows(ProviderMismatchException.class, () -> ours.resolve(other));
    assertThrows(ProviderMismatchException.class, () -> ours.relativize(other));
    // UnixPath and zipfs return a foreign 'other' from resolveSibling when they have no parent;
    // we refuse it whether or not there is a parent
    assertThrows(ProviderMismatchException.class, () -> ours.resolveSibling(other));
    assertThrows(ProviderMismatchException.class, () -> p("/foo/bar").resolveSibling(other));
    assertThrows(ProviderMismatchException.class, () -> ModelPath.check(other));
    // as Path specifies and UnixPath does; zipfs throws ProviderMismatchException
    assertThrows(ClassCastException.class, () -> ours.compareTo(other));
    assertFalse(ours.startsWith(other));
    assertFalse(ours.endsWith(other));
    assertFalse(ours.equals(other));
    assertFalse(ours.equals("foo"));
    assertSame(ours, ModelPath.check(ours));
  }

  @Test
  void nullArguments() {
    Path x = p("foo");
    assertThrows(NullPointerException.class, () -> x.resolve((String) null));
    assertThrows(NullPointerException.class, () -> x.resolve((Path) null));
    assertThrows(NullPointerException.class, () -> x.resolveSibling((String) null));
    assertThrows(NullPointerException.class, () -> x.resolveSibling((Path) null));
    assertThrows(NullPointerException.class, () -> x.relativize(null));
    assertThrows(NullPointerException.class, () -> x.compareTo(null));
    assertThrows(NullPointerException.class, () -> x.startsWith((Path) null));
    assertThrows(NullPointerException.class, () -> x.startsWith((String) null));
    assertThrows(NullPointerException.class, () -> x.endsWith((Path) null));
    assertThrows(NullPointerException.class, () -> x.endsWith((String) null));
    assertThrows(NullPointerException.class, () -> ModelPath.check(null));
    assertThrows(NullPointerException.class,
        () -> x.register(null, StandardWatchEventKinds.ENTRY_CREATE));
    assertFalse(x.equals(null));
  }

  @Test
  void noFileAndNoWatching() throws IOException {
    Path x = p("/graph");
    assertThrows(UnsupportedOperationException.class, x::toFile);
    try (WatchService watcher = FileSystems.getDefault().newWatchService()) {
      assertThrows(UnsupportedOperationException.class,
          () -> x.register(watcher, StandardWatchEventKinds.ENTRY_MODIFY));
    }
  }

  /** Path methods are syntax: none of them fails because the file system has been closed. */
  @Test
  void pathMethodsWorkAfterClose() throws IOException {
    FileSystem closed = ModelFileSystems.open(MODEL);
    Path a = closed.getPath("/params/layer0/W");
    Path b = closed.getPath("/updater/../params");
    closed.close();
    assertFalse(closed.isOpen());
    assertEquals("/params/layer0/W", a.toString());
    assertEquals("/", a.getRoot().toString());
    assertEquals("/params/layer0", a.getParent().toString());
    assertEquals("W", a.getFileName().toString());
    assertEquals("layer0", a.getName(1).toString());
    assertEquals("params/layer0", a.subpath(0, 2).toString());
    assertEquals("/params", b.normalize().toString());
    assertEquals("/params/layer0/W/M", a.resolve("M").toString());
    assertEquals("/params/layer0/b", a.resolveSibling("b").toString());
    assertEquals("layer0/W", b.normalize().relativize(a).toString());
    assertTrue(a.startsWith("/params"));
    assertTrue(a.endsWith("layer0/W"));
    assertEquals(a, a.toAbsolutePath());
    assertEquals(3, iterate(a).size());
    assertTrue(a.compareTo(b) < 0);
    assertEquals(closed.getPath("/params/layer0/W"), a);
    assertTrue(a.toUri().toString().endsWith("!/params/layer0/W"), a.toUri().toString());
  }

  // ---- the file system's side: URIs and real paths ------------------------------------------

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"/", "", "/params/layer0/W", "params/layer0", "/a%2Fb", "/a%2Fb/c%25",
      "/x y/ z ", "/#frag", "/a!b", "/!/!", "/?q=1&r", "/é/ü€", "/😀",
      "/tags/default/../graph",
      "/a/..b../c", "/..", "a/b/../../c", "/a\\b", "/%", "/&MyParam*", "/a:b;c=d", "/[x]{y}"})
  void toUriRoundTrips(String s) throws IOException {
    URI mountUri = URI.create("samediff:" + MODEL.toAbsolutePath().toUri());
    try (FileSystem mounted = FileSystems.newFileSystem(mountUri, Map.of())) {
      Path x = mounted.getPath(s);
      URI uri = x.toUri();
      assertEquals("samediff", uri.getScheme());
      assertTrue(uri.isAbsolute());
      Path expected = x.toAbsolutePath().normalize();
      assertEquals(expected, Path.of(uri), uri.toString());
      assertEquals(expected, mounted.provider().getPath(uri), uri.toString());
      assertEquals(uri, expected.toUri());
    }
  }

  /** A root alias resolves to the newest tag's path, as a symbolic link would (docs/FILESYSTEM.md §1). */
  @ParameterizedTest(name = "''{0}''.toRealPath() = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      /                               | /
      ''                              | /
      params                          | /tags/default/params
      /params/layer0/../layer1/W      | /tags/default/params/layer1/W
      /./graph.json                   | /tags/default/graph.json
      /tags/default/params/&MyParam*  | /tags/default/params/&MyParam*
      /no/such/file                   | !NoSuchFileException
      params/..                       | /
      """)
  void toRealPath(String path, String expected) {
    assertEquals(expected, outcome(() -> p(path).toRealPath()));
  }

  @Test
  void toRealPathIsOfThisFileSystem() throws IOException {
    Path real = p("params/./layer0").toRealPath();
    assertSame(fs, real.getFileSystem());
    assertTrue(real.isAbsolute());
    assertThrows(NoSuchFileException.class, () -> p("/params/nope").toRealPath());
  }

  // ---- differential: the same operations on jdk.zipfs and on the default file system --------

  /** Inputs for the differential run: no backslash (zipfs reads it as '/'). */
  static final List<String> INPUTS = List.of("", "/", "a", "/a", "a/b", "/a/b", "b", "a/b/c",
      "/a/b/c", "/a/b/c/d", "/a/x", ".", "..", "/..", "./a", "a/.", "a/..", "../a", "a/../b",
      "/a/./b/../c", "a//b/", "/tags/default/params", "params/layer0/W", "%2F", "a%2Fb",
      "&MyParam*",
      "x y", "é/ü", "😀/b");

  /** An operation on one or two paths of a file system, rendered by {@link #outcome}. */
  record Op(String name, BiFunction<FileSystem, List<String>, Object> fn, int arity) {
    static Op unary(String name, Function<Path, Object> f) {
      return new Op(name, (fs, args) -> f.apply(fs.getPath(args.get(0))), 1);
    }

    static Op binary(String name, BiFunction<Path, Path, Object> f) {
      return new Op(
          name, (fs, args) -> f.apply(fs.getPath(args.get(0)), fs.getPath(args.get(1))), 2);
    }

    static Op withString(String name, BiFunction<Path, String, Object> f) {
      return new Op(name, (fs, args) -> f.apply(fs.getPath(args.get(0)), args.get(1)), 2);
    }

    String run(FileSystem on, List<String> args) {
      return outcome(() -> fn.apply(on, args));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static List<Op> ops() {
    List<Op> ops = new ArrayList<>(List.of(
        Op.unary("toString", Path::toString),
        Op.unary("getRoot", Path::getRoot),
        Op.unary("getFileName", Path::getFileName),
        Op.unary("getParent", Path::getParent),
        Op.unary("getNameCount", Path::getNameCount),
        Op.unary("isAbsolute", Path::isAbsolute),
        Op.unary("normalize", Path::normalize),
        Op.unary("toAbsolutePath", Path::toAbsolutePath),
        Op.unary("iterator", ModelPathTest::iterate),
        Op.withString("resolve(String)", Path::resolve),
        Op.binary("resolve(Path)", Path::resolve),
        Op.withString("resolveSibling(String)", Path::resolveSibling),
        Op.binary("resolveSibling(Path)", Path::resolveSibling),
        Op.binary("relativize", Path::relativize),
        Op.withString("startsWith(String)", Path::startsWith),
        Op.binary("startsWith(Path)", Path::startsWith),
        Op.withString("endsWith(String)", Path::endsWith),
        Op.binary("endsWith(Path)", Path::endsWith),
        Op.binary("compareTo", (x, y) -> Integer.signum(x.compareTo(y))),
        Op.binary("equals", Path::equals)));
    for (int i = -1; i <= 4; i++) {
      int index = i;
      ops.add(Op.unary("getName(" + i + ")", x -> x.getName(index)));
      for (int j = i; j <= 5; j++) {
        int end = j;
        ops.add(Op.unary("subpath(" + i + ", " + j + ")", x -> x.subpath(index, end)));
      }
    }
    return ops;
  }

  static List<List<String>> argsFor(Op op) {
    if (op.arity() == 1) {
      return INPUTS.stream().map(List::of).toList();
    }
    return INPUTS.stream().flatMap(a -> INPUTS.stream().map(b -> List.of(a, b))).toList();
  }

  static boolean hasDots(String s) {
    return Arrays.stream(s.split("/")).anyMatch(n -> n.equals(".") || n.equals(".."));
  }

  /**
   * Where jdk.zipfs (as of JDK 17) answers differently, and we follow UnixPath instead; null
   * where both must agree.
   */
  static String zipfsDiffers(Op op, List<String> args) {
    String a = args.get(0);
    String b = args.size() > 1 ? args.get(1) : null;
    return switch (op.name()) {
      // zipfs gives the empty path no file name (fixed in later JDKs); UnixPath gives ""
      case "getFileName" -> a.isEmpty() ? "file name of the empty path" : null;
      // zipfs's byte comparison runs off the front of an empty prefix (ArrayIndexOutOfBounds)
      case "startsWith(String)", "startsWith(Path)" ->
          b.isEmpty() && !a.isEmpty() && !a.startsWith("/")
              ? "non-empty path starts with the empty path" : null;
      // zipfs neither normalizes nor refuses climbing out of "..", and lets the empty path
      // relativize an absolute one; UnixPath normalizes both sides first and refuses those
      case "relativize" -> hasDots(a) || hasDots(b) || a.isEmpty() && b.startsWith("/")
          ? "relativize with '.' or '..', or from '' to an absolute path" : null;
      default -> null;
    };
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ops")
  void differentialAgainstZipfs(Op op) {
    List<String> mismatches = new ArrayList<>();
    int compared = 0;
    for (List<String> args : argsFor(op)) {
      if (zipfsDiffers(op, args) != null) {
        continue;
      }
      compared++;
      String ours = op.run(fs, args);
      String theirs = op.run(zipfs, args);
      if (!ours.equals(theirs)) {
        mismatches.add(op + " " + args + ": ours " + ours + ", zipfs " + theirs);
      }
    }
    assertEquals(List.of(), mismatches, compared + " compared");
    assertTrue(compared > 0);
  }

  /** Every operation but toAbsolutePath, which UnixPath resolves against the working directory. */
  static Stream<Op> unixOps() {
    return ops().stream().filter(op -> !op.name().equals("toAbsolutePath"));
  }

  /** We follow UnixPath everywhere, including where zipfs differs. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("unixOps")
  void differentialAgainstUnixPath(Op op) {
    assumeTrue(FileSystems.getDefault().getSeparator().equals("/"),
        "the default file system is not Unix");
    // UnixPath turns names into bytes with sun.jnu.encoding: only UTF-8 keeps non-ASCII names
    boolean utf8 = "UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding"));
    List<String> mismatches = new ArrayList<>();
    for (List<String> args : argsFor(op)) {
      if (!utf8 && args.stream().anyMatch(a -> a.chars().anyMatch(c -> c > 127))) {
        continue;
      }
      String ours = op.run(fs, args);
      String unix = op.run(FileSystems.getDefault(), args);
      if (!ours.equals(unix)) {
        mismatches.add(op + " " + args + ": ours " + ours + ", UnixPath " + unix);
      }
    }
    assertEquals(List.of(), mismatches);
  }

  /** On JDK 17 each documented difference does show: none of them is a stale excuse. */
  @Test
  void zipfsDifferencesAreReal() {
    assumeTrue(Runtime.version().feature() == 17, "the differences were taken from JDK 17's zipfs");
    Set<String> seen = new TreeSet<>();
    for (Op op : ops()) {
      for (List<String> args : argsFor(op)) {
        String reason = zipfsDiffers(op, args);
        if (reason != null && !op.run(fs, args).equals(op.run(zipfs, args))) {
          seen.add(reason);
        }
      }
    }
    assertEquals(3, seen.size(), seen.toString());
  }
}
