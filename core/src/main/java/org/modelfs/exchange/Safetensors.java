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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;
import org.modelfs.format.JsonString;
import org.modelfs.format.JsonText;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;

/**
 * The safetensors format: an 8-byte little-endian header length {@code N}, {@code N} bytes of
 * UTF-8 JSON — {@code {"__metadata__": {str: str}, "<name>": {"dtype": "F32", "shape": [2, 3],
 * "data_offsets": [begin, end]}, …}} padded with spaces so the data starts on a multiple of 8 —
 * then the tensors' bytes, little-endian and row-major, offsets relative to the end of the
 * header.
 *
 * <p>Written as the reference implementation writes it: compact JSON, {@code __metadata__} first
 * (only when there is metadata), tensors laid out by element width, widest first (so each one
 * starts on a multiple of its width), in the order given within a width; offsets contiguous from
 * 0. Read with the reference implementation's checks: a header of at most
 * {@link #MAX_HEADER_BYTES}, JSON object, known dtypes, every tensor exactly
 * {@code prod(shape) × width} bytes, the tensors covering the data without gap or overlap, and
 * nothing after them.
 */
public final class Safetensors {
  /**
   * Largest header read (16 MiB: about 150,000 tensors). The reference implementation allows
   * 100 MB; a header is parsed in the heap, so ours is smaller.
   */
  public static final long MAX_HEADER_BYTES = 16L << 20;
  /** The key of the string-to-string metadata map. */
  public static final String METADATA = "__metadata__";

  private Safetensors() {}

  /** One tensor of a file: offsets relative to the start of the data. */
  public record Tensor(String name, DType dtype, long[] shape, long begin, long end) {
    public Tensor {
      shape = shape.clone();
    }

    @Override
    public long[] shape() {
      return shape.clone();
    }

    public long length() {
      return end - begin;
    }
  }

  /** A file's header: its tensors in the header's order, its metadata, and where the data starts. */
  public record Header(List<Tensor> tensors, Map<String, String> metadata, long dataStart) {}

  /** Opens the channel an array's little-endian bytes are read from. */
  @FunctionalInterface
  public interface Opener {
    FileChannel open() throws IOException;
  }

  /**
   * An array to write: its name (any string), type, shape, stored order, and its bytes (the whole
   * content of the channel {@code data} opens, little-endian, in {@code order}).
   */
  public record Entry(String name, DType dtype, long[] shape, char order, Opener data) {}

  private static final List<DType> TYPES = List.of(DType.DOUBLE, DType.FLOAT, DType.HALF, DType.BFLOAT16,
      DType.INT64, DType.INT32, DType.INT16, DType.INT8, DType.UINT8, DType.UINT16, DType.UINT32, DType.UINT64,
      DType.BOOL);
  private static final List<String> NAMES = List.of("F64", "F32", "F16", "BF16", "I64", "I32", "I16", "I8", "U8",
      "U16", "U32", "U64", "BOOL");

  /** The safetensors dtype of {@code t} ({@code F32}, …), or {@code null} when it has none (UTF8, FLOAT8, QINT8, QINT16). */
  public static String dtypeName(DType t) {
    int i = TYPES.indexOf(t);
    return i < 0 ? null : NAMES.get(i);
  }

  /** The ModelFS type of a safetensors dtype name, or {@code null}. */
  public static DType dtype(String name) {
    int i = NAMES.indexOf(name);
    return i < 0 ? null : TYPES.get(i);
  }

