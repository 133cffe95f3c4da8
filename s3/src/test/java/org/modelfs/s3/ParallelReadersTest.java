package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.ParallelReads;

/**
 * Many threads reading one mount of a model in the store get the right bytes: 8 threads × 400
 * random 4 KiB positional reads on the parameters' {@code FileChannel}s, shared by all threads,
 * compared with the same model mounted locally. The model (20 MiB) is larger than a source's
 * block cache (16 MiB), so reads both hit the cache and fetch.
 */
class ParallelReadersTest {
  static final int PARAMS = 20;
  static final int ELEMENTS = 256 * 1024;
  static final int THREADS = 8;
  static final int READS = 400;
  static final int READ = 4096;

  @TempDir Path tmp;

  @Test
  void eightThreadsOfRandomPositionalReads() throws Exception {
    Path local = tmp.resolve("m.sdnb");
    TestModels.floats(local, PARAMS, ELEMENTS, TestModels.options("sdnb"));
    byte[][] want = new byte[PARAMS][];
    try (FileSystem fs = ModelFileSystems.open(local, Map.of("readOnly", "true"))) {
      for (int i = 0; i < PARAMS; i++) {
        want[i] = Files.readAllBytes(fs.getPath("/params/big/w" + i));
      }
    }
    try (S3TestServer s3 = S3TestServer.start()) {
      s3.upload(local, "par/m.sdnb");
      try (FileSystem fs = ModelFileSystems.open(s3.path("par/m.sdnb"), Map.of("readOnly", "true"))) {
        List<FileChannel> channels = new ArrayList<>();
        for (int i = 0; i < PARAMS; i++) {
          channels.add(FileChannel.open(fs.getPath("/params/big/w" + i)));
        }
        int wrong;
        try {
          wrong = ParallelReads.wrong(THREADS, READS, READ, (random, buf) -> {
            int param = random.nextInt(PARAMS);
            int pos = random.nextInt(want[param].length - READ + 1);
            FileChannel ch = channels.get(param);
            while (buf.hasRemaining()) {
              int n = ch.read(buf, pos + buf.position());
              assertTrue(n > 0, "read at " + pos + " of w" + param + " returned " + n);
            }
            return Arrays.equals(buf.array(), 0, READ, want[param], pos, pos + READ);
          });
        } finally {
          for (FileChannel ch : channels) {
            ch.close();
          }
        }
        System.out.printf("%d threads × %d random %d-byte reads: %d mismatches; %d GETs, %d bytes fetched%n",
            THREADS, READS, READ, wrong, s3.gets(), s3.bytesServed());
        assertEquals(0, wrong, "reads that returned other bytes than the local model's");
      }
    }
  }
}
