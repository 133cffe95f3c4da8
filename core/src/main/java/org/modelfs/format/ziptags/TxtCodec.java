package org.modelfs.format.ziptags;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The text files of zip-tags ({@code params.txt}, {@code updater.txt}, {@code metadata.txt}):
 * UTF-8 lines of space-separated tokens. A token is percent-escaped so that any name fits: '%'
 * and every byte below 0x21 or equal to 0x7F (space, tab, CR, LF, other controls) become
 * {@code %XX}, plus any extra characters a caller names; a lone {@code %} is the empty string.
 */
final class TxtCodec {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private TxtCodec() {}

  /** Thrown for a malformed line; the caller adds file, entry and line number. */
  static final class Malformed extends Exception {
    Malformed(String message) {
      super(message);
    }
  }

  /** {@code s} as one token, escaping also each character of {@code extra} (ASCII only). */
  static String escape(String s, String extra) {
    if (s.isEmpty()) {
      return "%";
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 8);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c == '%' || c < 0x21 || c == 0x7f || (c < 0x80 && extra.indexOf(c) >= 0)) {
        out.write('%');
        out.write(HEX[c >> 4]);
        out.write(HEX[c & 15]);
      } else {
        out.write(c);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The string a token stands for. */
  static String unescape(String token) throws Malformed {
    if (token.equals("%")) {
      return "";
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(token.length());
    byte[] b = token.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < b.length; i++) {
      if (b[i] != '%') {
        out.write(b[i]);
        continue;
      }
      if (i + 2 >= b.length) {
        throw new Malformed("'%' not followed by two hex digits in '" + token + "'");
      }
      int hi = Character.digit(b[i + 1], 16);
      int lo = Character.digit(b[i + 2], 16);
      if (hi < 0 || lo < 0) {
        throw new Malformed("'%' not followed by two hex digits in '" + token + "'");
      }
      out.write(hi * 16 + lo);
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray())).toString();
    } catch (CharacterCodingException e) {
      throw new Malformed("'" + token + "' does not decode to UTF-8");
    }
  }

  /** One non-blank line split into tokens, with its 1-based number. */
  record Line(int number, List<String> tokens) {}

  /**
   * Splits a text file into lines of tokens: strict UTF-8, LF line ends (a CR before LF is
   * dropped), tokens separated by one or more spaces, blank lines skipped.
   */
  static List<Line> lines(byte[] utf8) throws Malformed {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(utf8)).toString();
    } catch (CharacterCodingException e) {
      throw new Malformed("is not UTF-8");
    }
    List<Line> out = new ArrayList<>();
    String[] raw = text.split("\n", -1);
    for (int i = 0; i < raw.length; i++) {
      String l = raw[i].endsWith("\r") ? raw[i].substring(0, raw[i].length() - 1) : raw[i];
      List<String> tokens = new ArrayList<>();
      for (String t : l.split(" ")) {
        if (!t.isEmpty()) {
          tokens.add(t);
        }
      }
      if (!tokens.isEmpty()) {
        out.add(new Line(i + 1, tokens));
      }
    }
    return out;
  }
}
