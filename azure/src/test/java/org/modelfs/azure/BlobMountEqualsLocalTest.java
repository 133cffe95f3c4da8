package org.modelfs.azure;

import static org.modelfs.testing.SameTree.assertSameModel;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.testing.StoreModels;

/**
 * Every model kind and every DL4J fixture mounted from Azurite shows exactly what the same model
 * mounted from a local file shows: the same paths, attributes and bytes (as s3's
 * StoreMountEqualsLocalTest for S3).
 */
class BlobMountEqualsLocalTest extends AzureTest {

  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#fbFixtures")
  void everyFbFixture(String fixture) throws Exception {
    upload(FIXTURES.resolve(fixture), "fixtures/" + fixture);
    assertSameModel(FIXTURES.resolve(fixture), path("fixtures/" + fixture));
  }

  /** A sharded container by its base name: refused saying what its shards are (before: "no shards of this base name"). */
  @org.junit.jupiter.api.Test
  void aShardedContainerIsRefusedByName() throws Exception {
    StoreModels.assertShardedContainerRefused(tmp.resolve("sdmc"), "sdmc/", AzureTest::upload, AzureTest::path);
  }

  /** The CLI's reading commands on every kind print and write what they do on the local file. */
  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#kinds")
  void theCliOnEveryStoreModel(String kind) throws Exception {
    StoreModels.Written m = StoreModels.put(tmp.resolve(kind), kind, "cli/" + kind + "/", AzureTest::upload);
    org.modelfs.testing.StoreCli.assertSameAsLocal(m.model(), uri("cli/" + kind + "/" + m.name()), tmp);
  }

  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#kinds")
  void everyStoreModel(String kind) throws Exception {
    StoreModels.assertStoredAsLocal(tmp.resolve(kind), kind, "kinds/" + kind + "/", AzureTest::upload, AzureTest::path);
  }

}
