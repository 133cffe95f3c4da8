package org.modelfs.provider;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import org.modelfs.testing.JsonTrees;

/**
 * How an input of {@link GraphJsonFuzzTest#write} becomes the graph.json written: mostly a real
 * rendering with a few edits, so that most inputs stay JSON, or nearly, and reach the checks
 * behind the syntax.
 *
 * <p>Byte 0 is the header: bits 0–1 pick the fixture (modulo their count), bit 2 ({@link #RAW})
 * takes the rest of the input as the document itself (the syntax layer, and libFuzzer's own byte
 * mutations of a whole rendering), bit 3 ({@link #EMPTY_TAG}) writes it into a tag without a graph
 * (a tag being copied file by file, docs/GRAPH.md §3.1). Otherwise the rest is a list of at most
 * {@link #MAX_EDITS} edits of the fixture's rendering, each six bytes — the kind
 * ({@link Kind}, modulo their count), two big-endian 16-bit positions {@code a} and {@code b}
 * (modulo what they index) and a text length — then that many bytes of text. Positions index the
 * <em>tokens</em> of the current document: every value (number, string, literal, array, object)
 * and every key, in document order, found by a lenient scan that also works on broken JSON.
 */
final class GraphJsonMutations {
  /** Header bit: the input after the header is the document as it is. */
  static final int RAW = 0x04;
  /** Header bit: written into a tag without a graph. */
  static final int EMPTY_TAG = 0x08;
  /** At most this many edits are applied. */
  static final int MAX_EDITS = 16;
  /** An edit that would make the document longer than this is skipped (duplications double it). */
  static final int MAX_DOC = 1 << 18;

  /** The edits, by the value of their kind byte (modulo their count). */
  enum Kind {
    /** Token {@code a} replaced by the text's bytes as they are. */
    REPLACE_TEXT,
    /** Token {@code a} replaced by the text as a JSON string (decoded as UTF-8, escaped). */
    REPLACE_STRING,
    /** Token {@code a} replaced by a copy of token {@code b}. */
    REPLACE_TOKEN,
    /** Token {@code a} replaced by {@link #INTERESTING}{@code [b]}. */
    INTERESTING_VALUE,
    /** Line {@code a} deleted. */
    DELETE_LINE,
    /** Line {@code a} repeated after itself. */
    DUPLICATE_LINE,
    /** Tokens {@code a} and {@code b} exchanged (neither inside the other). */
    SWAP_TOKENS,
    /** The string values {@code a} and {@code b} (keys left out) exchanged wherever either occurs: a swap of two names. */
    SWAP_NAMES,
    /** Token {@code a} removed with its key, if a member, and one comma: an element or member left out. */
    REMOVE_ELEMENT,
    /** Token {@code a} repeated after itself, with its key if a member: an element or member given twice. */
    DUPLICATE_ELEMENT
  }

