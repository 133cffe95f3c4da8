package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * Random unaligned reads of an fb array into heap and direct buffers, past the end, large and
 * small (a check of the issue-18 review; it passed).
 */
class RandomReadTest {
  @TempDir Path tmp;

  @Test
  void randomReadsOfASwappedArray() throws Exception {
    int elements = 200_000;
    Path fb = tmp.resolve("m.fb");
    var synthetic = SyntheticModels.floats(tmp.resolve("d"), 2, elements);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), fb, WriteOptions.of(ModelFormat.FB));
    }
    byte[] expected = FloatPattern.bytes(1, 0, 4 * elements);
    Random rnd = new Random(7);
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true"));
        FileChannel ch = FileChannel.open(fs.getPath("/params/big/w1"))) {
      for (int i = 0; i < 3000; i++) {
        int pos = rnd.nextInt(expected.length + 10);
        int len = rnd.nextInt(i % 3 == 0 ? 200_000 : 70);
        int off = rnd.nextInt(5);
        ByteBuffer dst = (i % 2 == 0 ? ByteBuffer.allocate(off + len + 3) : ByteBuffer.allocateDirect(off + len + 3));
        dst.position(off).limit(off + len);
        int total = 0;
        while (dst.hasRemaining()) {
          int n = ch.read(dst, pos + total);
          if (n < 0) {
            break;
          }
          total += n;
        }
        byte[] got = new byte[total];
        dst.flip().position(off);
        dst.get(got);
        byte[] want = pos >= expected.length ? new byte[0] : Arrays.copyOfRange(expected, pos, Math.min(expected.length, pos + len));
        assertArrayEquals(want, got, "pos " + pos + " len " + len);
      }
    }
  }
}
