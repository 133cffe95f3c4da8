package org.modelfs.testing;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import com.google.flatbuffers.FlatBufferBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.ToIntFunction;

/**
 * FlatGraphs with hand-built FlatArrays (slot numbers from docs/FORMATS.md §3.3), written with the
 * FlatBuffers builder rather than the code under test: chunked arrays ({@code bufferChunks},
 * {@code totalBufferSize}), arrays appended to an fb file's image, UTF8 buffers in either
 * layout. {@link #fb} makes a legacy fb file, {@link #sdnb} an SDNB file with an empty manifest.
 */
public final class HandArrays {
  private HandArrays() {}

  /** Builds a table in the builder and answers its offset. */
  public interface Part extends ToIntFunction<FlatBufferBuilder> {}

  /** One chunk: its {@code index} and its data. */
  public record Chunk(long index, byte[] data) {}

  /** A variable: name, DType code, VarType code, FlatVariable.shape ({@code null} = absent), its array. */
  public record Var(String name, int dtype, int kind, long[] shape, Part ndarray) {}

  public static final int FLOAT = 5;
  public static final int UTF8 = 50;
  public static final int VARIABLE = 0;
  public static final int CONSTANT = 1;

  /**
   * A FlatArray. {@code byteOrder} &lt; 0, {@code buffer}/{@code chunks}/{@code total} {@code null}
   * and {@code appendedOffset}/{@code appendedLength} 0 leave the field absent.
   */
  public static Part array(long[] shape, int dtype, int byteOrder, byte[] buffer, List<Chunk> chunks, Long total,
      long appendedOffset, long appendedLength) {
    return array(shape, dtype, byteOrder, buffer, chunks, total, appendedOffset, appendedLength, false);
  }

  /** As the other {@code array}, with {@code isExternal} set when {@code external}. */
  public static Part array(long[] shape, int dtype, int byteOrder, byte[] buffer, List<Chunk> chunks, Long total,
      long appendedOffset, long appendedLength, boolean external) {
    return b -> {
      int s = shape == null ? 0 : longs(b, shape);
      int buf = buffer == null ? 0 : b.createByteVector(buffer);
      int ch = 0;
      if (chunks != null) {
        int[] cs = new int[chunks.size()];
        for (int i = 0; i < cs.length; i++) {
          Chunk c = chunks.get(i);
          int data = c.data() == null ? 0 : b.createByteVector(c.data());
          b.startTable(2);
          b.addLong(0, c.index(), Long.MIN_VALUE); // always written, 0 included
          if (data != 0) {
            b.addOffset(1, data, 0);
          }
          cs[i] = b.endTable();
        }
        ch = offsets(b, cs);
      }
      b.startTable(10);
      if (appendedLength != 0) {
        b.addLong(9, appendedLength, Long.MIN_VALUE);
      }
      if (appendedOffset != 0) {
        b.addLong(8, appendedOffset, Long.MIN_VALUE);
      }
      if (total != null) {
        b.addLong(5, total, Long.MIN_VALUE);
      }
      if (ch != 0) {
        b.addOffset(4, ch, 0);
      }
      if (buf != 0) {
        b.addOffset(1, buf, 0);
      }
      if (s != 0) {
        b.addOffset(0, s, 0);
      }
      if (external) {
        b.addBoolean(7, true, false);
      }
      b.addByte(2, (byte) dtype, 0);
      if (byteOrder >= 0) {
        b.addByte(3, (byte) byteOrder, (byte) -1);
      }
      return b.endTable();
    };
  }

  /** A legacy c-order shapeInfo of {@code dims} with the dtype bits {@code extras} (FLOAT 8192, UTF8 1048576). */
  public static long[] shapeInfo(long extras, long... dims) {
    int r = dims.length;
    long[] si = new long[2 * r + 4];
    si[0] = r;
    long n = 1;
    for (int i = r - 1; i >= 0; i--) {
      si[1 + i] = dims[i];
      si[1 + r + i] = n;
      n *= dims[i];
    }
    si[2 * r + 1] = extras;
    si[2 * r + 2] = 1;
    si[2 * r + 3] = 99;
    return si;
  }

