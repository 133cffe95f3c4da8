package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;

/**
 * Table tests of the {@code glob:} and {@code regex:} matchers of a mounted model, and a
 * differential run of globs against jdk.zipfs's. In the tables {@code ''} is the empty string.
 */
class PathMatchersTest {
  @TempDir static Path tmp;
  static FileSystem fs;
  static FileSystem zipfs;

  @BeforeAll
  static void mount() throws IOException {
    fs = ModelFileSystems.open(Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb"));
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

  static boolean matches(String syntaxAndPattern, String path) {
    return fs.getPathMatcher(syntaxAndPattern).matches(fs.getPath(path));
  }

  @ParameterizedTest(name = "glob:{0} on ''{1}'': {2}")
  @CsvSource(delimiter = '|', textBlock = """
      *.json                | graph.json                      | true
      *.json                | /graph.json                     | false
      /*.json               | /graph.json                     | true
      /*.json               | /tags/default/graph.json        | false
      **.json               | /tags/default/graph.json        | true
      **/graph.json         | /tags/default/graph.json        | true
      **/graph.json         | graph.json                      | false
      /tags/*/params/*      | /tags/default/params/layer0     | true
      /tags/*/params/*      | /tags/default/params/layer0/W   | false
      /tags/**              | /tags/default/params/layer0/W   | true
      /tags/**              | /tags                           | false
      /tags/*               | /tags/                          | false
      /params/layer?/W      | /params/layer0/W                | true
      /params/layer?/W      | /params/layer10/W               | false
      /params/layer?        | /params/layer/                  | false
      ?                     | /                               | false
      a?c                   | a/c                             | false
      *                     | ''                              | true
      *                     | a/b                             | false
      **                    | a/b                             | true
      ''                    | ''                              | true
      ''                    | a                               | false
      /params/{W,b}         | /params/W                       | true
      /params/{W,b}         | /params/b                       | true
      /params/{W,b}         | /params/M                       | false
      /params/{W,b}         | /params/Wb                      | false
      /{params,updater}/**  | /updater/layer0/b/M             | true
      **/{W,b}/{M,V}        | /updater/layer0/b/M             | true
      *.{json,}             | graph                           | false
      *.{json,}             | graph.                          | true
      *.{json,}             | graph.json                      | true
      {}                    | ''                              | true
      {a*,*b}               | xb                              | true
      {a/*,b}               | a/x                             | true
      a,b                   | a,b                             | true
      a,b                   | a                               | false
      a}                    | a}                              | true
      layer[0-9]            | layer7                          | true
      layer[0-9]            | layerx                          | false
      layer[!0-9]           | layerx                          | true
      layer[!0-9]           | layer7                          | false
      layer[!0-9]           | layer/                          | false
      [!a-c]                | d                               | true
      [!a-c]                | b                               | false
      [abc]x                | bx                              | true
      [a-cx-z]              | y                               | true
      [a-cx-z]              | m                               | false
      [-a]                  | -                               | true
      [!-a]                 | -                               | false
      [a-]                  | -                               | true
      [^a]                  | ^                               | true
      [^a]                  | b                               | false
      [[]                   | [                               | true
      [&&]                  | &                               | true
      [\\]                  | \\                              | true
      [+-/]                 | ,                               | true
      [+-/]                 | /                               | false
      \\*                   | *                               | true
      \\*                   | a                               | false
      \\?\\[\\{\\\\         | ?[{\\                           | true
      a\\b                  | ab                              | true
      a\\/b                 | a/b                             | true
      *\\,*                 | x,y                             | true
      /params/&MyParam*     | /params/&MyParam*               | true
      /params/&MyParam\\*   | /params/&MyParam*               | true
      /params/&MyParam\\*   | /params/&MyParamX               | false
      /params/*             | /params/a%2Fb                   | true
      /params/a%2Fb         | /params/a%2Fb                   | true
      /params/a%2F*         | /params/a%2Fb                   | true
      /params/a/*           | /params/a%2Fb                   | false
      /params/a?2Fb         | /params/a%2Fb                   | true
      '(x).$^+|y'           | '(x).$^+|y'                     | true
      a.b                   | axb                             | false
      é*                    | é/ü                             | false
      é/?                   | é/ü                             | true
      ?                     | 😀                              | true
      x y                   | x y                             | true
      x\\ y                 | x y                             | true
      """)
  void glob(String glob, String path, boolean expected) {
    assertEquals(expected, matches("glob:" + glob, path));
  }

  @ParameterizedTest(name = "regex:{0} on ''{1}'': {2}")
  @CsvSource(delimiter = '|', textBlock = """
      .*\\.json                 | /tags/default/graph.json | true
      /params/layer\\d/[Wb]     | /params/layer0/W         | true
      /params/layer\\d/[Wb]     | /params/layer0/M         | false
      layer0                    | /params/layer0           | false
      .*layer0                  | /params/layer0           | true
      /params/a%2Fb             | /params/a%2Fb            | true
      [^/]*                     | a%2Fb                    | true
      [^/]*                     | a/b                      | false
      (?i)/GRAPH                | /graph                   | true
      ''                        | ''                       | true
      a\\\\b                    | a\\b                     | true
      """)
  void regex(String regex, String path, boolean expected) {
    assertEquals(expected, matches("regex:" + regex, path));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"GLOB:*.json", "Glob:*.json", "REGEX:.*json", "ReGeX:.*json"})
  void syntaxIsCaseInsensitive(String syntaxAndPattern) {
    assertTrue(matches(syntaxAndPattern, "graph.json"));
  }

  @ParameterizedTest(name = "''{0}'' -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      ''                  | IllegalArgumentException
      glob                | IllegalArgumentException
      :*.json             | IllegalArgumentException
      *.json              | IllegalArgumentException
      foo:*.json          | UnsupportedOperationException
      glo:a               | UnsupportedOperationException
      ' glob:a'           | UnsupportedOperationException
      glob:[a             | PatternSyntaxException
      glob:[!a            | PatternSyntaxException
      glob:[a-            | PatternSyntaxException
      glob:[]             | PatternSyntaxException
      glob:[!]            | PatternSyntaxException
      glob:[]a]           | PatternSyntaxException
      glob:[a/b]          | PatternSyntaxException
      glob:x[!/a]y        | PatternSyntaxException
      glob:[b-a]          | PatternSyntaxException
      glob:[a-c-e]        | PatternSyntaxException
      glob:[--a]          | PatternSyntaxException
      glob:{a             | PatternSyntaxException
      glob:{a,{b}}        | PatternSyntaxException
      glob:a\\            | PatternSyntaxException
      regex:[a            | PatternSyntaxException
      regex:a{2           | PatternSyntaxException
      regex:(             | PatternSyntaxException
      """)
  void refused(String syntaxAndPattern, String exception) {
    Exception e = assertThrows(Exception.class, () -> fs.getPathMatcher(syntaxAndPattern));
    assertEquals(exception, e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
  }

  @Test
  void nullsAreRefused() {
    assertThrows(NullPointerException.class, () -> fs.getPathMatcher(null));
    PathMatcher m = fs.getPathMatcher("glob:*");
    assertThrows(NullPointerException.class, () -> m.matches(null));
  }

  @Test
  void malformedGlobIsReportedWithItsIndex() {
    PatternSyntaxException e =
        assertThrows(PatternSyntaxException.class, () -> fs.getPathMatcher("glob:ab[x/y]"));
    assertEquals("ab[x/y]", e.getPattern());
    assertEquals(4, e.getIndex());
  }

  /** Our one deliberate difference from the JDK: {@code **} crosses line terminators too. */
  @Test
  void doubleStarCrossesLineTerminators() {
    assertTrue(matches("glob:/params/**", "/params/a\nb/c"));
    assertTrue(matches("glob:**", "a\r\nb\u2028c"));
    assertTrue(matches("glob:/params/*", "/params/a\nb"));
    assertTrue(matches("glob:a?b", "a\nb"));
    assertFalse(matches("glob:/params/*", "/params/a\nb/c"));
  }

  /** Backslash is an ordinary character of our names, so a glob can match one. */
  @Test
  void namesWithBackslash() {
    assertTrue(matches("glob:/params/*", "/params/a\\b"));
    assertTrue(matches("glob:/params/a\\\\*", "/params/a\\b"));
    assertTrue(matches("glob:/params/a[\\]b", "/params/a\\b"));
    assertFalse(matches("glob:/params/a/b", "/params/a\\b"));
  }

  /** A matcher matches any path by its string, whatever its provider, as the JDK's do. */
  @Test
  void matchesByString() {
    PathMatcher m = fs.getPathMatcher("glob:**.json");
    assertTrue(m.matches(Path.of("/tmp/x.json")));
    assertTrue(m.matches(zipfs.getPath("/x.json")));
  }

  @Test
  void filtersTheMountedTree() throws IOException {
    PathMatcher m = fs.getPathMatcher("glob:/tags/*/updater/**/{M,V}");
    List<String> found;
    try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
      found = walk.filter(m::matches).map(Path::toString).sorted().toList();
    }
    assertEquals(List.of(
        "/tags/default/updater/&MyParam*/M", "/tags/default/updater/&MyParam*/V",
        "/tags/default/updater/layer0/W/M", "/tags/default/updater/layer0/W/V",
        "/tags/default/updater/layer0/b/M", "/tags/default/updater/layer0/b/V",
        "/tags/default/updater/layer1/W/M", "/tags/default/updater/layer1/W/V"), found);

    List<String> listed = new ArrayList<>();
    try (DirectoryStream<Path> dir =
        Files.newDirectoryStream(fs.getPath("/params"), "layer[0-9]")) {
      dir.forEach(p -> listed.add(p.getFileName().toString()));
    }
    assertEquals(List.of("layer0", "layer1"), listed.stream().sorted().toList());
  }

  // ---- differential: our globs against jdk.zipfs's --------------------------------------

  static final List<String> GLOBS = List.of("", "*", "**", "?", "*.json", "**.json", "/*", "/**",
      "/*/*", "**/W", "/params/**", "/params/*", "a?c", "{a,b}", "{a,b}/**", "*.{json,}", "{}",
      "{a*,*b}", "[abc]", "[!abc]", "[a-c]", "[!a-c]*", "[-a]", "[!-a]", "[a-]", "[^a]", "[[]",
      "[&&]", "[+-/]", "[!+-/]", "\\*", "\\?", "\\{a,b\\}", "a,b", "a}", "(a)|b.", "x y", "%2F*",
      "*%2F*", "é*", "?/ü", "/tags/*/params/layer[0-9]/?", "&MyParam*", "&MyParam\\*", "**/*");

  static final List<String> PATHS = List.of("", "/", "a", "b", "c", "d", "abc", "a/b", "/a",
      "/graph.json", "graph.json", "graph.", "graph", "/tags/default/graph.json",
      "/params/layer0/W",
      "/tags/default/params/layer0/W", "/tags/default/params/layer10/W", "W", "x/W", "-", "^", "[",
      "&", "+", ",", ".", "*", "?", "{a,b}", "a,b", "a}", "(a)|b.", "x y", "%2F", "a%2Fb", "é/ü",
      "éa", "&MyParam*", "&MyParamX", "ab", "xb", "a/c", "abc/d");

  @Test
  void differentialAgainstZipfs() {
    List<String> mismatches = new ArrayList<>();
    for (String glob : GLOBS) {
      PathMatcher ours = fs.getPathMatcher("glob:" + glob);
      PathMatcher theirs = zipfs.getPathMatcher("glob:" + glob);
      for (String path : PATHS) {
        boolean o = ours.matches(fs.getPath(path));
        boolean t = theirs.matches(zipfs.getPath(path));
        if (o != t) {
          mismatches.add("glob:" + glob + " on '" + path + "': ours " + o + ", zipfs " + t);
        }
      }
    }
    assertEquals(List.of(), mismatches);
  }

  /** Malformed globs are malformed to both. */
  @ParameterizedTest(name = "glob:{0}")
  @ValueSource(strings = {"[a", "[]", "[!]", "[a/b]", "[b-a]", "[a-c-e]", "{a", "{a,{b}}", "a\\",
      "[--a]", "[!"})
  void malformedAlike(String glob) {
    assertThrows(PatternSyntaxException.class, () -> zipfs.getPathMatcher("glob:" + glob));
    assertThrows(PatternSyntaxException.class, () -> fs.getPathMatcher("glob:" + glob));
  }
}
