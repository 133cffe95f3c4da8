package org.modelfs.s3;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.testing.VersionedModel;

/**
 * What every object-store test class shares: an {@link S3TestServer} started for the class, a
 * temporary directory per test, and uploading a local shard set.
 */
abstract class StoreTest {
  static S3TestServer s3;
  @TempDir
  Path tmp;

  @BeforeAll
  static void startServer() throws Exception {
    s3 = S3TestServer.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    s3.close();
  }

  /** Uploads the DL4J-named shards {@code m.shard<k>-of-<N>.sdnb} in {@code tmp} as {@code prefix<name>}. */
  void uploadShards(String prefix) throws IOException {
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("m\\.shard\\d+-of-\\d+\\.sdnb")) {
          s3.upload(p, prefix + p.getFileName());
        }
      }
    }
  }

  /**
   * The one byte value of each parameter {@code big/w0 … w<count-1>} of a fresh mount of
   * {@code key} ({@link org.modelfs.testing.VersionedModel}'s parameters); fails on a mix within one.
   */
  static int[] values(String key, int count) throws IOException {
    return VersionedModel.values(s3.path(key), count);
  }
}
