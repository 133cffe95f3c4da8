package org.modelfs.format.badinput;

import static org.modelfs.format.badinput.BadInput.assertFormatError;
import static org.modelfs.format.badinput.BadInput.assertOpensOrRefused;
import static org.modelfs.format.badinput.BadInput.put;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.container.Models;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.Model;
import org.modelfs.testing.HandArrays;
import org.modelfs.testing.HandArrays.Chunk;

/**
 * FlatGraphs built field by field with the FlatBuffers builder (slot numbers from docs/FORMATS.md §3),
 * holding what no real writer produces: arrays both inline and chunked, external arrays, nameless or duplicate
 * variables, legacy arrays without shapeInfo or data, broken updater state, unmatched
 * metadata. Each is stored as format A (fb) and, where it applies, inside an SDNB file.
 */
class HandBuiltGraphBadInputTest {
  @TempDir Path dir;

  /** Builds an offset in the builder (0 = absent). */
  interface Part extends ToIntFunction<FlatBufferBuilder> {}

  /** A FlatVariable: name (null = absent), dtype, VarType, FlatVariable.shape (null = absent), ndarray. */
  record Var(String name, int dtype, int type, long[] shape, Part ndarray) {}

  static Part none() {
    return b -> 0;
  }

  /** A FlatArray with the given fields (null/negative = absent); an appended length is also the totalBufferSize. */
  static Part array(long[] shape, byte[] buffer, int dtype, int byteOrder, List<Chunk> chunks, boolean external,
      long appendedLength) {
    HandArrays.Part p = HandArrays.array(shape, dtype, byteOrder, buffer, chunks, appendedLength > 0 ? appendedLength : null, 0,
        appendedLength, external);
    return p::applyAsInt;
  }

  /** A legacy FLOAT c-order array of {@code dims} with big-endian data. */
  static Part legacyFloat(long... dims) {
    int r = dims.length;
    long[] si = new long[2 * r + 4];
    si[0] = r;
    long n = 1;
    for (int i = r - 1; i >= 0; i--) {
      si[1 + i] = dims[i];
      si[1 + r + i] = n;
      n *= dims[i];
    }
    si[2 * r + 1] = 8192;
    si[2 * r + 2] = 1;
    si[2 * r + 3] = 99;
    return array(si, new byte[(int) (4 * n)], 5, 1, null, false, 0);
  }

