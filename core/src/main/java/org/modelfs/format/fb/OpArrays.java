package org.modelfs.format.fb;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.gen.FlatArray;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.DType;
import org.modelfs.model.Float16;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.Shapes;

/**
 * An array argument of an op — a FlatNode's {@code scalar}, a FlatProperties' {@code a} — in
 * graph.json (docs/GRAPH.md §2.4): {@code dtype}, {@code shape}, {@code order} (only when
 * {@code f}) and every element under {@code values}, in stored order, so an op's array
 * arguments are read and edited like its numbers. Elements: integers exact (UINT64 past
 * {@code Long.MAX_VALUE} as a decimal string), floating point as Java prints it (the shortest
 * text that reads back to the same value; HALF and BFLOAT16 through float), NaN and the
 * infinities as strings, BOOL as {@code true}/{@code false}, UTF8 as strings.
 */
final class OpArrays {
  static final Set<String> KEYS = Set.of("dtype", "shape", "order", "values");

  /** An op array as graph.json gives it: its elements little-endian (UTF8: n + 1 int64 offsets, then the bytes). */
  record Values(DType dtype, long[] shape, char order, byte[] littleEndian) {}

  private OpArrays() {}

  /** Renders the FlatArray {@code arr} of a graph in convention {@code conv}. */
  static void render(JsonOut out, FbTable arr, Convention conv, Budget budget) throws ModelFormatException {
    ArrayDecoder.Header h = ArrayDecoder.header(arr, conv);
    out.beginObject();
    out.key("dtype").value(h.dtype().nd4jName());
    out.key("shape").beginArray(true);
    for (long d : h.shape()) {
      out.value(d);
    }
    out.endArray();
    if (h.order() == 'f') {
      out.key("order").value("f");
    }
    out.key("values").beginArray(true);
    long n = Shapes.elementCount(h.shape());
    if (n > out.room() / 2) { // each value takes two characters at least: refused before its bytes are read
      throw arr.buffer().error(arr.position(), arr.what(), "op argument array of " + n
          + " elements renders past graph.json's bound (docs/GRAPH.md §2.4)");
    }
    ArrayData a = ArrayDecoder.inline(arr, conv, budget);
    if (a == null) {
      throw arr.buffer().error(arr.position(), arr.what(), "op argument array has no inline data");
    }
    if (!a.empty()) {
      if (a.length() > GraphJson.MAX_CHARS) {
        throw arr.buffer().error(arr.position(), arr.what(), "op argument array of " + a.length()
            + " bytes is larger than graph.json can show (" + GraphJson.MAX_CHARS + " characters)");
      }
      ByteBuffer le = read(a, arr);
      values(out, h.dtype(), le, n, arr);
    }
    out.endArray();
    out.endObject();
  }

  /** The elements of the FlatArray {@code arr} (inline, chunked or appended) as {@link Values}. */
  static Values values(FbTable arr, Convention conv, Budget budget) throws ModelFormatException {
    ArrayDecoder.Header h = ArrayDecoder.header(arr, conv);
    ArrayData a = ArrayDecoder.inline(arr, conv, budget);
    if (a == null) {
      throw arr.buffer().error(arr.position(), arr.what(), "op argument array has no inline data");
    }
    if (a.length() > GraphJson.MAX_CHARS) {
      throw arr.buffer().error(arr.position(), arr.what(), "op argument array of " + a.length() + " bytes is too large");
    }
    return new Values(h.dtype(), h.shape(), h.order(), a.empty() ? new byte[0] : read(a, arr).array());
  }

