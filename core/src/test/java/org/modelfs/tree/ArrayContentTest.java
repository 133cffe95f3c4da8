package org.modelfs.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.testing.BytesChannel;

/**
 * A big-endian (legacy fb) array read through its file content at every kind of position and
 * length — whole elements straight into the reader's buffer, partial elements at either end,
 * heap and direct buffers — always gives exactly the little-endian bytes, and as many as asked.
 */
class ArrayContentTest {

  @ParameterizedTest
  @EnumSource(value = DType.class, names = {"INT8", "HALF", "FLOAT", "DOUBLE", "INT64"})
  void bigEndianReadsAtAnyPositionAndLengthGiveLittleEndianBytes(DType t) throws IOException {
    int width = t.width();
    int elements = 50_000;
    byte[] stored = new byte[13 + elements * width];
    new Random(t.ordinal()).nextBytes(stored);
    byte[] expected = new byte[elements * width];
    for (int e = 0; e < elements; e++) {
      for (int k = 0; k < width; k++) {
        expected[e * width + k] = stored[13 + e * width + width - 1 - k];
      }
    }
    ArrayData a = new ArrayData(t, new long[] {elements}, 'c', false, ChannelSource.of("m.fb", new BytesChannel(stored)),
        13, (long) elements * width, true, ArrayData.Storage.BIG_ENDIAN);
    ArrayContent c = new ArrayContent(a, false);
    Random rnd = new Random(42);
    for (int i = 0; i < 400; i++) {
      int pos = rnd.nextInt(expected.length);
      int len = 1 + rnd.nextInt(i % 3 == 0 ? 100_000 : 64);
      ByteBuffer dst = i % 2 == 0 ? ByteBuffer.allocate(len + 3) : ByteBuffer.allocateDirect(len + 3);
      dst.position(3).limit(3 + len);
      int n = c.read(dst, pos);
      int want = Math.min(len, expected.length - pos);
      assertEquals(3 + n, dst.position());
      // reads are full: whole elements straight into dst plus a partial one, or (at an unaligned
      // position) up to 64 KiB through the small buffer
      assertEquals(pos % width == 0 ? want : Math.min(want, 64 * 1024), n, "bytes read at " + pos);
      byte[] got = new byte[n];
      dst.position(3);
      dst.get(got);
      byte[] exp = new byte[n];
      System.arraycopy(expected, pos, exp, 0, n);
      assertArrayEquals(exp, got, t + " at " + pos + " length " + len);
    }
    // read the whole content sequentially with an odd buffer size
    ByteBuffer all = ByteBuffer.allocate(expected.length);
    ByteBuffer piece = ByteBuffer.allocate(1001);
    long pos = 0;
    int n;
    while ((n = c.read(piece.clear(), pos)) > 0) {
      all.put(piece.flip());
      pos += n;
    }
    assertArrayEquals(expected, all.array());
  }
}
