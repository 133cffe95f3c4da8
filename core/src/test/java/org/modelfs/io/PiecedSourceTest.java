package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PiecedSource}: ranges of a file seen end to end, read at every position and length. */
class PiecedSourceTest {
  @TempDir Path dir;

  @Test
  void everyRangeReadsThePiecesInOrder() throws IOException {
    byte[] file = new byte[64];
    for (int i = 0; i < file.length; i++) {
      file[i] = (byte) i;
    }
    Path p = Files.write(dir.resolve("f"), file);
    // pieces [40, 45), [], [3, 11), [20, 21): an empty piece in the middle
    long[] starts = {40, 0, 3, 20};
    long[] lengths = {5, 0, 8, 1};
    byte[] want = new byte[14];
    System.arraycopy(file, 40, want, 0, 5);
    System.arraycopy(file, 3, want, 5, 8);
    want[13] = file[20];
    try (ChannelSource src = ChannelSource.open(p)) {
      PiecedSource s = new PiecedSource(src, "pieces", starts, lengths);
      assertEquals(14, s.size());
      for (int from = 0; from <= 14; from++) {
        for (int len = 0; from + len <= 14; len++) {
          ByteBuffer b = ByteBuffer.allocate(len);
          s.readFully(b, from);
          assertArrayEquals(Arrays.copyOfRange(want, from, from + len), b.array(), from + "+" + len);
        }
      }
      assertEquals(-1, s.read(ByteBuffer.allocate(1), 14));
      assertNull(s.mappable(0), "several pieces are not contiguous");
      assertNotNull(new PiecedSource(src, "one", new long[] {8}, new long[] {4}).mappable(0));
      assertEquals(src, s.viewOf());
    }
  }
}
