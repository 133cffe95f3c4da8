package org.modelfs.exchange;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;

/**
 * NumPy's {@code .npy} format (numpy/lib/format.py): the magic {@code \x93NUMPY}, a version
 * (1.0: 2-byte header length; 2.0: 4-byte; 3.0: 4-byte and a UTF-8 header), the header — a
 * Python dict literal {@code {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }} —
 * then the elements in C or Fortran order.
 *
 * <p>Headers are written byte for byte as NumPy 1.24 and later write them ({@code np.save}): keys
 * sorted, {@code fortran_order} True only where the order changes the layout, values
 * in Python's {@code repr}, 21 minus the digits of the growth axis' length spaces of room (the
 * first dimension, the last one for Fortran order; none for a scalar), then spaces and a newline
 * so that magic, length and header end on a multiple of 64 bytes; version 1.0 unless the header
 * is longer than 65535 bytes (never, for the dtypes we write).
 */
public final class Npy {
  /** The first six bytes of every {@code .npy} file. */
  static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  /** NumPy's {@code _MAX_HEADER_SIZE}: longer headers are refused, as {@code np.load} does by default. */
  public static final int MAX_HEADER_BYTES = 10_000;
  private static final int ARRAY_ALIGN = 64;
  private static final int GROWTH_AXIS_MAX_DIGITS = 21;

  private Npy() {}

  /** A parsed header and where the data starts. */
  public record Header(String descr, DType dtype, long[] shape, boolean fortranOrder, boolean bigEndian,
      long dataOffset) {
    public Header {
      shape = shape.clone();
    }

    @Override
    public long[] shape() {
      return shape.clone();
    }

    /** {@code 'f'} for Fortran order, else {@code 'c'}. */
    public char order() {
      return fortranOrder ? 'f' : 'c';
    }

    /** Bytes of element data. */
    public long dataLength() {
      return Shapes.byteLength(shape, dtype.width());
    }
  }

  /**
   * The NumPy dtype string of {@code t}, e.g. {@code <f4}; {@code <u2} for BFLOAT16 only when
   * {@code rawBfloat16} (the raw bit patterns). {@code what} names the array in the refusal.
   */
  public static String descr(DType t, boolean rawBfloat16, String what) throws ExchangeException {
    return switch (t) {
      case DOUBLE -> "<f8";
      case FLOAT -> "<f4";
      case HALF -> "<f2";
      case INT64 -> "<i8";
      case INT32 -> "<i4";
      case INT16 -> "<i2";
      case INT8 -> "|i1";
      case UINT8 -> "|u1";
      case UINT16 -> "<u2";
      case UINT32 -> "<u4";
      case UINT64 -> "<u8";
      case BOOL -> "|b1";
      case BFLOAT16 -> {
        if (rawBfloat16) {
          yield "<u2";
        }
        throw new ExchangeException(what, "BFLOAT16 has no NumPy dtype; give --raw-bfloat16 to export its raw bit"
            + " patterns as uint16 ('<u2'; ml_dtypes' .view(bfloat16) reads them), or export to .safetensors (BF16)");
      }
      case UTF8 -> throw new ExchangeException(what, "a UTF8 (string) array has no NumPy equivalent without pickling");
      default -> throw new ExchangeException(what, t + " has no NumPy dtype");
    };
  }

  /**
   * Whether c and f order lay the array out alike: it has no elements, or at most one dimension
   * longer than 1. NumPy calls such an array both C- and Fortran-contiguous and writes
   * {@code 'fortran_order': False} for it.
   */
  public static boolean orderFree(long[] shape) {
    return Shapes.elementCount(shape) == 0 || Arrays.stream(shape).filter(d -> d > 1).count() <= 1;
  }