  /**
   * Values the checks care about: integer bounds of every width, floating point extremes, the
   * strings that stand for NaN and the infinities, names of kinds, data types and op types,
   * positional argument names, array arguments, a nesting past the budget and a name longer than
   * any message may be.
   */
  static final List<String> INTERESTING = List.of(
      "0", "-1", "1", "-2", "2147483647", "2147483648", "-2147483648", "-2147483649",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "18446744073709551615", "18446744073709551616", "123456789012345678901234567890", "1e308", "1e309",
      "-1e309", "4.9e-324", "1e-400", "-0", "-0.0", "0.5", "1.0E10", "1e2147483648",
      "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"nan\"", "true", "false", "null", "\"\"", "[]", "{}",
      "[-1]", "[-2]", "[0, 0]", "[1, 2, 3]", "[0, -1]", "[2147483648, 0]", "[\"x\"]", "[null]",
      "\"FLOAT\"", "\"DOUBLE\"", "\"INT\"", "\"LONG\"", "\"BOOL\"", "\"UTF8\"", "\"HALF\"", "\"BFLOAT16\"",
      "\"UINT64\"", "\"UBYTE\"", "\"COMPRESSED\"", "\"UNKNOWN\"",
      "\"VARIABLE\"", "\"CONSTANT\"", "\"ARRAY\"", "\"PLACEHOLDER\"", "\"SEQUENCE\"",
      "\"CUSTOM\"", "\"SCALAR\"", "\"LOGIC\"", "\"REDUCE_BOOL\"", "\"TRANSFORM_STRICT\"", "\"RANDOM\"",
      "\"#0\"", "\"#1\"", "\"#7\"", "\"#-1\"", "\"#2147483648\"", "\"#1:0\"", "\"#99:0\"", "\"#1:-1\"",
      "\"a/b\"", "\"..\"", "\"x\\u0000y\"", "\"\\ud800\"", "\"\\u00e9\"",
      "\"matmul\"", "\"mmul\"", "\"ClipByValue\"", "\"clipbyvalue\"", "\"identity_n\"", "\"cumsum\"", "\"concat\"",
      "{\"dtype\": \"FLOAT\", \"shape\": [], \"values\": [0.0]}",
      "{\"dtype\": \"DOUBLE\", \"shape\": [1], \"values\": [\"NaN\"], \"order\": \"f\"}",
      "{\"dtype\": \"UTF8\", \"shape\": [2], \"values\": [\"a\", \"\"]}",
      "{\"dtype\": \"BOOL\", \"shape\": [1, 1], \"values\": [true]}",
      "{\"dtype\": \"UINT64\", \"shape\": [1], \"values\": [\"18446744073709551615\"]}",
      "{\"dtype\": \"HALF\", \"shape\": [1], \"values\": [65520.0]}",
      "{\"dtype\": \"INT\", \"shape\": [2, 1073741824], \"values\": []}",
      "{\"dtype\": \"FLOAT\", \"shape\": [-1], \"values\": []}",
      "{\"name\": \"p\", \"i\": [1], \"l\": [], \"d\": [], \"b\": [], \"s\": [\"s\"], \"shape\": [], \"a\": []}",
      "{\"name\": \"v\", \"kind\": \"VARIABLE\", \"dtype\": \"FLOAT\", \"shape\": [2], \"id\": [99, 0]}",
      "{\"name\": \"ph\", \"kind\": \"PLACEHOLDER\", \"dtype\": \"FLOAT\", \"shape\": [-1, 4], \"id\": [98, 0]}",
      "{\"name\": \"o\", \"opName\": \"relu\", \"opType\": \"CUSTOM\", \"opNum\": 0, \"id\": 97, \"inputs\": [],"
          + " \"outputs\": [], \"outputTypes\": []}",
      "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
      "\"" + "a".repeat(70_000) + "\"",
      "1" + "0".repeat(5_000));

  private GraphJsonMutations() {}

  /** The header byte of an input. */
  static int header(int fixture, boolean raw, boolean emptyTag) {
    return fixture | (raw ? RAW : 0) | (emptyTag ? EMPTY_TAG : 0);
  }

  /** An input that writes {@code json} as it is into fixture {@code fixture}. */
  static byte[] raw(int fixture, boolean emptyTag, byte[] json) {
    byte[] out = new byte[json.length + 1];
    out[0] = (byte) header(fixture, true, emptyTag);
    System.arraycopy(json, 0, out, 1, json.length);
    return out;
  }

  /** One edit of an input: its six bytes and its text. */
  static byte[] edit(Kind kind, int a, int b, byte[] text) {
    byte[] out = new byte[6 + text.length];
    out[0] = (byte) kind.ordinal();
    out[1] = (byte) (a >> 8);
    out[2] = (byte) a;
    out[3] = (byte) (b >> 8);
    out[4] = (byte) b;
    out[5] = (byte) text.length;
    System.arraycopy(text, 0, out, 6, text.length);
    return out;
  }

