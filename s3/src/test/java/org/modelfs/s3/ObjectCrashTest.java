package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.KillLoop;
import org.modelfs.testing.SlowRuns;
import org.modelfs.testing.VersionedModel;

/**
 * SIGKILL of a writer in another JVM at random points of its commit to the store (the server
 * runs here): a mount afterwards shows the old version or the new one, whole; the bucket holds
 * only the model and generation objects; the next commit works and its cleanup leaves only the
 * current and the previous generation. Kills per kind: system property {@code crash.kills}
 * (default 3; 25 under {@code -Pslow}: each kill is a child JVM starting the AWS SDK).
 */
class ObjectCrashTest extends StoreTest {
  private static final int KILLS = SlowRuns.count("crash.kills", 3, 25);
  private static final long SEED = Long.getLong("crash.seed", System.nanoTime());
  @Test
  void singleObject() throws Exception {
    kills("crash1/one.sdnb", VersionedModel.local(tmp, "one.sdnb", ModelFormat.SDNB, 8, 64 * 1024, 0), 0);
  }

  @Test
  void shardSet() throws Exception {
    long shard = 300 * 1024;
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 8, 64 * 1024, shard);
    uploadShards("crash2/set/");
    kills("crash2/set/m.sdnb", null, shard);
  }

  private void kills(String key, Path local, long shard) throws Exception {
    if (local != null) {
      s3.upload(local, key);
    }
    String dir = key.substring(0, key.lastIndexOf('/') + 1);
    KillLoop.Outcome o = KillLoop.run(SEED, KILLS, (name, v) -> s3.child(Files.createDirectories(tmp.resolve(name)),
        key, v, shard, null, -1), () -> version(key), () -> {
          for (String k : s3.keys()) {
            if (k.startsWith(dir)) {
              String rest = k.substring(dir.length());
              assertTrue(k.equals(key) || rest.matches(".*\\.modelfs-g[0-9a-f]{32}/.*\\.shard\\d+-of-\\d+\\.sdnb")
                  || rest.matches(".*\\.shard\\d+-of-\\d+\\.sdnb"), "only the model's own objects: " + k);
            }
          }
        });
    System.out.println(KillLoop.summary(key, KILLS, o, SEED));
    Thread.sleep(1100); // leftovers are what is strictly older (to the second) than the model object
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), shard > 0 ? Map.of("format", "sdnb-sharded",
        "maxShardBytes", String.valueOf(shard)) : Map.of())) {
      VersionedModel.write(fs, 100);
    }
    assertEquals(100, version(key));
    List<String> left = s3.keys().stream().filter(k -> k.startsWith(dir) && !k.equals(key)).toList();
    if (shard > 0) {
      long generations = left.stream().map(k -> k.substring(0, k.lastIndexOf('/'))).distinct().count();
      assertTrue(generations <= 2, "after the next commit only the current and the previous generation: " + left);
    } else {
      assertEquals(List.of(), left, "a single-object model leaves nothing beside it");
    }
  }

  private static int version(String key) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
      return VersionedModel.version(fs);
    }
  }
}
