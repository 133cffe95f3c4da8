package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Small reads walking forward through a blob (a model's index read at open) fetch runs of blocks
 * that double, as s3's ObjectSource does, counted in requests at the client
 * ({@link BlobStore#REQUESTS}): 4 MiB in 64 KiB reads is 5 ranged GETs (1 + 2 + 4 + 8 + 1 blocks of
 * 256 KiB), not 16; a read elsewhere fetches one block (issue 34). A prefetched range (an
 * opening's head, tail and index) is one request per run of blocks not held, and its small
 * reads then cost none.
 */
class BlobReadAheadTest extends AzureTest {
  private static final int MIB = 1 << 20;

  @Test
  void aForwardWalkOfSmallReadsFetchesGrowingRuns() throws Exception {
    byte[] content = new byte[8 * MIB];
    new Random(34).nextBytes(content);
    Path local = Files.write(tmp.resolve("blob.bin"), content);
    upload(local, "ahead/blob.bin");
    BlobStore store = BlobStore.of(azurite.connectionString);
    String c = container.getBlobContainerName();
    BlobStore.Info info = store.head(c, "ahead/blob.bin");
    try (BlobSource src = new BlobSource(store, c, "ahead/blob.bin", info.etag(), info.size())) {
      long before = BlobStore.REQUESTS.get();
      byte[] got = new byte[4 * MIB];
      for (int at = 0; at < got.length; at += 64 * 1024) {
        ByteBuffer b = ByteBuffer.wrap(got, at, 64 * 1024);
        while (b.hasRemaining()) {
          assertTrue(src.read(b, b.position()) > 0); // the buffer wraps the whole array: its position is the blob's
        }
      }
      long walk = BlobStore.REQUESTS.get() - before;
      assertArrayEquals(Arrays.copyOf(content, 4 * MIB), got);
      assertEquals(5, walk, "ranged GETs for a 4 MiB forward walk in 64 KiB reads");

      long mark = BlobStore.REQUESTS.get();
      ByteBuffer one = ByteBuffer.allocate(100);
      int away = 7 * MIB + 12345; // not next to the walk's last run: one block
      src.read(one, away);
      assertEquals(1, BlobStore.REQUESTS.get() - mark);
      assertArrayEquals(Arrays.copyOfRange(content, away, away + 100), one.array());
    }
  }

  @Test
  void aPrefetchedIndexIsOneRequestAndItsSmallReadsNone() throws Exception {
    byte[] content = new byte[8 * MIB];
    new Random(35).nextBytes(content);
    upload(Files.write(tmp.resolve("index.bin"), content), "ahead/index.bin");
    BlobStore store = BlobStore.of(azurite.connectionString);
    String c = container.getBlobContainerName();
    BlobStore.Info info = store.head(c, "ahead/index.bin");
    try (BlobSource src = new BlobSource(store, c, "ahead/index.bin", info.etag(), info.size())) {
      long before = BlobStore.REQUESTS.get();
      src.prefetch(0, 1); // an opening's head
      src.prefetch(info.size() - 1, 1); // and tail
      src.prefetch(32, 3 * MIB); // then the index the head names: the blocks not held yet, one request
      assertEquals(3, BlobStore.REQUESTS.get() - before, "requests for head, tail and a 3 MiB index");
      byte[] got = new byte[3 * MIB];
      for (int at = 0; at < got.length; at += 8 * 1024) {
        ByteBuffer b = ByteBuffer.wrap(got, at, 8 * 1024);
        while (b.hasRemaining()) {
          assertTrue(src.read(b, 32 + b.position()) > 0);
        }
      }
      assertArrayEquals(Arrays.copyOfRange(content, 32, 32 + 3 * MIB), got);
      assertEquals(3, BlobStore.REQUESTS.get() - before, "the index's small reads come from the cache");
    }
  }
}