  /** An input that writes fixture {@code fixture}'s rendering with {@code edits} (each of {@link #edit}). */
  static byte[] edited(int fixture, boolean emptyTag, byte[]... edits) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(header(fixture, false, emptyTag));
    for (byte[] e : edits) {
      out.writeBytes(e);
    }
    return out.toByteArray();
  }

  /** Which fixture an input writes into. */
  static int fixture(byte[] input, int fixtures) {
    return input.length == 0 ? 0 : (input[0] & 3) % fixtures;
  }

  /** Whether an input writes into a tag without a graph. */
  static boolean emptyTag(byte[] input) {
    return input.length > 0 && (input[0] & EMPTY_TAG) != 0;
  }

  /** The graph.json an input writes, given the fixtures' renderings. */
  static byte[] document(byte[] input, List<byte[]> renderings) {
    byte[] doc = renderings.get(fixture(input, renderings.size()));
    if (input.length > 0 && (input[0] & RAW) != 0) {
      return Arrays.copyOfRange(input, 1, input.length);
    }
    int pos = 1;
    for (int edits = 0; pos + 6 <= input.length && edits < MAX_EDITS; edits++) {
      Kind kind = Kind.values()[(input[pos] & 0xff) % Kind.values().length];
      int a = (input[pos + 1] & 0xff) << 8 | (input[pos + 2] & 0xff);
      int b = (input[pos + 3] & 0xff) << 8 | (input[pos + 4] & 0xff);
      int len = Math.min(input[pos + 5] & 0xff, input.length - pos - 6);
      byte[] text = Arrays.copyOfRange(input, pos + 6, pos + 6 + len);
      pos += 6 + len;
      byte[] next = apply(doc, kind, a, b, text);
      if (next.length <= MAX_DOC) {
        doc = next;
      }
    }
    return doc;
  }

  /** {@code doc} with one edit. */
  static byte[] apply(byte[] doc, Kind kind, int a, int b, byte[] text) {
    List<Token> tokens = tokens(doc);
    if (kind == Kind.DELETE_LINE || kind == Kind.DUPLICATE_LINE) {
      return lineEdit(doc, kind == Kind.DUPLICATE_LINE, a);
    }
    if (tokens.isEmpty()) {
      return doc;
    }
    Token ta = tokens.get(a % tokens.size());
    Token tb = tokens.get(b % tokens.size());
    switch (kind) {
      case REPLACE_TEXT:
        return splice(doc, ta.start, ta.end, text);
      case REPLACE_STRING:
        return splice(doc, ta.start, ta.end,
            JsonTrees.write(new String(text, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
      case REPLACE_TOKEN:
        return splice(doc, ta.start, ta.end, Arrays.copyOfRange(doc, tb.start, tb.end));
      case INTERESTING_VALUE:
        return splice(doc, ta.start, ta.end, INTERESTING.get(b % INTERESTING.size()).getBytes(StandardCharsets.UTF_8));
      case SWAP_TOKENS:
        return swap(doc, ta, tb);
      case SWAP_NAMES:
        return swapNames(doc, tokens, a, b);
      case REMOVE_ELEMENT:
        return remove(doc, ta);
      case DUPLICATE_ELEMENT:
        byte[] copy = Arrays.copyOfRange(doc, ta.memberStart, ta.end);
        byte[] inserted = new byte[copy.length + 2];
        inserted[0] = ',';
        inserted[1] = ' ';
        System.arraycopy(copy, 0, inserted, 2, copy.length);
        return splice(doc, ta.end, ta.end, inserted);
      default:
        throw new AssertionError(kind);
    }
  }

  /**
   * A token: a value, or a key ({@code key}); {@code memberStart} is where its member starts (its
   * key) for a value in an object, else its own start.
   */
  record Token(int start, int end, boolean string, boolean key, int memberStart) {}

  /** Every token of {@code d} in document order (a lenient scan: unbalanced brackets and open strings are taken as they come). */
  static List<Token> tokens(byte[] d) {
    List<Token> out = new ArrayList<>();
    // each open bracket: {start, 1 if an array, its member start, the start of its last key or -1}
    Deque<int[]> open = new ArrayDeque<>();
    for (int i = 0; i < d.length; i++) {
      int c = d[i];
      int[] top = open.peek();
      if (c == '"') {
        int j = stringEnd(d, i);
        int k = skipWhitespace(d, j);
        if (top != null && top[1] == 0 && k < d.length && d[k] == ':') {
          top[3] = i;
          out.add(new Token(i, j, true, true, i));
        } else {
          out.add(new Token(i, j, true, false, memberStart(top, i)));
        }
        i = j - 1;
      } else if (c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
        int j = i;
        while (j < d.length && (d[j] == '-' || d[j] == '+' || d[j] == '.' || d[j] >= '0' && d[j] <= '9'
            || d[j] >= 'a' && d[j] <= 'z' || d[j] == 'E')) {
          j++;
        }
        out.add(new Token(i, j, false, false, memberStart(top, i)));
        i = j - 1;
      } else if (c == '[' || c == '{') {
        open.push(new int[] {i, c == '[' ? 1 : 0, memberStart(top, i), -1});
      } else if ((c == ']' || c == '}') && !open.isEmpty()) {
        int[] f = open.pop();
        out.add(new Token(f[0], i + 1, false, false, f[2]));
      } else if (c == ',' && top != null) {
        top[3] = -1;
      }
    }
    out.sort(Comparator.comparingInt(Token::start));
    return out;
  }

  private static int memberStart(int[] parent, int start) {
    return parent != null && parent[1] == 0 && parent[3] >= 0 ? parent[3] : start;
  }

  /** The index after the string opening at {@code i} (its closing quote included), or the end. */
  private static int stringEnd(byte[] d, int i) {
    int j = i + 1;
    while (j < d.length && d[j] != '"' && d[j] != '\n') {
      j += d[j] == '\\' ? 2 : 1;
    }
    return Math.min(d.length, j + 1);
  }

  private static int skipWhitespace(byte[] d, int i) {
    while (i < d.length && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t')) {
      i++;
    }
    return i;
  }

  private static byte[] lineEdit(byte[] doc, boolean duplicate, int a) {
    List<Integer> starts = new ArrayList<>(List.of(0));
    for (int i = 0; i < doc.length; i++) {
      if (doc[i] == '\n' && i + 1 < doc.length) {
        starts.add(i + 1);
      }
    }
    int k = a % starts.size();
    int from = starts.get(k);
    int to = k + 1 < starts.size() ? starts.get(k + 1) : doc.length;
    return duplicate ? splice(doc, to, to, Arrays.copyOfRange(doc, from, to)) : splice(doc, from, to, new byte[0]);
  }

  private static byte[] swap(byte[] doc, Token x, Token y) {
    if (x.start > y.start) {
      return swap(doc, y, x);
    }
    if (x.end > y.start) {
      return doc; // the same token, or one inside the other
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(doc.length);
    out.write(doc, 0, x.start);
    out.write(doc, y.start, y.end - y.start);
    out.write(doc, x.end, y.start - x.end);
    out.write(doc, x.start, x.end - x.start);
    out.write(doc, y.end, doc.length - y.end);
    return out.toByteArray();
  }

  private static byte[] swapNames(byte[] doc, List<Token> tokens, int a, int b) {
    List<Token> strings = tokens.stream().filter(t -> t.string && !t.key).toList();
    if (strings.isEmpty()) {
      return doc;
    }
    byte[] x = text(doc, strings.get(a % strings.size()));
    byte[] y = text(doc, strings.get(b % strings.size()));
    if (Arrays.equals(x, y)) {
      return doc;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(doc.length);
    int pos = 0;
    for (Token t : strings) {
      byte[] s = text(doc, t);
      byte[] with = Arrays.equals(s, x) ? y : Arrays.equals(s, y) ? x : null;
      if (with != null) {
        out.write(doc, pos, t.start - pos);
        out.writeBytes(with);
        pos = t.end;
      }
    }
    out.write(doc, pos, doc.length - pos);
    return out.toByteArray();
  }

  private static byte[] remove(byte[] doc, Token t) {
    int from = t.memberStart;
    int to = t.end;
    int after = skipWhitespace(doc, to);
    if (after < doc.length && doc[after] == ',') {
      to = skipWhitespace(doc, after + 1);
    } else {
      int before = from - 1;
      while (before >= 0 && (doc[before] == ' ' || doc[before] == '\n' || doc[before] == '\r' || doc[before] == '\t')) {
        before--;
      }
      if (before >= 0 && doc[before] == ',') {
        from = before;
      }
    }
    return splice(doc, from, to, new byte[0]);
  }

  private static byte[] text(byte[] doc, Token t) {
    return Arrays.copyOfRange(doc, t.start, t.end);
  }

  private static byte[] splice(byte[] doc, int from, int to, byte[] with) {
    byte[] out = new byte[doc.length - (to - from) + with.length];
    System.arraycopy(doc, 0, out, 0, from);
    System.arraycopy(with, 0, out, from, with.length);
    System.arraycopy(doc, to, out, from + with.length, doc.length - to);
    return out;
  }
}
