package org.modelfs.provider;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.WriteOptions;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * Eight threads read random byte ranges of random parameters at once — each through its own
 * channels and all through one shared channel by position — and every byte is checked against
 * the values the model was generated from.
 */
class ConcurrentReadTest {
  private static final int ARRAYS = 6;
  private static final int ELEMENTS = 400_000;
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "fb", "sdz-deflate", "sharded"})
  void eightThreadsReadRandomRanges(String format) throws Exception {
    WriteOptions opts = switch (format) {
      case "sdnb" -> WriteOptions.of(ModelFormat.SDNB);
      case "fb" -> WriteOptions.of(ModelFormat.FB);
      case "sdz-deflate" -> WriteOptions.of(ModelFormat.SDZ).withDeflate(true);
      default -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(3_500_000);
    };
    Path model = tmp.resolve(format.startsWith("sdz") ? "m.sdz" : format.equals("fb") ? "m.fb" : "m.sdnb");
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), ARRAYS, ELEMENTS);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, opts);
    }
    try (FileSystem fs = ModelFileSystems.open(model);
        FileChannel shared = FileChannel.open(fs.getPath("/params/big/w3"))) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          long seed = 1000 + t;
          results.add(pool.submit(() -> readRandomly(fs, shared, new Random(seed))));
        }
        int total = 0;
        for (Future<Integer> f : results) {
          total += f.get(2, TimeUnit.MINUTES);
        }
        assertArrayEquals(new int[] {8 * 300}, new int[] {total});
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private static int readRandomly(FileSystem fs, FileChannel shared, Random rnd) throws IOException {
    int reads = 0;
    long size = 4L * ELEMENTS;
    for (int i = 0; i < 300; i++) {
      int array = rnd.nextInt(ARRAYS);
      boolean useShared = rnd.nextInt(4) == 0;
      if (useShared) {
        array = 3;
      }
      long pos = (long) (rnd.nextDouble() * size);
      int len = (int) Math.min(size - pos, 1 + rnd.nextInt(70_000));
      ByteBuffer buf = ByteBuffer.allocate(len);
      if (useShared) {
        fill(shared, buf, pos);
      } else {
        try (FileChannel ch = FileChannel.open(fs.getPath("/params/big/w" + array))) {
          fill(ch, buf, pos);
        }
      }
      assertArrayEquals(FloatPattern.bytes(array, pos, len), buf.array(), "array " + array + " at " + pos);
      reads++;
    }
    return reads;
  }

  private static void fill(FileChannel ch, ByteBuffer buf, long pos) throws IOException {
    while (buf.hasRemaining()) {
      if (ch.read(buf, pos + buf.position()) < 0) {
        throw new IOException("early end at " + (pos + buf.position()));
      }
    }
  }
}
