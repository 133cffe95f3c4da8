package org.modelfs.format.ziptags;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.format.fb.gen.FlatArray;
import org.modelfs.model.ArrayStreams;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;
import org.modelfs.testing.BytesChannel;

/**
 * The hand-laid-out array files of zip-tags ({@code params/<i>.fb}): flatbuffers-java's generated
 * {@code FlatArray} reads what {@link FlatArrayFile} writes, the elements start 64-byte aligned,
 * and {@link FlatArrayFile#read} gives the array back — for ranks 0 to 4, c and f order, several
 * types, and empty arrays.
 */
class ZipTagsFlatArrayFileTest {
  static Stream<Arguments> arrays() {
    List<Arguments> out = new ArrayList<>();
    long[][] shapes = {{}, {5}, {3, 4}, {2, 3, 5}, {2, 1, 3, 2}, {1}, {64}};
    for (long[] shape : shapes) {
      for (char order : new char[] {'c', 'f'}) {
        for (DType t : new DType[] {DType.FLOAT, DType.INT32, DType.DOUBLE, DType.INT8, DType.HALF}) {
          out.add(Arguments.of(t, shape, order, false));
        }
      }
    }
    for (long[] shape : new long[][] {{}, {0}, {2, 0, 3}, {0, 0}, {1, 2, 3, 0}}) {
      out.add(Arguments.of(DType.FLOAT, shape, 'c', true));
      out.add(Arguments.of(DType.INT32, shape, 'f', true));
    }
    return out.stream();
  }

  /** An array of these properties over {@code bytes} (its little-endian elements). */
  private static ArrayData array(DType t, long[] shape, char order, boolean empty, byte[] bytes) {
    return new ArrayData(t, shape, order, empty, ChannelSource.of("elements", new BytesChannel(bytes)), 0, bytes.length,
        false, ArrayData.Storage.RAW);
  }

  private static byte[] elements(DType t, long[] shape, boolean empty) {
    byte[] b = new byte[empty ? 0 : Math.toIntExact(Shapes.byteLength(shape, t.width()))];
    new Random(Arrays.hashCode(shape) * 31 + t.code()).nextBytes(b);
    return b;
  }

  private static byte[] file(ArrayData a) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FlatArrayFile.write(a, new CountingOutput(out));
    return out.toByteArray();
  }

  @ParameterizedTest(name = "{0} {1} {2} empty={3}")
  @MethodSource("arrays")
  void generatedFlatArrayReadsTheHeader(DType t, long[] shape, char order, boolean empty) throws IOException {
    byte[] data = elements(t, shape, empty);
    ArrayData a = array(t, shape, order, empty, data);
    byte[] header = FlatArrayFile.header(a);
    byte[] f = file(a);
    assertEquals(FlatArrayFile.size(a), f.length);
    assertEquals(header.length + data.length, f.length);
    assertArrayEquals(header, Arrays.copyOf(f, header.length));

    FlatArray fa = FlatArray.getRootAsFlatArray(ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN));
    assertEquals(shape.length, fa.shapeLength());
    for (int i = 0; i < shape.length; i++) {
      assertEquals(shape[i], fa.shape(i), "dimension " + i);
    }
    assertEquals(t.code(), fa.dtype());
    assertEquals(order == 'f' ? 1 : 0, fa.byteOrder(), "the byteOrder slot holds the element order");
    assertEquals(0, fa.bufferChunksLength());
    assertEquals(0L, fa.appendedDataLength());
    if (empty) {
      assertNull(fa.bufferAsByteBuffer(), "an empty array has no buffer");
      assertEquals(0, fa.bufferLength());
    } else {
      assertEquals(data.length, fa.bufferLength());
      ByteBuffer buf = fa.bufferAsByteBuffer();
      assertEquals(header.length, buf.position(), "the elements follow the header directly");
      assertEquals(0, buf.position() % 64, "elements start 64-byte aligned: " + buf.position());
      byte[] got = new byte[buf.remaining()];
      buf.get(got);
      assertArrayEquals(data, got);
    }
  }

  @ParameterizedTest(name = "{0} {1} {2} empty={3}")
  @MethodSource("arrays")
  void readGivesTheArrayBack(DType t, long[] shape, char order, boolean empty) throws IOException {
    byte[] data = elements(t, shape, empty);
    byte[] f = file(array(t, shape, order, empty, data));
    try (ChannelSource src = ChannelSource.of("x.zip!v1/params/0.fb", new BytesChannel(f))) {
      ArrayData a = FlatArrayFile.read(src, src.name());
      assertEquals(t, a.dtype());
      assertArrayEquals(shape, a.shape());
      assertEquals(order, a.order());
      assertEquals(empty, a.empty());
      assertEquals(data.length, a.length());
      if (!empty) {
        assertEquals(FlatArrayFile.header(a).length, a.offset(), "offset of the elements in the file");
        assertEquals(0, a.offset() % 64);
        try (InputStream in = ArrayStreams.littleEndianStream(a)) {
          assertArrayEquals(data, in.readAllBytes());
        }
      }
    }
  }

  @ParameterizedTest(name = "rank {0}")
  @MethodSource("ranks")
  void headerSizeGrowsWithRankButStaysAligned(int rank) {
    long[] shape = new long[rank];
    Arrays.fill(shape, 2);
    byte[] h = FlatArrayFile.header(array(DType.FLOAT, shape, 'c', false, new byte[4 << rank]));
    assertEquals(0, h.length % 64, "header length " + h.length);
    assertTrue(h.length >= 40 + 8 * rank + 4, "room for the shape");
  }

  static Stream<Integer> ranks() {
    return Stream.of(0, 1, 2, 3, 4, 5, 8, 16, 32);
  }
}