  /** An SDNB inline FLOAT array of {@code dims}. */
  static Part sdnbFloat(long... dims) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return array(dims, new byte[(int) (4 * n)], 5, -1, null, false, 0);
  }

  static int longs(FlatBufferBuilder b, long[] v) {
    return HandArrays.longs(b, v);
  }

  static int offsets(FlatBufferBuilder b, int[] v) {
    return HandArrays.offsets(b, v);
  }

  static int strings(FlatBufferBuilder b, String... s) {
    int[] o = new int[s.length];
    for (int i = 0; i < s.length; i++) {
      o[i] = b.createString(s[i]);
    }
    return offsets(b, o);
  }

  /** One UpdaterState: param (null = absent), keys, values. */
  static Part updater(String param, String[] keys, Part... values) {
    return b -> {
      int p = param == null ? 0 : b.createString(param);
      int k = strings(b, keys);
      int[] vs = new int[values.length];
      for (int i = 0; i < values.length; i++) {
        vs[i] = values[i].applyAsInt(b);
      }
      int v = offsets(b, vs);
      b.startTable(3);
      b.addOffset(2, v, 0);
      b.addOffset(1, k, 0);
      if (p != 0) {
        b.addOffset(0, p, 0);
      }
      return b.endTable();
    };
  }

  /** A finished FlatGraph buffer. */
  static byte[] graph(List<Var> vars, List<Part> updaters, String[] metaKeys, String[] metaValues) {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int[] vo = new int[vars.size()];
    int id = 1;
    for (int i = 0; i < vars.size(); i++) {
      Var v = vars.get(i);
      int nd = v.ndarray().applyAsInt(b);
      vo[i] = HandArrays.variable(b, id++, v.name(), v.dtype(), v.type(), v.shape(), nd);
    }
    int variables = offsets(b, vo);
    int[] uo = new int[updaters.size()];
    for (int i = 0; i < uo.length; i++) {
      uo[i] = updaters.get(i).applyAsInt(b);
    }
    int ups = uo.length == 0 ? 0 : offsets(b, uo);
    int mk = metaKeys == null ? 0 : strings(b, metaKeys);
    int mv = metaValues == null ? 0 : strings(b, metaValues);
    b.startTable(12);
    if (mv != 0) {
      b.addOffset(10, mv, 0);
    }
    if (mk != 0) {
      b.addOffset(9, mk, 0);
    }
    if (ups != 0) {
      b.addOffset(8, ups, 0);
    }
    b.addOffset(1, variables, 0);
    b.finish(b.endTable());
    return b.sizedByteArray();
  }

  /** The FlatGraph as the metadata of an SDNB file with an empty manifest. */
  static byte[] sdnb(byte[] flatGraph) {
    byte[] manifest = Samples.manifest(List.of());
    ByteBuffer h = ByteBuffer.allocate(32).order(ByteOrder.BIG_ENDIAN);
    h.put(new byte[] {'S', 'D', 'N', 'B'}).putInt(1).putLong(32L + flatGraph.length).putLong(manifest.length).putLong(32);
    return BadInput.concat(h.array(), flatGraph, manifest);
  }

  static final int FLOAT = 5;
  static final int VARIABLE = 0;
  static final int CONSTANT = 1;

  static List<Chunk> chunks() {
    return List.of(new Chunk(0, new byte[4]));
  }

  // ---- sanity: the builder makes files the reader accepts -------------------------------------------

  @Test
  void wellFormedHandBuiltGraphsOpen() throws IOException {
    byte[] fb = graph(List.of(new Var("w", FLOAT, VARIABLE, null, legacyFloat(2, 3))), List.of(), null, null);
    Assertions.assertNull(BadInput.openTimed(put(dir, "ok.fb", fb), "hand-built fb"));
    byte[] sd = sdnb(graph(List.of(new Var("w", FLOAT, VARIABLE, new long[] {2, 3}, sdnbFloat(2, 3))),
        List.of(updater("w", new String[] {"M"}, sdnbFloat(2, 3))), new String[] {"k"}, new String[] {"v"}));
    Assertions.assertNull(BadInput.openTimed(put(dir, "ok.sdnb", sd), "hand-built sdnb"));
  }

  /** Updater state may be chunked like any array (docs/FORMATS.md §10): read in index order, little-endian. */
  @Test
  void chunkedUpdaterStateReads() throws IOException {
    byte[] be = HandArrays.floats(2, ByteOrder.BIG_ENDIAN);
    // 14 bytes of chunks, cut to the 8 that totalBufferSize says
    HandArrays.Part m = HandArrays.array(new long[] {1, 2, 1, 1, 8192, 1, 99}, FLOAT, 1, null,
        HandArrays.shuffledChunks(Arrays.copyOf(be, 14)), 8L, 0, 0);
    byte[] fb = graph(List.of(new Var("w", FLOAT, VARIABLE, null, legacyFloat(2))),
        List.of(updater("w", new String[] {"M"}, m::applyAsInt)), null, null);
    try (Model model = Models.open(put(dir, "upd.fb", fb));
        InputStream in = ArrayStreams.littleEndianStream(
            model.newest().state("w").arrays().get("M"))) {
      Assertions.assertArrayEquals(HandArrays.floats(2, ByteOrder.LITTLE_ENDIAN), in.readAllBytes());
    }
  }

  // ---- format A ----------------------------------------------------------------------------------

  static Stream<Arguments> legacyCases() {
    List<Arguments> out = new ArrayList<>();
    long[] si23 = {2, 2, 3, 3, 1, 8192, 1, 99};
    out.add(Arguments.of("FlatArray with both buffer and bufferChunks", List.of(
        new Var("w", FLOAT, VARIABLE, null, array(si23, new byte[24], FLOAT, 1, chunks(), false, 0)))));
    out.add(Arguments.of("FlatArray marked isExternal", List.of(
        new Var("w", FLOAT, VARIABLE, null, array(si23, new byte[24], FLOAT, 1, null, true, 0)))));
    out.add(Arguments.of("variable without a name", List.of(new Var(null, FLOAT, VARIABLE, null, legacyFloat(2)))));
    out.add(Arguments.of("two variables with the same name", List.of(
        new Var("w", FLOAT, VARIABLE, null, legacyFloat(2)), new Var("w", FLOAT, CONSTANT, null, legacyFloat(3)))));
    out.add(Arguments.of("legacy array without shapeInfo", List.of(
        new Var("w", FLOAT, VARIABLE, null, array(null, new byte[24], FLOAT, 1, null, false, 0)))));
    out.add(Arguments.of("legacy array with an empty shapeInfo", List.of(
        new Var("w", FLOAT, VARIABLE, null, array(new long[0], new byte[24], FLOAT, 1, null, false, 0)))));
    out.add(Arguments.of("legacy array without data and not marked empty", List.of(
        new Var("w", FLOAT, VARIABLE, null, array(si23, null, FLOAT, 1, null, false, 0)))));
    out.add(Arguments.of("legacy array of rank 32 with too short shapeInfo", List.of(
        new Var("w", FLOAT, VARIABLE, null, array(new long[] {32, 1, 1, 1}, new byte[4], FLOAT, 1, null, false, 0)))));
    out.add(Arguments.of("legacy array whose 32 dims multiply past Long.MAX_VALUE", List.of(
        new Var("w", FLOAT, VARIABLE, null, array(bigShapeInfo(), new byte[4], FLOAT, 1, null, false, 0)))));
    out.add(Arguments.of("variable type 200", List.of(new Var("w", FLOAT, 200, null, legacyFloat(2)))));
    out.add(Arguments.of("variable dtype 200", List.of(new Var("w", 200, VARIABLE, null, legacyFloat(2)))));
    out.add(Arguments.of("FlatVariable.shape of rank 1000", List.of(
        new Var("w", FLOAT, VARIABLE, new long[1000], legacyFloat(2)))));
    return out.stream();
  }

  private static long[] bigShapeInfo() {
    long[] si = new long[2 * 32 + 4];
    si[0] = 32;
    for (int i = 1; i <= 32; i++) {
      si[i] = 1L << 20;
    }
    si[2 * 32 + 1] = 8192;
    si[2 * 32 + 3] = 99;
    return si;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("legacyCases")
  void legacyGraphIsRefused(String name, List<Var> vars) throws IOException {
    assertFormatError(put(dir, "hand.fb", graph(vars, List.of(), null, null)), name);
  }

  /** A variable of type ARRAY (an activation) may carry an ndarray: it is ignored, not an error. */
  @Test
  void arrayVariableWithNdarrayIsHarmless() throws IOException {
    byte[] fb = graph(List.of(new Var("act", FLOAT, 2, null, array(null, new byte[3], 99, 1, null, false, 0))),
        List.of(), null, null);
    assertOpensOrRefused(put(dir, "act.fb", fb), "ARRAY variable with a broken ndarray");
  }

  static Stream<Arguments> updaterCases() {
    return Stream.of(
        Arguments.of("updater state without parameter name",
            List.of(updater(null, new String[] {"M"}, legacyFloat(2)))),
        Arguments.of("updater state: two keys, one value",
            List.of(updater("w", new String[] {"M", "V"}, legacyFloat(2)))),
        Arguments.of("updater state: duplicate key",
            List.of(updater("w", new String[] {"M", "M"}, legacyFloat(2), legacyFloat(2)))),
        Arguments.of("updater state value with dtype 0",
            List.of(updater("w", new String[] {"M"}, array(new long[] {1, 2, 1, 1, 8192, 1, 99}, new byte[8], 0, 1, null,
                false, 0)))),
        Arguments.of("updater state value with a short buffer",
            List.of(updater("w", new String[] {"M"}, array(new long[] {1, 2, 1, 1, 8192, 1, 99}, new byte[7], FLOAT, 1,
                null, false, 0)))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updaterCases")
  void brokenUpdaterStateIsRefused(String name, List<Part> updaters) throws IOException {
    byte[] fb = graph(List.of(new Var("w", FLOAT, VARIABLE, null, legacyFloat(2))), updaters, null, null);
    assertFormatError(put(dir, "upd.fb", fb), name);
  }

  // ---- SDNB --------------------------------------------------------------------------------------

  static Stream<Arguments> sdnbCases() {
    Var w = new Var("w", FLOAT, VARIABLE, new long[] {2, 3}, sdnbFloat(2, 3));
    return Stream.of(
        Arguments.of("appended stub without manifest entry", graph(List.of(
            new Var("big", FLOAT, VARIABLE, new long[] {2, 3}, array(new long[] {2, 3}, null, FLOAT, 0, null, false, 24))),
            List.of(), null, null)),
        Arguments.of("inline array with both buffer and bufferChunks", graph(List.of(
            new Var("w", FLOAT, VARIABLE, new long[] {1}, array(new long[] {1}, new byte[4], FLOAT, 0, chunks(), false, 0))),
            List.of(), null, null)),
        Arguments.of("inline array marked isExternal", graph(List.of(
            new Var("w", FLOAT, VARIABLE, new long[] {1}, array(new long[] {1}, new byte[4], FLOAT, 0, null, true, 0))),
            List.of(), null, null)),
        Arguments.of("inline array with a negative dimension", graph(List.of(
            new Var("w", FLOAT, VARIABLE, null, array(new long[] {-1, 6}, new byte[24], FLOAT, 0, null, false, 0))),
            List.of(), null, null)),
        Arguments.of("inline array whose dims overflow", graph(List.of(
            new Var("w", FLOAT, VARIABLE, null, array(new long[] {1L << 40, 1L << 40}, new byte[24], FLOAT, 0, null, false, 0))),
            List.of(), null, null)),
        Arguments.of("inline scalar with 3 bytes", graph(List.of(
            new Var("w", FLOAT, VARIABLE, null, array(null, new byte[3], FLOAT, 0, null, false, 0))),
            List.of(), null, null)),
        Arguments.of("inline UTF8 array with 7 bytes", graph(List.of(
            new Var("s", 50, CONSTANT, null, array(new long[] {1}, new byte[7], 50, 0, null, false, 0))),
            List.of(), null, null)),
        Arguments.of("updater state value that is an appended stub", graph(List.of(w),
            List.of(updater("w", new String[] {"M"}, array(new long[] {2, 3}, null, FLOAT, 0, null, false, 24))), null, null)),
        Arguments.of("metadata keys without values", graph(List.of(w), List.of(), new String[] {"a", "b"}, null)),
        Arguments.of("more metadata values than keys", graph(List.of(w), List.of(), new String[] {"a"}, new String[] {"1", "2"})),
        Arguments.of("two variables with the same name", graph(List.of(w, w), List.of(), null, null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sdnbCases")
  void sdnbGraphIsRefused(String name, byte[] flatGraph) throws IOException {
    assertFormatError(put(dir, "hand.sdnb", sdnb(flatGraph)), name);
  }
}
