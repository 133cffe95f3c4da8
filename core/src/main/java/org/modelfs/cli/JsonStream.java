package org.modelfs.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pull reader of one JSON document (RFC 8259) from a {@link Reader}, for output that must not
 * hold the whole document: the caller walks objects key by key and arrays element by element,
 * reads the values it needs ({@link #value}, each list cut to a number of elements) and skips
 * the rest ({@link #skip}) without building it. Numbers are kept as the text written
 * ({@link Number}), so they are shown exactly as the document has them. Malformed text is an
 * {@link IOException} naming the line and column.
 */
final class JsonStream {
  /** A JSON number as written ({@code 1.0}, {@code -273014250715117663}, {@code 1e-5}). */
  record Number(String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** Stands for the elements of a list that {@link #value} left out: how many there were. */
  record More(long count) {
    @Override
    public String toString() {
      return "… (" + count + " more)";
    }
  }

  /** Nesting allowed (graph.json needs about 8 levels). */
  private static final int MAX_DEPTH = 64;

  private final Reader in;
  private final String name;
  private int peeked = -2;
  private long line = 1;
  private long column;
  private int depth;
  /** Bit {@code d - 1}: the object or array at depth {@code d} has had a key or element (a ',' comes next). */
  private long started;

  /** Reads from {@code in}; {@code name} (a file) is named in messages. */
  JsonStream(Reader in, String name) {
    this.in = in;
    this.name = name;
  }

  /** Reads '{'. */
  void beginObject() throws IOException {
    expect('{');
    enter();
  }

  /**
   * The next key of the object being read (after '{' or a value), or {@code null} at its '}',
   * which is consumed.
   */
  String nextKey() throws IOException {
    int c = peekToken();
    if (c == '}') {
      read();
      depth--;
      return null;
    }
    c = separator(c);
    if (c != '"') {
      throw error("expected a key in quotes or '}'");
    }
    String key = string(true);
    expect(':');
    return key;
  }

  /** Reads '['. */
  void beginArray() throws IOException {
    expect('[');
    enter();
  }

  /**
   * Whether another element of the array being read follows (the reader is then at it);
   * {@code false} at its ']', which is consumed.
   */
  boolean nextElement() throws IOException {
    int c = peekToken();
    if (c == ']') {
      read();
      depth--;
      return false;
    }
    separator(c);
    return true;
  }

  /**
   * The next value, built: {@code Map} (key order kept), {@code List}, {@code String},
   * {@link Number}, {@code Boolean} or {@code null}. A list keeps its first {@code maxElements}
   * elements and ends with a {@link More} for the rest, which are skipped unbuilt.
   */
  Object value(int maxElements) throws IOException {
    int c = peekToken();
    switch (c) {
      case '{' -> {
        beginObject();
        Map<String, Object> m = new LinkedHashMap<>();
        for (String k = nextKey(); k != null; k = nextKey()) {
          m.put(k, value(maxElements));
        }
        return m;
      }
      case '[' -> {
        beginArray();
        List<Object> l = new ArrayList<>();
        long more = 0;
        while (nextElement()) {
          if (l.size() < maxElements) {
            l.add(value(maxElements));
          } else {
            skip();
            more++;
          }
        }
        if (more > 0) {
          l.add(new More(more));
        }
        return l;
      }
      case '"' -> {
        return string(true);
      }
      default -> {
        return scalar();
      }
    }
  }

  /** Skips the next value without building it. */
  void skip() throws IOException {
    int c = peekToken();
    if (c == '{') {
      beginObject();
      while (nextKey() != null) {
        skip();
      }
    } else if (c == '[') {
      beginArray();
      while (nextElement()) {
        skip();
      }
    } else if (c == '"') {
      string(false);
    } else {
      scalar();
    }
  }

  /** Checks that nothing but white space follows the document. */
  void end() throws IOException {
    if (peekToken() != -1) {
      throw error("text after the end of the JSON value");
    }
  }

  private Object scalar() throws IOException {
    int c = peekToken();
    if (c == 't') {
      literal("true");
      return Boolean.TRUE;
    }
    if (c == 'f') {
      literal("false");
      return Boolean.FALSE;
    }
    if (c == 'n') {
      literal("null");
      return null;
    }
    if (c == '-' || c >= '0' && c <= '9') {
      StringBuilder sb = new StringBuilder();
      while (true) {
        int d = peek();
        if (d == '-' || d == '+' || d == '.' || d == 'e' || d == 'E' || d >= '0' && d <= '9') {
          sb.append((char) read());
        } else {
          break;
        }
      }
      if (!sb.toString().matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
        throw error("malformed number '" + sb + "'");
      }
      return new Number(sb.toString());
    }
    throw error(c == -1 ? "the text ends where a value should be" : "unexpected '" + (char) c + "'");
  }

  private void literal(String word) throws IOException {
    for (int i = 0; i < word.length(); i++) {
      if (read() != word.charAt(i)) {
        throw error("expected '" + word + "'");
      }
    }
  }

  /** A string at the reader ('"' next); built when {@code keep}, else only read. */
  private String string(boolean keep) throws IOException {
    read(); // the opening quote
    StringBuilder sb = keep ? new StringBuilder() : null;
    while (true) {
      int c = read();
      if (c == -1) {
        throw error("the text ends inside a string");
      }
      if (c == '"') {
        return keep ? sb.toString() : null;
      }
      if (c < 0x20) {
        throw error("a control character inside a string");
      }
      if (c == '\\') {
        int e = read();
        char ch = switch (e) {
          case '"' -> '"';
          case '\\' -> '\\';
          case '/' -> '/';
          case 'b' -> '\b';
          case 'f' -> '\f';
          case 'n' -> '\n';
          case 'r' -> '\r';
          case 't' -> '\t';
          case 'u' -> unicode();
          default -> throw error("unknown escape in a string");
        };
        if (keep) {
          sb.append(ch);
        }
      } else if (keep) {
        sb.append((char) c);
      }
    }
  }

  private char unicode() throws IOException {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(read(), 16);
      if (d < 0) {
        throw error("\\u needs four hexadecimal digits");
      }
      v = v << 4 | d;
    }
    return (char) v;
  }

  private void expect(char c) throws IOException {
    if (peekToken() != c) {
      throw error("expected '" + c + "'");
    }
    read();
  }

  private void enter() throws IOException {
    if (++depth > MAX_DEPTH) {
      throw error("nested more than " + MAX_DEPTH + " levels deep");
    }
    started &= ~(1L << (depth - 1));
  }

  /** Reads the ',' before every key or element but the first of its container; returns the next character. */
  private int separator(int c) throws IOException {
    long bit = 1L << (depth - 1);
    if ((started & bit) != 0) {
      if (c != ',') {
        throw error("expected ',' or the end of the list or object");
      }
      read();
      c = peekToken();
    } else if (c == ',') {
      throw error("unexpected ','");
    }
    started |= bit;
    return c;
  }

  /** The next character that is not white space, not consumed; -1 at the end. */
  private int peekToken() throws IOException {
    while (true) {
      int c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        read();
      } else {
        return c;
      }
    }
  }

  private int peek() throws IOException {
    if (peeked == -2) {
      peeked = in.read();
    }
    return peeked;
  }

  private int read() throws IOException {
    int c = peek();
    peeked = -2;
    if (c == '\n') {
      line++;
      column = 0;
    } else if (c != -1) {
      column++;
    }
    return c;
  }

  private IOException error(String what) {
    return new FileSystemException(name, null, "not valid JSON at line " + line + ", column "
        + (column + 1) + ": " + what);
  }
}
