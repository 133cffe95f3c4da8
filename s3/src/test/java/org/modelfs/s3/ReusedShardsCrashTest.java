package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ShardPointer;
import org.modelfs.store.StoreKeys;
import org.modelfs.testing.BytesChannel;
import org.modelfs.testing.CommitChild;
import org.modelfs.testing.SlowRuns;
import org.modelfs.testing.VersionedModel;

/**
 * SIGKILL of a writer in another JVM during commits that change one shard of a shard set and
 * name the others where older generations hold them: a mount afterwards shows the old model or
 * the new one, whole — every shard its pointer names is there — and the next commit's cleanup
 * leaves a model that reads whole. Kills: system property {@code crash.kills} (default 3; 12
 * under {@code -Pslow}).
 */
class ReusedShardsCrashTest extends StoreTest {
  private static final int KILLS = SlowRuns.count("crash.kills", 3, 12);
  private static final long SEED = Long.getLong("crash.seed", System.nanoTime());
  private static final int COUNT = 4;
  private static final long SHARD = 256 * 1024;
  private static final Map<String, String> SHARDED = Map.of("format", "sdnb-sharded", "maxShardBytes",
      String.valueOf(SHARD));

  /** The one byte value of each parameter {@code big/w0 … w<COUNT-1>} (each parameter is uniform). */
  private static int[] values(String key) throws IOException {
    return StoreTest.values(key, COUNT);
  }

  @Test
  void aKilledCommitThatKeepsShardsLeavesTheOldModelOrTheNewOneWhole() throws Exception {
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, COUNT, (int) (SHARD / 4), SHARD);
    uploadShards("reuse-crash/");
    String key = "reuse-crash/m.sdnb";
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), SHARDED)) {
      VersionedModel.write(fs, 1); // from the plain set: a pointer whose shards the next commits keep
    }
    Random random = new Random(SEED);
    int[] now = values(key);
    int olds = 0;
    int news = 0;
    for (int k = 1; k <= KILLS; k++) {
      int param = random.nextInt(COUNT);
      int next = 10 + k;
      int[] wanted = now.clone();
      wanted[param] = next;
      long delayMillis = random.nextInt(1500);
      try (CommitChild.Running c = s3.child(Files.createDirectories(tmp.resolve("child" + k)), key, next,
          SHARD, null, param)) {
        c.await("WRITTEN");
        TimeUnit.MILLISECONDS.sleep(delayMillis);
        c.process.destroyForcibly(); // SIGKILL
        c.process.waitFor(30, TimeUnit.SECONDS);
      }
      int[] seen = values(key);
      assertTrue(Arrays.equals(seen, now) || Arrays.equals(seen, wanted), "after a kill " + delayMillis + " ms"
          + " into a commit of w" + param + ": " + Arrays.toString(seen) + ", not the old " + Arrays.toString(now)
          + " or the new " + Arrays.toString(wanted) + " (seed " + SEED + ")");
      if (Arrays.equals(seen, wanted)) {
        news++;
      } else {
        olds++;
      }
      now = seen;
    }
    System.out.println("[ReusedShardsCrashTest] " + KILLS + " kills: " + olds + " old, " + news + " new (seed "
        + SEED + ")");
    Thread.sleep(1100); // leftovers are what is strictly older (to the second) than the model object
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), SHARDED)) {
      Path p = fs.getPath("/params/big/w0");
      byte[] b = new byte[(int) Files.size(p)];
      Arrays.fill(b, (byte) 99);
      Files.write(p, b);
    }
    int[] last = values(key);
    now[0] = 99;
    assertArrayEquals(now, last, "the next commit, after its cleanup, reads whole");
    List<ShardPointer.Shard> pointer = ShardPointer.read(ChannelSource.of(key,
        new BytesChannel(s3.bytes(key))), "m.sdnb").shards();
    assertTrue(pointer.stream().map(s -> StoreKeys.generationOf(s.key())).distinct().count() > 1,
        "the commits kept unchanged shards where older generations hold them: " + pointer);
  }
}
