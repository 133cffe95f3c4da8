package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Any block size and fetch limit a user sets ({@code modelfs.s3.block-size},
 * {@code modelfs.s3.max-fetch}) keep a forward walk through small reads at about the bytes it
 * reads: the block cache holds two of the longest runs, so a run of blocks fetched ahead is never
 * dropped before it is read (with a cache of a fixed 64 blocks, a run of 128 blocks evicted its
 * own first half, and every block was fetched again on its own).
 */
class ObjectSourceTuningTest {
  static final int SIZE = 48 << 20;
  static final int READ = 8192;

  @TempDir Path tmp;

  @ParameterizedTest
  @CsvSource({"65536, 8388608", "262144, 33554432", "262144, 8388608"})
  void aForwardWalkFetchesAboutWhatItReads(int block, int maxFetch) throws Exception {
    byte[] content = new byte[SIZE];
    new Random(7).nextBytes(content);
    Path file = tmp.resolve("object.bin");
    Files.write(file, content);
    try (S3TestServer s3 = S3TestServer.start()) {
      s3.upload(file, "tuning/object.bin");
      ObjectLocation at = ObjectLocation.of(s3.path("tuning/object.bin"));
      ObjectStore.Info info = at.store().head(at.bucket(), at.key());
      ObjectSource.Tuning tuning = ObjectSource.Tuning.of(block, maxFetch);
      s3.resetCounts();
      byte[] got = new byte[SIZE];
      try (ObjectSource src = new ObjectSource(at.store(), at.bucket(), at.key(), info.etag(), info.size(), tuning)) {
        ByteBuffer buf = ByteBuffer.allocate(READ);
        for (int pos = 0; pos < SIZE; pos += READ) {
          buf.clear();
          src.readFully(buf, pos);
          System.arraycopy(buf.array(), 0, got, pos, READ);
        }
      }
      System.out.printf("block %d, max fetch %d: %d 8 KiB reads of %d bytes fetched %d bytes in %d GETs%n", block,
          maxFetch, SIZE / READ, SIZE, s3.bytesServed(), s3.gets());
      assertArrayEquals(content, got);
      assertEquals(SIZE, s3.bytesServed(), "the object fetched once (the walk reaches its end)");
      // runs of 1, 2, 4, … blocks up to the limit, then one run per limit
      int ramp = 32 - Integer.numberOfLeadingZeros(maxFetch / block);
      assertTrue(s3.gets() <= ramp + SIZE / maxFetch + 1, "GETs: " + s3.gets());
    }
  }
}
