package org.modelfs.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The name ↔ segments mapping of docs/FILESYSTEM.md §2, as tables. */
public class NameMappingTest {
  /** One name set with every rule in it: name → canonical segments joined by '/'. */
  public static final String[][] TABLE = {
    {"layer0/W", "layer0/W"},
    {"encoder/layer0/W", "encoder/layer0/W"},
    {"encoder/layer1/b", "encoder/layer1/b"},
    {"&MyParam*", "&MyParam*"},
    {"IdentityN:1", "IdentityN:1"},
    {"..", "%2E%2E"},
    {".", "%2E"},
    {"a/./b", "a%2F.%2Fb"},
    {"a//b", "a%2F%2Fb"},
    {"a", "a"},
    {"a/b", "a%2Fb"},
    {"a/b/c", "a%2Fb%2Fc"},
    {"x/y", "x/y"},
    {"/lead", "%2Flead"},
    {"trail/", "trail%2F"},
    {"100%", "100%25"},
    {"x%2Fy", "x%252Fy"},
    {"nul\0char", "nul%00char"},
    {"", "%"},
    {"sp ace", "sp ace"},
    {"ünï/cödé", "ünï/cödé"},
    {"back\\slash", "back\\slash"},
    {"p/..", "p%2F.."},
  };

  static Stream<Arguments> rows() {
    return Arrays.stream(TABLE).map(r -> Arguments.of(r[0], r[1]));
  }

  private static final Map<String, List<String>> CANONICAL =
      NameMapping.canonical(Arrays.stream(TABLE).map(r -> r[0]).toList());

  @ParameterizedTest(name = "[{0}] -> {1}")
  @MethodSource("rows")
  void canonicalSpelling(String name, String expected) {
    assertEquals(expected, String.join("/", CANONICAL.get(name)));
  }

  @ParameterizedTest(name = "[{0}] decodes back")
  @MethodSource("rows")
  void decodesBack(String name, String canonical) {
    assertEquals(name, NameMapping.name(CANONICAL.get(name)));
  }

  @Test
  void splitOnlyWhenNoPrefixIsAName() {
    // without "a" in the set, "a/b" is split into directories
    assertEquals(List.of("a", "b"), NameMapping.canonical(List.of("a/b", "z")).get("a/b"));
    // "x" is a directory of "x/y" and "x/z"; both split
    Map<String, List<String>> m = NameMapping.canonical(List.of("x/y", "x/z"));
    assertEquals(List.of("x", "y"), m.get("x/y"));
    assertEquals(List.of("x", "z"), m.get("x/z"));
  }

  @Test
  void decodingIsLenientAboutStrayPercentSigns() {
    assertEquals("%zz", NameMapping.decode("%zz"));
    assertEquals("a%", NameMapping.decode("a%"));
    assertEquals("a/b", NameMapping.decode("a%2fb"));
    assertEquals("é", NameMapping.decode("%C3%A9"));
    assertEquals("", NameMapping.decode("%"));
  }
}
