package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.VersionedModel;

/**
 * Cleanup's grace period: the model object rewritten with the same bytes (same ETag, newer time)
 * while a writer uploads its shard set made that writer's shards look older than the model
 * object, and a cleanup then deleted them just before the writer's pointer landed — a committed
 * model naming deleted shards. With the grace period (default 24 h) they stay.
 */
class CleanupGraceTest extends StoreTest {
  @AfterEach
  void noGrace() {
    System.setProperty("modelfs.s3.cleanup-grace-seconds", "0"); // as the other tests run (s3/pom.xml)
  }

  @Test
  void aLiveWritersShardsSurviveACleanupWhileTheModelObjectIsRewrittenWithTheSameBytes() throws Exception {
    System.setProperty("modelfs.s3.cleanup-grace-seconds", String.valueOf(Cleanup.DEFAULT_GRACE_SECONDS));
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 4, 16 * 1024, 0);
    String key = "grace/m.sdnb";
    s3.upload(local, key);
    ObjectLocation at = ObjectLocation.of(s3.path(key));
    AtomicBoolean raced = new AtomicBoolean();
    List<String>[] deleted = new List[1];
    s3.beforePut(k -> {
      if (k.equals(key) && raced.compareAndSet(false, true)) {
        try {
          Thread.sleep(1100); // the writer's shards are now older than what comes next, to the second
          s3.upload(local, key); // the same bytes again: the same ETag, a newer time
          deleted[0] = Cleanup.run(at); // 'modelfs clean', or another writer's cleanup
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
    });
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("format", "sdnb-sharded", "maxShardBytes",
        "40000"))) {
      VersionedModel.write(fs, 3);
    } finally {
      s3.beforePut(null);
    }
    assertTrue(raced.get());
    assertEquals(List.of(), deleted[0], "nothing younger than the grace period is removed");
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
      assertEquals(3, VersionedModel.version(fs), "the committed shard set is whole");
    }
  }

  @Test
  void leftoversYoungerThanTheGracePeriodStayOlderOnesGo() throws Exception {
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 2, 16, 0);
    String key = "grace2/m.sdnb";
    s3.upload(local, key);
    String dead = "grace2/m.sdnb.modelfs-g" + "0f".repeat(16) + "/m.shard0-of-1.sdnb";
    s3.upload(local, dead);
    Thread.sleep(1100);
    s3.upload(local, key); // the model object, strictly newer than the dead shard
    ObjectLocation at = ObjectLocation.of(s3.path(key));
    System.setProperty("modelfs.s3.cleanup-grace-seconds", "3600");
    assertEquals(List.of(), Cleanup.run(at));
    assertTrue(s3.keys().contains(dead));
    System.setProperty("modelfs.s3.cleanup-grace-seconds", "0");
    assertEquals(List.of(dead), Cleanup.run(at));
    assertFalse(s3.keys().contains(dead));
    assertTrue(Files.size(local) > 0);
  }
}
