package org.modelfs.format.ziptags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The percent escaping and line splitting of zip-tags' text files (docs/FORMATS.md "Names in the
 * text files"): a table of escapes, a random round trip, and the leniency of {@code lines()}.
 */
class ZipTagsTxtCodecTest {
  static Stream<Arguments> escapes() {
    return Stream.of(
        Arguments.of("plain", "layer0", "", "layer0"),
        Arguments.of("slash stays", "layer0/W", "", "layer0/W"),
        Arguments.of("space", "a b", "", "a%20b"),
        Arguments.of("tab", "a\tb", "", "a%09b"),
        Arguments.of("CR", "a\rb", "", "a%0Db"),
        Arguments.of("LF", "a\nb", "", "a%0Ab"),
        Arguments.of("NUL and 0x01", "\0\u0001", "", "%00%01"),
        Arguments.of("0x7F", "a\u007Fb", "", "a%7Fb"),
        Arguments.of("'!' (0x21) stays", "!x~", "", "!x~"),
        Arguments.of("percent", "100%", "", "100%25"),
        Arguments.of("lone percent", "%", "", "%25"),
        Arguments.of("'=' without extra", "a=b", "", "a=b"),
        Arguments.of("'=' with extra \"=\"", "a=b", "=", "a%3Db"),
        Arguments.of("empty", "", "", "%"),
        Arguments.of("empty with extra", "", "=", "%"),
        Arguments.of("UTF-8 two-byte", "gr\u00f6\u00dfe", "", "gr\u00f6\u00dfe"),
        Arguments.of("UTF-8 three-byte", "\u91cd\u307f", "", "\u91cd\u307f"),
        Arguments.of("UTF-8 four-byte", "w\ud83d\ude00", "", "w\ud83d\ude00"),
        Arguments.of("NBSP is not escaped (not below 0x21)", "a\u00a0b", "", "a\u00a0b"),
        Arguments.of("DL4J-style name", "&MyParam*", "", "&MyParam*"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("escapes")
  void escapeTable(String name, String plain, String extra, String escaped) throws TxtCodec.Malformed {
    assertEquals(escaped, TxtCodec.escape(plain, extra));
    assertEquals(plain, TxtCodec.unescape(escaped));
  }

  @Test
  void unescapeAcceptsLowerCaseHexAndEscapedSafeCharacters() throws TxtCodec.Malformed {
    assertEquals("a b", TxtCodec.unescape("a%20b"));
    assertEquals("J", TxtCodec.unescape("%4a"));
    assertEquals("layer0/W", TxtCodec.unescape("layer0%2FW"));
    assertEquals("\u00e9", TxtCodec.unescape("%C3%A9"));
    assertEquals("", TxtCodec.unescape("%"));
    assertEquals("%", TxtCodec.unescape("%25"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"%G1", "%4", "a%", "%%", "%%41", "a%4", "%-1", "%+F", "% 1", "%\u00e9\u00e9"})
  void badEscapesAreMalformed(String token) {
    TxtCodec.Malformed m = assertThrows(TxtCodec.Malformed.class, () -> TxtCodec.unescape(token));
    assertTrue(m.getMessage().contains("'%' not followed by two hex digits"), m.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"%FF", "%80", "%C3", "a%C0%AF", "%ED%A0%80", "%F4%90%80%80"})
  void escapesOfInvalidUtf8AreMalformed(String token) {
    TxtCodec.Malformed m = assertThrows(TxtCodec.Malformed.class, () -> TxtCodec.unescape(token));
    assertTrue(m.getMessage().contains("does not decode to UTF-8"), m.getMessage());
  }

  @Test
  void randomStringsRoundTrip() throws TxtCodec.Malformed {
    Random rnd = new Random(0x7A95);
    int[] pool = {' ', '\t', '\r', '\n', '%', '=', '/', 0, 1, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xA0, 0xE9, 0x7FF, 0x800,
        0xFFFD, 0x1F600, 0x10FFFF, 'a', 'Z', '0', '.', '_', '-'};
    for (int i = 0; i < 5000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = rnd.nextInt(12);
      for (int k = 0; k < n; k++) {
        sb.appendCodePoint(rnd.nextInt(4) == 0 ? 0x21 + rnd.nextInt(0x5E) : pool[rnd.nextInt(pool.length)]);
      }
      String s = sb.toString();
      for (String extra : new String[] {"", "="}) {
        String t = TxtCodec.escape(s, extra);
        assertFalse(t.isEmpty(), "a token is never empty");
        for (byte b : t.getBytes(StandardCharsets.UTF_8)) {
          int c = b & 0xff;
          assertTrue(c >= 0x21 && c != 0x7f, "unescaped byte " + c + " in " + t);
          assertFalse(extra.equals("=") && c == '=', "'=' left in a key: " + t);
        }
        assertEquals(s, TxtCodec.unescape(t), "round trip of " + s.codePoints().boxed().toList());
        assertEquals(List.of(t), TxtCodec.lines((t + "\n").getBytes(StandardCharsets.UTF_8)).get(0).tokens(),
            "an escaped name is one token");
      }
    }
  }

  // ---- lines -----------------------------------------------------------------------------------

  @Test
  void linesAcceptCrLfRunsOfSpacesAndBlankLines() throws TxtCodec.Malformed {
    String text = "a 0\r\n\r\n   \n  b   1  \r\nc\u00e9 x/2\n\n";
    List<TxtCodec.Line> lines = TxtCodec.lines(text.getBytes(StandardCharsets.UTF_8));
    assertEquals(3, lines.size());
    assertEquals(new TxtCodec.Line(1, List.of("a", "0")), lines.get(0));
    assertEquals(new TxtCodec.Line(4, List.of("b", "1")), lines.get(1));
    assertEquals(new TxtCodec.Line(5, List.of("c\u00e9", "x/2")), lines.get(2));
  }

  @Test
  void linesWithoutFinalNewlineAndEmptyInput() throws TxtCodec.Malformed {
    assertEquals(List.of(new TxtCodec.Line(1, List.of("W", "M=0", "V=1"))),
        TxtCodec.lines("W M=0 V=1".getBytes(StandardCharsets.UTF_8)));
    assertEquals(List.of(), TxtCodec.lines(new byte[0]));
    assertEquals(List.of(), TxtCodec.lines("\r\n\n \n".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void linesRefuseInvalidUtf8() {
    TxtCodec.Malformed m = assertThrows(TxtCodec.Malformed.class,
        () -> TxtCodec.lines(new byte[] {'a', ' ', '1', '\n', (byte) 0xC3, '\n'}));
    assertEquals("is not UTF-8", m.getMessage());
  }
}
