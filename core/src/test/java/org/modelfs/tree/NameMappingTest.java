package org.modelfs.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.InvalidPathException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

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
  void decodingAcceptsEscapesOfEitherCase() {
    assertEquals("a/b", NameMapping.decode("a%2fb"));
    assertEquals("é", NameMapping.decode("%C3%A9"));
    assertEquals("é", NameMapping.decode("%c3%a9"));
    assertEquals("😀", NameMapping.decode("%F0%9F%98%80"));
    assertEquals("", NameMapping.decode("%"));
  }

  /** Issue 15: a segment that stands for no name is refused, never mapped onto another name. */
  @ParameterizedTest
  @ValueSource(strings = {
    "%FF", "%FE", "a%C3", "%C3(", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", // not UTF-8
    "%zz", "a%", "100%", "%2", "%%41", "%\u0663\u0663", "%\uFF11\uFF11", // not two ASCII hex digits
    "\uD800", "x\uDC00y", "\uDBFF" // unpaired surrogates
  })
  void segmentsThatStandForNoNameAreRefused(String segment) {
    InvalidPathException e = assertThrows(InvalidPathException.class, () -> NameMapping.decode(segment));
    assertEquals(segment, e.getInput());
    assertTrue(e.getIndex() >= 0 && e.getIndex() < segment.length(), e.getMessage());
  }

  @Test
  void unpairedSurrogatesInNamesAreRefused() {
    assertThrows(InvalidPathException.class, () -> NameMapping.checkName("a\uD800"));
    assertEquals("a😀", NameMapping.checkName("a😀"));
  }

  /**
   * The property behind §2: over valid names (random, biased to the characters the mapping
   * treats specially) decoding the encoding gives the name back, and no two names share a
   * canonical spelling. The fuzz target {@code NameMappingFuzzTest} checks the same on inputs
   * the fuzzer finds.
   */
  @Test
  void decodeOfEncodeIsIdentityAndEncodingIsInjective() {
    Random r = new Random(15);
    char[] alphabet = {'%', '/', '.', '\0', '2', '5', 'E', 'F', 'a', 'é', '\uD83D', '\uDE00', 'x'};
    Map<String, String> byPath = new HashMap<>();
    for (int n = 0; n < 200_000; n++) {
      StringBuilder sb = new StringBuilder();
      int len = r.nextInt(7);
      for (int i = 0; i < len; i++) {
        sb.append(alphabet[r.nextInt(alphabet.length)]);
      }
      String name = sb.toString();
      if (NameMapping.unpairedSurrogate(name) >= 0) {
        continue;
      }
      String one = NameMapping.oneSegment(name);
      assertEquals(name, NameMapping.decode(one), one);
      List<String> segs = NameMapping.segments(name, Set.of());
      assertEquals(name, NameMapping.name(segs), String.valueOf(segs));
      String other = byPath.putIfAbsent(one, name);
      assertTrue(other == null || other.equals(name), "'" + other + "' and '" + name + "' both map to " + one);
    }
  }
}