  /**
   * Where each entry's bytes go: tensors in the order they are written, widest elements first,
   * the given order kept within a width.
   */
  public static List<Tensor> layout(List<Entry> entries) {
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingInt((Entry e) -> -e.dtype().width()));
    List<Tensor> out = new ArrayList<>();
    long at = 0;
    for (Entry e : sorted) {
      long len = Shapes.byteLength(e.shape(), e.dtype().width());
      out.add(new Tensor(e.name(), e.dtype(), e.shape(), at, at + len));
      at += len;
    }
    return out;
  }

  /** The first {@code 8 + N} bytes of the file: length and padded JSON header. */
  public static byte[] header(List<Tensor> tensors, Map<String, String> metadata) {
    StringBuilder j = new StringBuilder("{");
    if (!metadata.isEmpty()) {
      j.append(string(METADATA)).append(":{");
      boolean first = true;
      for (Map.Entry<String, String> m : metadata.entrySet()) {
        j.append(first ? "" : ",").append(string(m.getKey())).append(':').append(string(m.getValue()));
        first = false;
      }
      j.append('}');
    }
    for (Tensor t : tensors) {
      j.append(j.length() > 1 ? "," : "").append(string(t.name())).append(":{\"dtype\":")
          .append(string(dtypeName(t.dtype()))).append(",\"shape\":[");
      long[] s = t.shape();
      for (int i = 0; i < s.length; i++) {
        j.append(i > 0 ? "," : "").append(s[i]);
      }
      j.append("],\"data_offsets\":[").append(t.begin()).append(',').append(t.end()).append("]}");
    }
    j.append('}');
    byte[] json = j.toString().getBytes(StandardCharsets.UTF_8);
    int pad = (8 - json.length % 8) % 8;
    ByteBuffer b = ByteBuffer.allocate(8 + json.length + pad).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(json.length + pad).put(json);
    for (int i = 0; i < pad; i++) {
      b.put((byte) ' ');
    }
    return b.array();
  }

  /** A JSON string as serde_json writes it ({@link JsonString}). */
  static String string(String s) {
    return JsonString.quote(s);
  }

  /**
   * Writes a safetensors file of {@code entries} to {@code out}: the header, then each array
   * streamed — c-ordered arrays as they are, f-ordered ones transposed to row-major on the way
   * ({@link ArrayCopy#fToC}). {@code file} names the output in messages.
   */
  public static void write(WritableByteChannel out, List<Entry> entries, Map<String, String> metadata, String file,
      LongConsumer progress) throws IOException {
    Map<String, Entry> byName = new LinkedHashMap<>();
    for (Entry e : entries) {
      if (dtypeName(e.dtype()) == null) {
        throw new ExchangeException(e.name(), e.dtype() + " has no safetensors dtype");
      }
      if (Shapes.sizeProblem(e.shape(), e.dtype().width()) != null) {
        throw new ExchangeException(e.name(), e.dtype() + " " + Shapes.sizeProblem(e.shape(), e.dtype().width()));
      }
      if (byName.put(e.name(), e) != null || e.name().equals(METADATA)) {
        throw new ExchangeException(file, "two tensors would be named '" + e.name() + "'");
      }
    }
    List<Tensor> layout = layout(entries);
    ArrayCopy.writeFully(out, ByteBuffer.wrap(header(layout, metadata)));
    for (Tensor t : layout) {
      Entry e = byName.get(t.name());
      try (FileChannel in = e.data().open()) {
        if (in.size() != t.length()) {
          throw new ExchangeException(e.name(), "holds " + in.size() + " bytes, but " + e.dtype()
              + Arrays.toString(e.shape()) + " needs " + t.length());
        }
        if (e.order() == 'f') {
          ArrayCopy.fToC(in, 0, e.shape(), e.dtype().width(), out, progress);
        } else {
          ArrayCopy.copy(in, 0, t.length(), e.dtype().width(), false, out, progress);
        }
      }
    }
  }

  /**
   * Copies tensor {@code t} of a file read as {@code h} to {@code out} in {@code order}: as it
   * is for c, transposed ({@link ArrayCopy#cToF}) for f.
   */
  public static void copyData(FileChannel in, Header h, Tensor t, char order, WritableByteChannel out,
      LongConsumer progress) throws IOException {
    if (order == 'f') {
      ArrayCopy.cToF(in, h.dataStart() + t.begin(), t.shape(), t.dtype().width(), out, progress);
    } else {
      ArrayCopy.copy(in, h.dataStart() + t.begin(), t.length(), t.dtype().width(), false, out, progress);
    }
  }

  /** Reads and checks the header of the safetensors file open as {@code in}; {@code file} names it in messages. */
  public static Header read(FileChannel in, String file) throws IOException {
    long size = in.size();
    if (size < 8) {
      throw new ExchangeException(file, "not a safetensors file (" + size + " bytes; it starts with an 8-byte header length)");
    }
    ByteBuffer len = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    ArrayCopy.readFully(in, len, 0);
    long n = len.flip().getLong();
    if (n < 0 || n > MAX_HEADER_BYTES) {
      throw new ExchangeException(file, "not a safetensors file, or a header beyond our budget: the header length says "
          + Long.toUnsignedString(n) + " bytes; at most " + MAX_HEADER_BYTES + " are read");
    }
    if (8 + n > size) {
      throw new ExchangeException(file, "the file ends inside the header (" + size + " bytes, header length says "
          + (8 + n) + ")");
    }
    ByteBuffer hb = ByteBuffer.allocate((int) n);
    ArrayCopy.readFully(in, hb, 8);
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(hb.flip()).toString();
    } catch (CharacterCodingException e) {
      throw new ExchangeException(file, "the header is not UTF-8 text");
    }
    if (!text.startsWith("{")) {
      throw new ExchangeException(file, "not a safetensors file (the header does not start with '{')");
    }
    Object json;
    try {
      json = JsonText.parse(text, 8, true);
    } catch (IllegalArgumentException e) {
      throw new ExchangeException(file, "the header is not valid JSON: " + e.getMessage());
    }
    if (!(json instanceof Map<?, ?> top)) {
      throw new ExchangeException(file, "the header is not a JSON object");
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    List<Tensor> tensors = new ArrayList<>();
    for (Map.Entry<?, ?> e : top.entrySet()) {
      String name = (String) e.getKey();
      if (name.equals(METADATA)) {
        if (!(e.getValue() instanceof Map<?, ?> m)) {
          throw new ExchangeException(file, "__metadata__ is not an object");
        }
        for (Map.Entry<?, ?> kv : m.entrySet()) {
          if (!(kv.getValue() instanceof String v)) {
            throw new ExchangeException(file, "__metadata__ value of '" + kv.getKey() + "' is not a string");
          }
          metadata.put((String) kv.getKey(), v);
        }
        continue;
      }
      tensors.add(tensor(file, name, e.getValue()));
    }
    long dataLength = size - 8 - n;
    List<Tensor> byOffset = new ArrayList<>(tensors);
    byOffset.sort(Comparator.comparingLong(Tensor::begin).thenComparingLong(Tensor::end));
    long at = 0;
    for (Tensor t : byOffset) {
      if (t.begin() != at) {
        throw new ExchangeException(file, "tensor '" + t.name() + "' starts at data offset " + t.begin() + ", but "
            + (t.begin() > at ? "the bytes before it, from " + at + ", belong to no tensor" : "the previous tensor ends at " + at));
      }
      at = t.end();
    }
    if (at != dataLength) {
      throw new ExchangeException(file, at > dataLength
          ? "the file ends early: the tensors need " + at + " bytes of data, the file has " + dataLength
          : "the file has " + (dataLength - at) + " bytes after the last tensor's data");
    }
    return new Header(List.copyOf(tensors), metadata, 8 + n);
  }

  private static Tensor tensor(String file, String name, Object value) throws ExchangeException {
    String where = "tensor '" + name + "': ";
    if (!(value instanceof Map<?, ?> info)) {
      throw new ExchangeException(file, where + "not an object with dtype, shape and data_offsets");
    }
    if (!(info.get("dtype") instanceof String dn)) {
      throw new ExchangeException(file, where + "no dtype string");
    }
    DType t = dtype(dn);
    if (t == null) {
      throw new ExchangeException(file, where + "dtype " + dn + " has no ModelFS type (accepted: "
          + String.join(", ", NAMES) + ")");
    }
    if (!(info.get("shape") instanceof List<?> sl)) {
      throw new ExchangeException(file, where + "no shape list");
    }
    if (sl.size() > Shapes.MAX_RANK) {
      throw new ExchangeException(file, where + "rank " + sl.size() + "; ND4J arrays have at most " + Shapes.MAX_RANK
          + " dimensions");
    }
    long[] shape = new long[sl.size()];
    for (int i = 0; i < shape.length; i++) {
      if (!(sl.get(i) instanceof Long d) || d < 0) {
        throw new ExchangeException(file, where + "shape " + sl + " has " + sl.get(i) + "; dimensions are integers ≥ 0");
      }
      shape[i] = d;
    }
    if (!(info.get("data_offsets") instanceof List<?> ol) || ol.size() != 2 || !(ol.get(0) instanceof Long b)
        || !(ol.get(1) instanceof Long e) || b < 0 || e < b) {
      throw new ExchangeException(file, where + "data_offsets " + info.get("data_offsets")
          + " is not [begin, end] with 0 ≤ begin ≤ end");
    }
    if (Shapes.sizeProblem(shape, t.width()) != null) {
      throw new ExchangeException(file, where + dn + " " + Shapes.sizeProblem(shape, t.width()));
    }
    long need = Shapes.byteLength(shape, t.width());
    if (e - b != need) {
      throw new ExchangeException(file, where + dn + " " + Arrays.toString(shape) + " needs " + need
          + " bytes, its data_offsets [" + b + ", " + e + "] hold " + (e - b));
    }
    return new Tensor(name, t, shape, b, e);
  }
}