  private static ByteBuffer read(ArrayData a, FbTable arr) throws ModelFormatException {
    byte[] bytes = new byte[(int) a.length()];
    try (InputStream in = ArrayStreams.littleEndianStream(a)) {
      int done = 0;
      while (done < bytes.length) {
        int n = in.read(bytes, done, bytes.length - done);
        if (n < 0) {
          throw arr.buffer().error(arr.position(), arr.what(), "op argument array ends after " + done + " bytes");
        }
        done += n;
      }
    } catch (ModelFormatException e) {
      throw e;
    } catch (IOException e) {
      ModelFormatException m = arr.buffer().error(arr.position(), arr.what(), "reading an op argument array: " + e);
      m.initCause(e);
      throw m;
    }
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static void values(JsonOut out, DType t, ByteBuffer b, long n, FbTable arr) throws ModelFormatException {
    if (t == DType.UTF8) {
      long header = 8 * (n + 1);
      for (int i = 0; i < n; i++) {
        long from = b.getLong(8 * i);
        long to = b.getLong(8 * i + 8);
        if (from < 0 || to < from || header + to > b.capacity()) {
          throw arr.buffer().error(arr.position(), arr.what(), "UTF8 offsets " + from + ", " + to + " of string " + i
              + " lie outside its " + (b.capacity() - header) + " bytes");
        }
        out.value(new String(b.array(), (int) (header + from), (int) (to - from), StandardCharsets.UTF_8));
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      switch (t) {
        case BOOL -> out.value(b.get(i) != 0);
        case INT8, FLOAT8, QINT8 -> out.value(b.get(i));
        case UINT8 -> out.value(b.get(i) & 0xff);
        case INT16, QINT16 -> out.value(b.getShort(2 * i));
        case UINT16 -> out.value(b.getShort(2 * i) & 0xffff);
        case INT32 -> out.value(b.getInt(4 * i));
        case UINT32 -> out.value(b.getInt(4 * i) & 0xffffffffL);
        case INT64 -> out.value(b.getLong(8 * i));
        case UINT64 -> {
          long v = b.getLong(8 * i);
          if (v >= 0) {
            out.value(v);
          } else {
            out.value(Long.toUnsignedString(v));
          }
        }
        case HALF -> out.value(Float16.halfToFloat(b.getShort(2 * i)));
        case BFLOAT16 -> out.value(Float16.bfloat16ToFloat(b.getShort(2 * i)));
        case FLOAT -> out.value(b.getFloat(4 * i));
        case DOUBLE -> out.value(b.getDouble(8 * i));
        default -> throw new IllegalStateException("unhandled " + t);
      }
    }
  }

  /** The array graph.json gives at {@code where}, or {@code null} after recording its problems. */
  static Values parse(Object json, String where, JsonFields f) {
    Map<String, Object> m = f.object(json, where);
    if (m == null) {
      return null;
    }
    f.onlyKeys(m, KEYS, where);
    DType t = m.containsKey("dtype") ? f.dtype(m.get("dtype"), where + ".dtype") : null;
    if (!m.containsKey("dtype")) {
      f.problem(where, "missing \"dtype\"");
    }
    long[] shape = shape(m.get("shape"), where + ".shape", f);
    char order = 'c';
    if (m.containsKey("order")) {
      String o = f.string(m.get("order"), where + ".order");
      if ("f".equals(o) || "c".equals(o)) {
        order = o.charAt(0);
      } else if (o != null) {
        f.problem(where + ".order", "expected \"c\" or \"f\", found \"" + o + "\"");
      }
    }
    List<Object> values = f.array(m.get("values"), where + ".values");
    if (t == null || shape == null || values == null) {
      return null;
    }
    long n = Shapes.elementCount(shape);
    if (n != values.size()) {
      f.problem(where + ".values", "shape " + Arrays.toString(shape) + " holds " + n + " elements, but "
          + values.size() + " values are given");
      return null;
    }
    byte[] bytes = t == DType.UTF8 ? utf8(values, where, f) : numbers(t, values, where, f);
    return bytes == null ? null : new Values(t, shape, order, bytes);
  }

  /** A shape: an array of non-negative integers. */
  static long[] shape(Object json, String where, JsonFields f) {
    long[] s = f.dims(json, where, 0, Integer.MAX_VALUE);
    if (s == null) {
      return null;
    }
    long n = Shapes.elementCount(s);
    if (n < 0 || n > GraphJson.MAX_CHARS) {
      f.problem(where, Arrays.toString(s) + " is more elements than graph.json can hold");
      return null;
    }
    return s;
  }

  private static byte[] utf8(List<Object> values, String where, JsonFields f) {
    List<byte[]> strings = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < values.size(); i++) {
      String s = f.string(values.get(i), where + ".values[" + i + "]");
      if (s == null) {
        return null;
      }
      byte[] u = s.getBytes(StandardCharsets.UTF_8);
      strings.add(u);
      total += u.length;
    }
    ByteBuffer b = ByteBuffer.allocate((int) (8L * (strings.size() + 1) + total)).order(ByteOrder.LITTLE_ENDIAN);
    long at = 0;
    for (byte[] u : strings) {
      b.putLong(at);
      at += u.length;
    }
    b.putLong(at);
    for (byte[] u : strings) {
      b.put(u);
    }
    return b.array();
  }

  private static byte[] numbers(DType t, List<Object> values, String where, JsonFields f) {
    int w = t.width();
    ByteBuffer b = ByteBuffer.allocate(w * values.size()).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < values.size(); i++) {
      Object v = values.get(i);
      String at = where + ".values[" + i + "]";
      switch (t) {
        case BOOL -> {
          Boolean x = f.bool(v, at);
          if (x == null) {
            return null;
          }
          b.put(x ? (byte) 1 : 0);
        }
        case INT8, FLOAT8, QINT8 -> b.put((byte) whole(v, Byte.MIN_VALUE, Byte.MAX_VALUE, t, at, f));
        case UINT8 -> b.put((byte) whole(v, 0, 255, t, at, f));
        case INT16, QINT16 -> b.putShort((short) whole(v, Short.MIN_VALUE, Short.MAX_VALUE, t, at, f));
        case UINT16 -> b.putShort((short) whole(v, 0, 65535, t, at, f));
        case INT32 -> b.putInt((int) whole(v, Integer.MIN_VALUE, Integer.MAX_VALUE, t, at, f));
        case UINT32 -> b.putInt((int) whole(v, 0, 0xffffffffL, t, at, f));
        case INT64 -> b.putLong(whole(v, Long.MIN_VALUE, Long.MAX_VALUE, t, at, f));
        case UINT64 -> {
          if (v instanceof String s) {
            try {
              b.putLong(Long.parseUnsignedLong(s));
            } catch (NumberFormatException e) {
              f.problem(at, JsonFields.show(s) + " is no UINT64 value");
            }
          } else {
            b.putLong(whole(v, 0, Long.MAX_VALUE, t, at, f));
          }
        }
        case HALF, BFLOAT16, FLOAT, DOUBLE -> {
          Double d = f.number(v, at);
          if (d == null) {
            return null;
          }
          switch (t) {
            case HALF -> b.putShort(Float16.toHalf(d));
            case BFLOAT16 -> b.putShort(Float16.toBfloat16(d));
            case FLOAT -> b.putFloat(d.floatValue());
            default -> b.putDouble(d);
          }
        }
        default -> {
          f.problem(where, "an op array of type " + t.nd4jName() + " cannot be written");
          return null;
        }
      }
    }
    return f.problems().any() ? null : b.array();
  }

