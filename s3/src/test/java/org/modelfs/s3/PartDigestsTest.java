package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.BitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which parts of a single object a commit may have the store copy: sizes, and only parts with the same bytes at the same place. */
class PartDigestsTest {
  private static final long MIB = 1L << 20;
  @TempDir Path tmp;

  @Test
  void partsAreAtLeastFiveMiBWholeMiBAndAtMostSixtyFour() {
    assertEquals(5 * MIB, PartDigests.partSize(1));
    assertEquals(5 * MIB, PartDigests.partSize(64 * MIB));
    assertEquals(16 * MIB, PartDigests.partSize(1L << 30), "a 1 GiB model: a small change uploads 16 MiB");
    assertEquals(160 * MIB, PartDigests.partSize(10L << 30));
    assertTrue((10L << 30) / PartDigests.partSize(10L << 30) <= PartDigests.MAX_PARTS);
    assertFalse(PartDigests.worthIt(5 * MIB));
    assertTrue(PartDigests.worthIt(5 * MIB + 1));
  }

  /** A sparse file of {@code size} bytes with {@code value} at each of {@code at}. */
  private Path file(String name, long size, long[] at, byte value) throws IOException {
    Path p = tmp.resolve(name);
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {0}), size - 1);
      for (long a : at) {
        ch.write(ByteBuffer.wrap(new byte[] {value}), a);
      }
    }
    return p;
  }

  @Test
  void onlyThePartsAChangeFallsInAreUploaded() throws IOException {
    long size = 23 * MIB + 7; // parts of 5 MiB: 0..4 (the last 3 MiB + 7)
    long part = PartDigests.partSize(size);
    String old = PartDigests.of(file("a", size, new long[] {1}, (byte) 1), size, part);
    String now = PartDigests.of(file("b", size, new long[] {1, 2 * part + 5, size - 2}, (byte) 1), size, part);
    BitSet same = PartDigests.unchanged(old, size, now, size);
    BitSet want = new BitSet();
    want.set(0);
    want.set(1);
    want.set(3);
    assertEquals(want, same, "part 2 and the last part changed");
  }

  @Test
  void nothingIsCopiedFromAnObjectOfAnotherSizeOrWithoutDigests() throws IOException {
    long size = 12 * MIB;
    long part = PartDigests.partSize(size);
    String a = PartDigests.of(file("a", size, new long[0], (byte) 0), size, part);
    String longer = PartDigests.of(file("b", size + 3, new long[0], (byte) 0), size + 3, part);
    BitSet same = PartDigests.unchanged(a, size, longer, size + 3);
    BitSet want = new BitSet();
    want.set(0);
    want.set(1);
    assertEquals(want, same, "the whole parts before the end; the last one differs in length");
    assertTrue(PartDigests.unchanged(null, size, a, size).isEmpty());
    assertTrue(PartDigests.unchanged("garbage", size, a, size).isEmpty());
    assertTrue(PartDigests.unchanged(a.replaceFirst("^[0-9]+", String.valueOf(6 * MIB)), size, a, size).isEmpty(),
        "parts of another size");
  }
}