  /** {@code bytes} cut at the given positions into chunks, the i-th given index {@code indices[i]}. */
  public static List<Chunk> cut(byte[] bytes, int[] cuts, long[] indices) {
    Chunk[] out = new Chunk[cuts.length + 1];
    int from = 0;
    for (int i = 0; i <= cuts.length; i++) {
      int to = i < cuts.length ? cuts[i] : bytes.length;
      out[i] = new Chunk(indices[i], Arrays.copyOfRange(bytes, from, to));
      from = to;
    }
    return List.of(out);
  }

  /** Floats {@code 1, 2, …, n} in the given byte order. */
  public static byte[] floats(int n, ByteOrder order) {
    ByteBuffer b = ByteBuffer.allocate(4 * n).order(order);
    for (int i = 1; i <= n; i++) {
      b.putFloat(i);
    }
    return b.array();
  }

  /** The M2.1 UTF8 layout of {@code strings}: (n + 1) little-endian offsets, then the bytes. */
  public static byte[] utf8(String... strings) {
    return utf8(false, strings);
  }

  /** The older UTF8 layout: big-endian count n, (n + 1) big-endian offsets, then the bytes. */
  public static byte[] olderUtf8(String... strings) {
    return utf8(true, strings);
  }

  private static byte[] utf8(boolean older, String... strings) {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    long[] offs = new long[strings.length + 1];
    for (int i = 0; i < strings.length; i++) {
      text.writeBytes(strings[i].getBytes(StandardCharsets.UTF_8));
      offs[i + 1] = text.size();
    }
    ByteBuffer b = ByteBuffer.allocate((older ? 8 : 0) + 8 * offs.length + text.size())
        .order(older ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    if (older) {
      b.putLong(strings.length);
    }
    for (long o : offs) {
      b.putLong(o);
    }
    b.put(text.toByteArray());
    return b.array();
  }

  /** Chunks of {@code bytes} cut inside elements, indices 2, 0, 1 in vector order (so read reordered). */
  public static List<Chunk> shuffledChunks(byte[] bytes) {
    List<Chunk> c = cut(bytes, new int[] {5, 13}, new long[] {0, 1, 2});
    return List.of(c.get(2), c.get(0), c.get(1));
  }

  /**
   * Small valid samples, file name → bytes (the extension is the format): a legacy fb with a
   * chunked FLOAT and a chunked older-layout UTF8 array, an fb with an appended array, an fb with
   * an older-layout UTF8 scalar, an SDNB with a chunked array. Seeds of the bad-input suite and
   * the fuzz corpus.
   */
  public static Map<String, byte[]> samples() {
    return Map.of(
        "chunked.fb", fb(List.of(
            new Var("w", FLOAT, VARIABLE, null, array(shapeInfo(8192, 2, 3), FLOAT, 1, null,
                shuffledChunks(floats(6, ByteOrder.BIG_ENDIAN)), 24L, 0, 0)),
            new Var("s", UTF8, CONSTANT, null, array(shapeInfo(1048576, 3), UTF8, 1, null,
                shuffledChunks(olderUtf8("", "ab", "cde")), null, 0, 0)))),
        "appended.fb", fbWithTrailer(at -> List.of(new Var("w", FLOAT, VARIABLE, null,
            array(shapeInfo(8192, 2, 3), FLOAT, 1, null, null, null, at, 24))), floats(6, ByteOrder.BIG_ENDIAN)),
        "older-utf8.fb", fb(List.of(new Var("s", UTF8, CONSTANT, null, array(shapeInfo(1048576), UTF8, 1,
            olderUtf8("Condition x == y did not hold element-wise:"), null, null, 0, 0)))),
        "chunked.sdnb", sdnb(List.of(new Var("w", FLOAT, VARIABLE, new long[] {2, 3}, array(new long[] {2, 3}, FLOAT, -1,
            null, shuffledChunks(floats(6, ByteOrder.LITTLE_ENDIAN)), 24L, 0, 0)))));
  }

  /** A FlatGraph of {@code vars} (finished buffer). */
  public static byte[] graph(List<Var> vars) {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int[] vo = new int[vars.size()];
    for (int i = 0; i < vars.size(); i++) {
      Var v = vars.get(i);
      vo[i] = variable(b, i + 1, v.name(), v.dtype(), v.kind(), v.shape(), v.ndarray().applyAsInt(b));
    }
    int variables = offsets(b, vo);
    b.startTable(12);
    b.addOffset(1, variables, 0);
    b.finish(b.endTable());
    return b.sizedByteArray();
  }

  /**
   * A FlatVariable with id {@code (id, 0)}, device -1 and the given fields ({@code name} null,
   * {@code shape} null or {@code ndarray} 0 = absent); answers its offset.
   */
  public static int variable(FlatBufferBuilder b, int id, String name, int dtype, int kind, long[] shape, int ndarray) {
    int shapeOff = shape == null ? 0 : longs(b, shape);
    int nameOff = name == null ? 0 : b.createString(name);
    b.startTable(2);
    b.addInt(0, id, 0);
    int pair = b.endTable();
    b.startTable(10);
    b.addOffset(0, pair, 0);
    if (nameOff != 0) {
      b.addOffset(1, nameOff, 0);
    }
    if (shapeOff != 0) {
      b.addOffset(3, shapeOff, 0);
    }
    if (ndarray != 0) {
      b.addOffset(4, ndarray, 0);
    }
    b.addInt(5, -1, 0);
    b.addByte(2, (byte) dtype, 0);
    b.addByte(6, (byte) kind, 0);
    return b.endTable();
  }

  /** A legacy fb file: the FlatGraph of {@code vars}. */
  public static byte[] fb(List<Var> vars) {
    return graph(vars);
  }

  /**
   * A legacy fb file whose FlatGraph is followed (8-aligned) by {@code trailer}; {@code vars}
   * is given the trailer's offset in the file, for appended arrays.
   */
  public static byte[] fbWithTrailer(LongFunction<List<Var>> vars, byte[] trailer) {
    int probe = graph(vars.apply(1L << 40)).length;
    int at = (probe + 7) / 8 * 8;
    byte[] g = graph(vars.apply(at));
    if (g.length != probe) {
      throw new IllegalStateException("graph size changed with the offset: " + probe + " then " + g.length);
    }
    byte[] out = Arrays.copyOf(g, at + trailer.length);
    System.arraycopy(trailer, 0, out, at, trailer.length);
    return out;
  }

  /** An SDNB file holding the FlatGraph of {@code vars} and an empty manifest (SDNB convention). */
  public static byte[] sdnb(List<Var> vars) {
    byte[] g = graph(vars);
    byte[] manifest;
    try (ByteArrayOutputStream bos = new ByteArrayOutputStream(); ObjectOutputStream o = new ObjectOutputStream(bos)) {
      o.writeObject(new LinkedHashMap<String, Object>());
      o.flush();
      manifest = bos.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ByteBuffer h = ByteBuffer.allocate(32 + g.length + manifest.length).order(ByteOrder.BIG_ENDIAN);
    h.put(new byte[] {'S', 'D', 'N', 'B'}).putInt(1).putLong(32L + g.length).putLong(manifest.length).putLong(32);
    h.put(g).put(manifest);
    return h.array();
  }

  /** A vector of longs; answers its offset. */
  public static int longs(FlatBufferBuilder b, long[] v) {
    b.startVector(8, v.length, 8);
    for (int i = v.length - 1; i >= 0; i--) {
      b.addLong(v[i]);
    }
    return b.endVector();
  }

  /** A vector of offsets; answers its offset. */
  public static int offsets(FlatBufferBuilder b, int[] v) {
    b.startVector(4, v.length, 4);
    for (int i = v.length - 1; i >= 0; i--) {
      b.addOffset(v[i]);
    }
    return b.endVector();
  }
}