  private static long whole(Object v, long min, long max, DType t, String at, JsonFields f) {
    Long l = f.integer(v, min, max, at + " (" + t.nd4jName() + ")");
    return l == null ? 0 : l;
  }

  /**
   * Builds {@code v} as a FlatArray in convention {@code conv}, its data inline: legacy arrays
   * with the full shapeInfo and big-endian elements, as DL4J 1.0.0-M2.1 writes them; SDNB ones
   * with their dimensions and little-endian elements (docs/FORMATS.md §3.3).
   */
  static int build(FlatBufferBuilder b, Values v, Convention conv, String file) throws ModelFormatException {
    boolean empty = Shapes.elementCount(v.shape()) == 0;
    boolean legacy = conv == Convention.LEGACY;
    byte[] data = v.littleEndian();
    if (legacy && v.dtype().legacySwapped()) {
      ByteBuffer buf = ByteBuffer.wrap(data.clone());
      ArrayStreams.swap(buf, 0, data.length, v.dtype().width());
      data = buf.array();
    }
    int shape = FlatArray.createShapeVector(b,
        legacy ? GraphWriter.legacyShapeInfo(v.shape(), v.dtype(), v.order(), empty, file) : v.shape());
    int buffer = empty ? 0 : FlatArray.createBufferVector(b, data);
    FlatArray.startFlatArray(b);
    FlatArray.addShape(b, shape);
    if (buffer != 0) {
      FlatArray.addBuffer(b, buffer);
    }
    FlatArray.addDtype(b, (byte) v.dtype().code());
    FlatArray.addByteOrder(b, (byte) (legacy ? 1 : v.order() == 'f' ? 1 : 0));
    return FlatArray.endFlatArray(b);
  }
}
