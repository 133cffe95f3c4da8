package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A conditional write whose answer is lost (stored, then a 500; the client retries and meets its
 * own object as a 412) is recognised as ours by the write id in its metadata — also where the
 * store's ETags are not MD5s (SSE-KMS) — and a real lost race stays a lost race. Before, a
 * KMS-style ETag made ModelFS take its own landed write for another writer's (and delete the
 * shard-set generation the landed pointer named).
 */
class AmbiguousWriteTest extends StoreTest {
  @Test
  void aWriteThatLandedIsOursWhateverTheStoresEtags() throws Exception {
    Path body = Files.write(tmp.resolve("body"), new byte[] {1, 2, 3, 4});
    ObjectStore store = ObjectLocation.of(s3.path("amb/one")).store();
    s3.failAfterStore("amb/one");
    s3.opaqueHeads(true);
    try {
      String etag = store.put(S3TestServer.BUCKET, "amb/one", body, ObjectStore.Condition.ABSENT, Map.of());
      assertNotNull(etag);
    } finally {
      s3.opaqueHeads(false);
    }
    assertArrayEquals(new byte[] {1, 2, 3, 4}, s3.bytes("amb/one"));
  }

  @Test
  void anotherWritersObjectIsStillALostRace() throws Exception {
    Path mine = Files.write(tmp.resolve("mine"), new byte[] {1});
    Path theirs = Files.write(tmp.resolve("theirs"), new byte[] {2});
    s3.upload(theirs, "amb/two");
    ObjectStore store = ObjectLocation.of(s3.path("amb/two")).store();
    s3.opaqueHeads(true);
    try {
      assertThrows(ObjectStore.PreconditionFailed.class, () -> store.put(S3TestServer.BUCKET, "amb/two", mine,
          ObjectStore.Condition.ABSENT, Map.of()));
    } finally {
      s3.opaqueHeads(false);
    }
    assertArrayEquals(new byte[] {2}, s3.bytes("amb/two"));
  }
}
