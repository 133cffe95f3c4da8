package org.modelfs.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 parser (no comments, {@code NaN}, single quotes or trailing commas — what
 * Jackson refuses by default) into {@code Map} (in key order), {@code List}, {@code String},
 * {@code Long} (integers), {@code Double} (other numbers), {@code Boolean} and {@code null}, with
 * a nesting budget. Text after the value is refused.
 */
public final class JsonText {
  private final String s;
  private final int maxDepth;
  private final boolean uniqueKeys;
  private int i;
  private int depth;

  /** What the values read so far are estimated to take of the heap, and the most they may. */
  private long heap;
  private final long maxHeap;

  private JsonText(String s, int maxDepth, boolean uniqueKeys, long maxHeap) {
    this.s = s;
    this.maxDepth = maxDepth;
    this.uniqueKeys = uniqueKeys;
    this.maxHeap = maxHeap;
  }

  /**
   * Parses {@code text}: at most {@code maxDepth} levels of nesting; with {@code uniqueKeys} a key
   * repeated in one object is refused (else the last one wins, as in Jackson).
   *
   * @throws IllegalArgumentException naming what is wrong and where (line, column)
   */
  public static Object parse(String text, int maxDepth, boolean uniqueKeys) {
    return new JsonText(text, maxDepth, uniqueKeys, Long.MAX_VALUE).document();
  }

  /**
   * {@link #parse(String, int, boolean)}, refusing a document whose values would take more than
   * {@code maxHeap} bytes of heap once read (an estimate per value: a small text can hold many
   * empty objects, each far larger in the heap than its two characters).
   *
   * @throws IllegalArgumentException naming the limit and where it was passed (line, column)
   */
  public static Object parse(String text, int maxDepth, boolean uniqueKeys, long maxHeap) {
    return new JsonText(text, maxDepth, uniqueKeys, maxHeap).document();
  }

  /** Charges {@code bytes} of heap for a value being read. */
  private void charge(long bytes) {
    heap += bytes;
    if (heap > maxHeap) {
      throw error("the document's values would take more than " + maxHeap + " bytes of heap once read");
    }
  }

  private Object document() {
    ws();
    Object v = value();
    ws();
    if (i != s.length()) {
      throw error("text after the end of the JSON value");
    }
    return v;
  }

  private Object value() {
    if (i >= s.length()) {
      throw error("the text ends where a value should be");
    }
    char c = s.charAt(i);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || c >= '0' && c <= '9') {
          return number();
        }
        throw error("unexpected '" + c + "'");
    }
  }

  private Map<String, Object> object() {
    enter();
    charge(64);
    Map<String, Object> m = new LinkedHashMap<>();
    i++;
    ws();
    if (peek('}')) {
      i++;
      depth--;
      return m;
    }
    while (true) {
      ws();
      if (!peek('"')) {
        throw error("a key must be a string in double quotes");
      }
      String k = string();
      if (uniqueKeys && m.containsKey(k)) {
        throw error("the key \"" + k + "\" twice in one object");
      }
      ws();
      expect(':');
      ws();
      charge(40 + 16 + k.length());
      m.put(k, value());
      ws();
      if (peek(',')) {
        i++;
        continue;
      }
      expect('}');
      depth--;
      return m;
    }
  }

  private List<Object> array() {
    enter();
    charge(40);
    List<Object> l = new ArrayList<>();
    i++;
    ws();
    if (peek(']')) {
      i++;
      depth--;
      return l;
    }
    while (true) {
      ws();
      charge(8);
      l.add(value());
      ws();
      if (peek(',')) {
        i++;
        continue;
      }
      expect(']');
      depth--;
      return l;
    }
  }

  private String string() {
    i++;
    StringBuilder b = new StringBuilder();
    while (true) {
      if (i >= s.length()) {
        throw error("a string is not closed");
      }
      char c = s.charAt(i++);
      if (c == '"') {
        charge(40 + b.length());
        return b.toString();
      }
      if (c < 0x20) {
        throw error("a control character inside a string");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (i >= s.length()) {
        throw error("a string is not closed");
      }
      char e = s.charAt(i++);
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (i + 4 > s.length()) {
            throw error("a \\u escape needs four hex digits");
          }
          try {
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          } catch (NumberFormatException x) {
            throw error("a \\u escape needs four hex digits");
          }
          i += 4;
        }
        default -> throw error("unknown escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = i;
    if (peek('-')) {
      i++;
    }
    if (peek('0')) {
      i++;
    } else if (digit()) {
      while (digit()) {
        i++;
      }
    } else {
      throw error("a number needs digits");
    }
    boolean integer = true;
    if (peek('.')) {
      integer = false;
      i++;
      if (!digit()) {
        throw error("a number needs digits after '.'");
      }
      while (digit()) {
        i++;
      }
    }
    if (peek('e') || peek('E')) {
      integer = false;
      i++;
      if (peek('+') || peek('-')) {
        i++;
      }
      if (!digit()) {
        throw error("a number needs digits in its exponent");
      }
      while (digit()) {
        i++;
      }
    }
    String t = s.substring(start, i);
    charge(24);
    if (integer) {
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException tooLong) {
        return Double.parseDouble(t); // past the range of a long
      }
    }
    return Double.parseDouble(t);
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) {
      throw error("unexpected '" + s.charAt(i) + "'");
    }
    i += word.length();
    return v;
  }

  private void enter() {
    if (++depth > maxDepth) {
      throw error("nested deeper than " + maxDepth + " levels");
    }
  }

  private boolean digit() {
    return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9';
  }

  private boolean peek(char c) {
    return i < s.length() && s.charAt(i) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error(i >= s.length() ? "the text ends where '" + c + "' should be" : "'" + c + "' expected, found '"
          + s.charAt(i) + "'");
    }
    i++;
  }

  private void ws() {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n' || s.charAt(i) == '\r')) {
      i++;
    }
  }

  private IllegalArgumentException error(String what) {
    int line = 1;
    int col = 1;
    for (int k = 0; k < Math.min(i, s.length()); k++) {
      if (s.charAt(k) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return new IllegalArgumentException(what + " (line " + line + ", column " + col + ")");
  }
}
