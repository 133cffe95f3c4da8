package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * fb arrays (big-endian in the file) are swapped while they are copied from mapped windows of the
 * file (64 MiB each): every read — sequential in odd sizes, random, across a window's edge, into
 * heap and direct buffers — gives the little-endian bytes DL4J reads.
 */
class FbWindowReadTest {
  /** 17,000,000 floats: 68 MB, across the first window's edge. */
  private static final int ELEMENTS = 17_000_000;
  @TempDir Path tmp;

  /** An fb model of {@code count} arrays {@code big/w<i>} of {@link #ELEMENTS} floats. */
  private Path fbModel(int count) throws IOException {
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), count, ELEMENTS);
    Path fb = tmp.resolve("m.fb");
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), fb, WriteOptions.of(ModelFormat.FB));
    }
    return fb;
  }

  @Test
  void everyReadGivesTheLittleEndianBytes() throws Exception {
    Path fb = fbModel(2);
    long length = 4L * ELEMENTS;
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true"))) {
      for (int array = 0; array < 2; array++) {
        Path p = fs.getPath("/params/big/w" + array);
        assertEquals("big-endian", Files.getAttribute(p, "samediff:stored"));
        for (int size : new int[] {1 << 20, 1_000_003, 4093}) {
          for (boolean direct : new boolean[] {false, true}) {
            try (FileChannel ch = FileChannel.open(p)) {
              ByteBuffer buf = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
              long pos = 0;
              int checked = 0;
              while (pos < length && checked < (size < 10_000 ? 200 : Integer.MAX_VALUE)) {
                buf.clear();
                int n = ch.read(buf);
                byte[] got = new byte[n];
                buf.flip().get(got);
                assertArrayEquals(FloatPattern.bytes(array, pos, n), got, "array " + array + " at " + pos);
                pos += n;
                checked++;
              }
            }
          }
        }
        Random r = new Random(17 + array);
        long edge = (64L << 20) - 1000; // about the first window's edge in the file
        try (FileChannel ch = FileChannel.open(p)) {
          for (int i = 0; i < 500; i++) {
            long at = i < 50 ? edge + r.nextInt(2000) : (long) (r.nextDouble() * (length - 5000));
            int n = 1 + r.nextInt(4999);
            ByteBuffer b = ByteBuffer.allocate(n);
            int got = ch.read(b, at);
            assertArrayEquals(FloatPattern.bytes(array, at, got), Arrays.copyOf(b.array(), got),
                "random read of " + n + " at " + at);
          }
        }
      }
    }
  }

  /**
   * A convert (and a commit) of an fb model writes its arrays little-endian swap-copied from the
   * same windows, a 1 MiB chunk at a time; the chunk that straddles a window's edge is read and
   * swapped: every value survives either way.
   */
  @Test
  void aConvertToSdnbKeepsEveryValue() throws Exception {
    Path fb = fbModel(1);
    Path sdnb = tmp.resolve("m.sdnb");
    try (Model m = Models.open(fb)) {
      ModelFiles.write(m.newest(), sdnb, WriteOptions.of(ModelFormat.SDNB));
    }
    long length = 4L * ELEMENTS;
    try (FileSystem fs = ModelFileSystems.open(sdnb, Map.of("readOnly", "true"));
        FileChannel ch = FileChannel.open(fs.getPath("/params/big/w0"))) {
      assertEquals("raw", Files.getAttribute(fs.getPath("/params/big/w0"), "samediff:stored"));
      ByteBuffer buf = ByteBuffer.allocate(1 << 20);
      for (long pos = 0; pos < length; pos += buf.capacity()) {
        buf.clear();
        int n = ch.read(buf, pos);
        assertArrayEquals(FloatPattern.bytes(0, pos, n), Arrays.copyOf(buf.array(), n), "at " + pos);
      }
    }
  }
}