  /**
   * The complete header NumPy writes for this array: magic, version, length, dict, padding,
   * newline. {@code fortran_order} is True for an f-ordered array unless {@link #orderFree}.
   */
  public static byte[] header(DType t, long[] shape, char order, boolean rawBfloat16, String what)
      throws ExchangeException {
    boolean fortran = order == 'f' && !orderFree(shape);
    StringBuilder h = new StringBuilder("{'descr': '").append(descr(t, rawBfloat16, what)).append("', 'fortran_order': ")
        .append(fortran ? "True" : "False").append(", 'shape': ").append(shapeRepr(shape)).append(", }");
    if (shape.length > 0) {
      long growth = shape[fortran ? shape.length - 1 : 0];
      h.append(" ".repeat(Math.max(0, GROWTH_AXIS_MAX_DIGITS - Long.toString(growth).length())));
    }
    byte[] text = h.toString().getBytes(StandardCharsets.ISO_8859_1); // ASCII: dtypes and digits only
    int hlen = text.length + 1;
    int major = 1;
    int lengthBytes = 2;
    int pad = ARRAY_ALIGN - (MAGIC.length + 2 + lengthBytes + hlen) % ARRAY_ALIGN;
    if (hlen + pad > 0xFFFF) {
      major = 2;
      lengthBytes = 4;
      pad = ARRAY_ALIGN - (MAGIC.length + 2 + lengthBytes + hlen) % ARRAY_ALIGN;
    }
    ByteBuffer b = ByteBuffer.allocate(MAGIC.length + 2 + lengthBytes + hlen + pad).order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC).put((byte) major).put((byte) 0);
    if (lengthBytes == 2) {
      b.putShort((short) (hlen + pad));
    } else {
      b.putInt(hlen + pad);
    }
    b.put(text);
    for (int i = 0; i < pad; i++) {
      b.put((byte) ' ');
    }
    b.put((byte) '\n');
    return b.array();
  }

  /** Python's repr of a shape tuple: {@code ()}, {@code (3,)}, {@code (2, 3)}. */
  static String shapeRepr(long[] shape) {
    if (shape.length == 1) {
      return "(" + shape[0] + ",)";
    }
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < shape.length; i++) {
      sb.append(i > 0 ? ", " : "").append(shape[i]);
    }
    return sb.append(')').toString();
  }

  /**
   * Writes {@code data}'s array ({@code length} little-endian bytes at {@code position}, in
   * {@code order}) to {@code out} as a {@code .npy} file.
   */
  public static void write(WritableByteChannel out, DType t, long[] shape, char order, boolean rawBfloat16,
      FileChannel data, long position, long length, String what, LongConsumer progress) throws IOException {
    long need = Shapes.byteLength(shape, t.width());
    if (need != length) {
      throw new ExchangeException(what, "holds " + length + " bytes, but " + Shapes.needs(t, shape, t.width()));
    }
    ArrayCopy.writeFully(out, ByteBuffer.wrap(header(t, shape, order, rawBfloat16, what)));
    ArrayCopy.copy(data, position, length, t.width(), false, out, progress);
  }

  /**
   * Copies the elements of a file whose header is {@code h} to {@code out}, little-endian, in
   * the file's order.
   */
  public static void copyData(FileChannel in, Header h, WritableByteChannel out, LongConsumer progress)
      throws IOException {
    ArrayCopy.copy(in, h.dataOffset(), h.dataLength(), h.dtype().width(), h.bigEndian(), out, progress);
  }

  /**
   * Reads and checks the header of the {@code .npy} file open as {@code in} ({@code file}
   * names it in messages): the version, a header within {@link #MAX_HEADER_BYTES}, the three
   * keys and nothing else, a dtype ModelFS holds, and exactly the data the shape needs after it.
   * {@code rawBfloat16} reads {@code <u2} as BFLOAT16 bit patterns.
   */
  public static Header readHeader(FileChannel in, String file, boolean rawBfloat16) throws IOException {
    long size = in.size();
    ByteBuffer pre = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    pre.limit((int) Math.min(12, size));
    in.read(pre, 0);
    while (pre.hasRemaining() && in.read(pre, pre.position()) > 0) {
      // short reads
    }
    pre.flip();
    byte[] magic = new byte[Math.min(MAGIC.length, pre.limit())];
    pre.get(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new ExchangeException(file, "not a NumPy .npy file (it does not start with \\x93NUMPY)");
    }
    if (pre.remaining() < 4) {
      throw new ExchangeException(file, "the file ends inside the .npy preamble");
    }
    int major = pre.get() & 0xff;
    int minor = pre.get() & 0xff;
    long hlen;
    int start;
    if (major == 1 && minor == 0) {
      hlen = pre.getShort() & 0xffff;
      start = 10;
    } else if ((major == 2 || major == 3) && minor == 0) {
      if (pre.remaining() < 4) {
        throw new ExchangeException(file, "the file ends inside the .npy preamble");
      }
      hlen = pre.getInt() & 0xffffffffL;
      start = 12;
    } else {
      throw new ExchangeException(file, ".npy format version " + major + "." + minor
          + " is not one we read (1.0, 2.0, 3.0)");
    }
    if (hlen > MAX_HEADER_BYTES) {
      throw new ExchangeException(file, "the .npy header is " + hlen + " bytes; at most " + MAX_HEADER_BYTES
          + " are accepted (NumPy's own default limit)");
    }
    if (start + hlen > size) {
      throw new ExchangeException(file, "the file ends inside the .npy header (" + size + " bytes, header says "
          + (start + hlen) + ")");
    }
    ByteBuffer hb = ByteBuffer.allocate((int) hlen);
    ArrayCopy.readFully(in, hb, start);
    hb.flip();
    String text;
    try {
      text = (major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1).newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT).decode(hb)
          .toString();
    } catch (CharacterCodingException e) {
      throw new ExchangeException(file, "the .npy 3.0 header is not UTF-8");
    }
    Header h = parse(text, file, rawBfloat16, start + hlen);
    long need = h.dataLength();
    long have = size - h.dataOffset();
    if (have != need) {
      throw new ExchangeException(file, (have < need ? "the file ends early: " : "the file is longer than its array: ")
          + have + " bytes of data, but " + h.descr() + " " + Arrays.toString(h.shape()) + " needs " + need
          + (have > need ? " (more than one array in one file is not read)" : ""));
    }
    return h;
  }

  /** Parses the header dict; {@code dataOffset} is where the data starts. */
  static Header parse(String text, String file, boolean rawBfloat16, long dataOffset) throws ExchangeException {
    Object v;
    try {
      Literal p = new Literal(text);
      v = p.value(0);
      p.ws();
      if (p.i != text.length()) {
        throw p.error("text after the dict");
      }
    } catch (IllegalArgumentException e) {
      throw new ExchangeException(file, "the .npy header is not a Python dict literal: " + e.getMessage());
    }
    if (!(v instanceof Map<?, ?> d)) {
      throw new ExchangeException(file, "the .npy header is not a dict");
    }
    for (Object k : d.keySet()) {
      if (!List.of("descr", "fortran_order", "shape").contains(k)) {
        throw new ExchangeException(file, "the .npy header has a key " + repr(k)
            + "; it holds exactly 'descr', 'fortran_order' and 'shape'");
      }
    }
    for (String k : List.of("descr", "fortran_order", "shape")) {
      if (!d.containsKey(k)) {
        throw new ExchangeException(file, "the .npy header lacks '" + k + "'");
      }
    }
    if (!(d.get("fortran_order") instanceof Boolean fortran)) {
      throw new ExchangeException(file, "'fortran_order' is " + repr(d.get("fortran_order")) + ", not True or False");
    }
    if (!(d.get("shape") instanceof Tuple shapeTuple)) {
      throw new ExchangeException(file, "'shape' is " + repr(d.get("shape")) + ", not a tuple of integers");
    }
    long[] shape = new long[shapeTuple.items().size()];
    for (int i = 0; i < shape.length; i++) {
      if (!(shapeTuple.items().get(i) instanceof Long dim) || dim < 0) {
        throw new ExchangeException(file, "'shape' " + repr(shapeTuple) + " has " + repr(shapeTuple.items().get(i))
            + "; dimensions are integers ≥ 0");
      }
      shape[i] = dim;
    }
    if (shape.length > Shapes.MAX_RANK) {
      throw new ExchangeException(file, "rank " + shape.length + "; ND4J arrays have at most " + Shapes.MAX_RANK
          + " dimensions");
    }
    Object descr = d.get("descr");
    if (descr instanceof List<?>) {
      throw new ExchangeException(file, "a structured dtype (fields " + repr(descr)
          + "); a ModelFS array has one element type");
    }
    if (!(descr instanceof String ds)) {
      throw new ExchangeException(file, "'descr' is " + repr(descr) + ", not a dtype string");
    }
    DType t = dtypeOf(ds, rawBfloat16, file);
    if (Shapes.sizeProblem(shape, t.width()) != null) {
      throw new ExchangeException(file, t + " " + Shapes.sizeProblem(shape, t.width()));
    }
    boolean big = ds.startsWith(">") || ds.startsWith("!");
    return new Header(ds, t, shape, fortran, big && t.width() > 1, dataOffset);
  }

  /** The ModelFS type of a NumPy dtype string ({@code <f4}, {@code >i8}, {@code |b1}, …). */
  static DType dtypeOf(String descr, boolean rawBfloat16, String file) throws ExchangeException {
    String s = descr;
    char byteOrder = '=';
    if (!s.isEmpty() && "<>|=!".indexOf(s.charAt(0)) >= 0) {
      byteOrder = s.charAt(0);
      s = s.substring(1);
    }
    if (s.startsWith("O")) {
      throw new ExchangeException(file, "dtype '" + descr + "' is an object array (pickled Python objects);"
          + " ModelFS arrays hold numbers");
    }
    if (s.length() < 2 || !s.substring(1).chars().allMatch(Character::isDigit)) {
      throw new ExchangeException(file, "dtype '" + descr + "' is not one ModelFS holds" + supported());
    }
    char kind = s.charAt(0);
    int size = Integer.parseInt(s.substring(1));
    DType t = switch (kind) {
      case 'f' -> size == 8 ? DType.DOUBLE : size == 4 ? DType.FLOAT : size == 2 ? DType.HALF : null;
      case 'i' -> size == 8 ? DType.INT64 : size == 4 ? DType.INT32 : size == 2 ? DType.INT16 : size == 1 ? DType.INT8 : null;
      case 'u' -> size == 8 ? DType.UINT64 : size == 4 ? DType.UINT32 : size == 2 ? (rawBfloat16 ? DType.BFLOAT16 : DType.UINT16)
          : size == 1 ? DType.UINT8 : null;
      case 'b' -> size == 1 ? DType.BOOL : null;
      default -> null;
    };
    if (t == null) {
      String what = switch (kind) {
        case 'c' -> " (complex numbers)";
        case 'U', 'S', 'a' -> " (fixed-width strings)";
        case 'V' -> " (raw void records)";
        case 'M', 'm' -> " (dates and times)";
        case 'f' -> " (a float width ModelFS has no type for)";
        default -> "";
      };
      throw new ExchangeException(file, "dtype '" + descr + "'" + what + " has no ModelFS type" + supported());
    }
    if (byteOrder == '|' && t.width() > 1) {
      throw new ExchangeException(file, "dtype '" + descr + "' says 'not applicable' for a byte order its "
          + t.width() + "-byte elements need");
    }
    return t;
  }

  private static String supported() {
    return "; accepted: f8 f4 f2 i8 i4 i2 i1 u8 u4 u2 u1 b1, little- or big-endian";
  }

  static String repr(Object v) {
    if (v instanceof String s) {
      return "'" + s + "'";
    }
    if (v instanceof Boolean b) {
      return b ? "True" : "False";
    }
    return String.valueOf(v);
  }

  /** A Python tuple (a list would be refused as a shape, as NumPy does). */
  record Tuple(List<Object> items) {
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("(");
      for (int i = 0; i < items.size(); i++) {
        sb.append(i > 0 ? ", " : "").append(repr(items.get(i)));
      }
      return sb.append(items.size() == 1 ? ",)" : ")").toString();
    }
  }

  /**
   * The subset of Python literals {@code .npy} headers use: dicts, tuples, lists, strings in
   * single or double quotes, integers (with Python 2's {@code L} suffix), {@code True},
   * {@code False}, {@code None}; nesting at most 16 deep.
   */
  private static final class Literal {
    private final String s;
    int i;

    Literal(String s) {
      this.s = s;
    }

    void ws() {
      while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException(what + " at character " + (i + 1));
    }

    Object value(int depth) {
      if (depth > 16) {
        throw error("nested too deeply");
      }
      ws();
      if (i >= s.length()) {
        throw error("the header ends where a value should be");
      }
      char c = s.charAt(i);
      if (c == '{') {
        i++;
        Map<Object, Object> m = new LinkedHashMap<>();
        for (;;) {
          ws();
          if (peek('}')) {
            return m;
          }
          Object k = value(depth + 1);
          ws();
          expect(':');
          Object v = value(depth + 1);
          if (m.put(k, v) != null) {
            throw error("key " + repr(k) + " given twice");
          }
          ws();
          if (!peek(',')) {
            ws();
            expect('}');
            return m;
          }
        }
      }
      if (c == '(' || c == '[') {
        char close = c == '(' ? ')' : ']';
        i++;
        List<Object> items = new ArrayList<>();
        boolean comma = false;
        for (;;) {
          ws();
          if (peek(close)) {
            break;
          }
          items.add(value(depth + 1));
          ws();
          comma = peek(',');
          if (!comma) {
            ws();
            expect(close);
            break;
          }
        }
        if (c == '(' && items.size() == 1 && !comma) {
          return items.get(0); // (x) is x, not a tuple
        }
        return c == '(' ? new Tuple(items) : items;
      }
      if (c == '\'' || c == '"') {
        return string(c);
      }
      if (c == '-' || Character.isDigit(c)) {
        int st = i;
        if (c == '-') {
          i++;
        }
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
          i++;
        }
        String digits = s.substring(st, i);
        if (i < s.length() && (s.charAt(i) == 'L' || s.charAt(i) == 'l')) {
          i++;
        }
        try {
          return Long.parseLong(digits);
        } catch (NumberFormatException e) {
          throw error("integer '" + digits + "' out of range");
        }
      }
      for (String word : List.of("True", "False", "None")) {
        if (s.startsWith(word, i)) {
          i += word.length();
          return word.equals("None") ? "None" : Boolean.valueOf(word.equals("True"));
        }
      }
      throw error("unexpected '" + c + "'");
    }

    private String string(char quote) {
      i++;
      StringBuilder sb = new StringBuilder();
      while (i < s.length() && s.charAt(i) != quote) {
        char c = s.charAt(i++);
        if (c == '\\' && i < s.length()) {
          char e = s.charAt(i++);
          sb.append(switch (e) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case '0' -> '\0';
            default -> e;
          });
        } else if (c == '\n') {
          throw error("a line break inside a string");
        } else {
          sb.append(c);
        }
      }
      if (i >= s.length()) {
        throw error("a string is not closed");
      }
      i++;
      return sb.toString();
    }

    private boolean peek(char c) {
      if (i < s.length() && s.charAt(i) == c) {
        i++;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      if (!peek(c)) {
        throw error(i < s.length() ? "expected '" + c + "', found '" + s.charAt(i) + "'" : "expected '" + c + "'");
      }
    }
  }
}
