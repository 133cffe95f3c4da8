package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeptRanges}: a prefetch is one read of its range widened to the minimum (toward the start
 * at the end), the whole of a small file's head, capped; at most so many ranges; one already held
 * (as asked or widened) not read again; the reader's failure thrown as it was; reads of kept bytes
 * answered from them.
 */
class KeptRangesTest {
  private static final int MIN = 1000;
  private static final int MOST = 5000;

  private final List<String> reads = new ArrayList<>();

  private KeptRanges.Reader from(byte[] c) {
    return (at, b) -> {
      reads.add(at + "+" + b.length);
      System.arraycopy(c, (int) at, b, 0, b.length);
    };
  }

  private static byte[] content(int size) {
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    return b;
  }

  @Test
  void rangesAreWidenedCappedCountedAndReadOnce() throws IOException {
    int size = (int) ParallelReads.TAIL_APART + 50_000;
    byte[] c = content(size);
    KeptRanges kept = new KeptRanges(size, MIN, MOST, 3);
    KeptRanges.Reader r = from(c);
    kept.prefetch(0, 1, r); // a large file's head: the minimum
    kept.prefetch(size - 1, 1, r); // its tail: the minimum, toward the start
    kept.prefetch(10, 20, r); // inside the head: held
    kept.prefetch(100_000, 1 << 20, r); // an index: capped
    kept.prefetch(300_000, 1, r); // a fourth: not kept
    kept.prefetch(-1, 1, r);
    kept.prefetch(size, 1, r);
    assertEquals(List.of("0+1000", (size - MIN) + "+1000", "100000+5000"), reads);
    ByteBuffer dst = ByteBuffer.allocate(2000);
    assertEquals(1000 - 500, kept.read(dst, 500, 2000), "up to the range's end");
    assertArrayEquals(Arrays.copyOfRange(c, 500, 1000), Arrays.copyOf(dst.array(), 500));
    assertEquals(-1, kept.read(ByteBuffer.allocate(10), 1000, 10));
    assertEquals(-1, kept.read(ByteBuffer.allocate(10), 300_000, 10));
    kept.clear();
    assertEquals(-1, kept.read(ByteBuffer.allocate(10), 0, 10));
  }

  @Test
  void aSmallFilesHeadIsTheWholeFile() throws IOException {
    byte[] c = content(200_000);
    KeptRanges kept = new KeptRanges(c.length, MIN, 1 << 20, 4);
    kept.prefetch(0, 1, from(c));
    kept.prefetch(c.length - 1, 1, from(c));
    assertEquals(List.of("0+200000"), reads);
  }

  @Test
  void theReadersFailureIsThrownAndNothingKept() throws IOException {
    IOException gone = new IOException("blocks gone");
    KeptRanges kept = new KeptRanges(10_000_000, MIN, MOST, 4);
    assertSame(gone, assertThrows(IOException.class, () -> kept.prefetch(0, 1, (at, b) -> {
      throw gone;
    })));
    assertEquals(-1, kept.read(ByteBuffer.allocate(1), 0, 1));
  }
}
