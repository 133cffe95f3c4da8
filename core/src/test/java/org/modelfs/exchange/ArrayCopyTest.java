package org.modelfs.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.modelfs.model.Shapes;
import org.modelfs.testing.ForwardingFileChannel;

/**
 * The streamed element copies: swaps, and f ↔ c transposes against a naive in-memory transpose,
 * with slab budgets small enough to force every path (whole array in one slab, one row per
 * slab, a row larger than the slab: element gather) through mappings and through positional
 * reads of a channel that cannot map.
 */
class ArrayCopyTest {
  @TempDir Path tmp;

  /** The c-order bytes of the f-ordered array {@code src}, element by element. */
  static byte[] naiveFToC(byte[] src, long[] shape, int width) {
    int n = (int) Shapes.elementCount(shape);
    long[] fs = Shapes.strides(shape, 'f');
    long[] cs = Shapes.strides(shape, 'c');
    byte[] out = new byte[n * width];
    for (int c = 0; c < n; c++) {
      long rem = c;
      long f = 0;
      for (int a = 0; a < shape.length; a++) {
        long idx = shape[a] == 0 ? 0 : rem / cs[a];
        rem -= idx * cs[a];
        f += idx * fs[a];
      }
      System.arraycopy(src, (int) f * width, out, c * width, width);
    }
    return out;
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private FileChannel file(byte[] prefix, byte[] data) throws IOException {
    Path p = Files.createTempFile(tmp, "a", ".bin");
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.write(prefix);
    all.write(data);
    Files.write(p, all.toByteArray());
    return FileChannel.open(p);
  }

  private static byte[] run(Step step) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (WritableByteChannel ch = Channels.newChannel(out)) {
      step.run(ch);
    }
    return out.toByteArray();
  }

  interface Step {
    void run(WritableByteChannel out) throws IOException;
  }

  @ParameterizedTest
  @CsvSource({
    "'3,4', 4", "'2,3,4', 8", "'5,1,3', 2", "'1,1,7', 4", "'4,1', 1", "'7,5,3,2', 2", "'2,0,3', 4", "'', 8",
    "'9', 4", "'3,5,1,4,2', 4", "'17,13', 8",
  })
  void fToCMatchesTheNaiveTransposeForEverySlabSize(String dims, int width) throws IOException {
    long[] shape = dims.isEmpty() ? new long[0] : Arrays.stream(dims.split(",")).mapToLong(Long::parseLong).toArray();
    int n = (int) Shapes.elementCount(shape);
    byte[] data = random(n * width, n * 31L + width);
    byte[] expected = naiveFToC(data, shape, width);
    byte[] prefix = random(13, 1); // the array starts inside the file
    for (int budget : new int[] {1 << 20, n * width, width * 7, width * 3, width}) {
      for (boolean mappable : new boolean[] {true, false}) {
        try (FileChannel in = mappable ? file(prefix, data) : new NoMap(file(prefix, data))) {
          AtomicLong progress = new AtomicLong();
          byte[] got = run(out -> ArrayCopy.fToC(in, prefix.length, shape, width, out, progress::addAndGet,
              Math.max(budget, 1)));
          assertArrayEquals(expected, got, dims + " width " + width + " budget " + budget + " map " + mappable);
          assertEquals(expected.length, progress.get());
        }
      }
    }
  }

  @Test
  void cToFIsTheInverse() throws IOException {
    long[] shape = {6, 5, 4};
    byte[] f = random(6 * 5 * 4 * 4, 7);
    byte[] c = naiveFToC(f, shape, 4);
    try (FileChannel in = file(new byte[0], c)) {
      assertArrayEquals(f, run(out -> ArrayCopy.cToF(in, 0, shape, 4, out, x -> { })));
    }
  }

  @Test
  void copySwapsEveryElement() throws IOException {
    byte[] data = random(3 * 1024 * 1024 + 8, 3); // more than one chunk
    try (FileChannel in = file(new byte[] {9, 9}, data)) {
      byte[] got = run(out -> ArrayCopy.copy(in, 2, data.length, 8, true, out, x -> { }));
      for (int i = 0; i < data.length; i += 8) {
        for (int b = 0; b < 8; b++) {
          assertEquals(data[i + 7 - b], got[i + b]);
        }
      }
      assertArrayEquals(data, run(out -> ArrayCopy.copy(in, 2, data.length, 8, false, out, x -> { })));
    }
  }

  @Test
  void aShortFileIsAnError() throws IOException {
    try (FileChannel in = file(new byte[0], new byte[10])) {
      Assertions.assertThrows(EOFException.class,
          () -> run(out -> ArrayCopy.copy(in, 0, 16, 4, false, out, x -> { })));
    }
  }

  /** A file channel whose {@code map} is unsupported (as on some providers): positional reads only. */
  static final class NoMap extends ForwardingFileChannel {
    NoMap(FileChannel d) {
      super(d);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
      throw new UnsupportedOperationException("no map here");
    }
  }
}
