package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.CommitChild;
import org.modelfs.testing.KillLoop;
import org.modelfs.testing.SlowRuns;
import org.modelfs.testing.VersionedModel;

/**
 * Writers in child JVMs against Azurite: two that commit at once → exactly one wins, the other is
 * told the model changed, and the model is the winner's whole; a writer killed (SIGKILL) at a
 * random moment of its commit → the model is the old version or the new one, never a mix, and
 * only the model's own blobs are beside it. Readers check every byte ({@link VersionedModel#version}).
 *
 * <p>Tagged {@code slow}: every child JVM loads the Azure SDK and Netty (about 5 s each on a busy
 * 2-core machine), so the class takes about 2 minutes; run it with
 * {@code mvn -pl azure -Pslow test -Dtest=RaceAndCrashTest} (25 kills instead of 2).
 */
@Tag("slow")
class RaceAndCrashTest extends AzureTest {
  private static final int KILLS = SlowRuns.count("crash.kills", 2, 25);
  private static final long SEED = Long.getLong("crash.seed", System.nanoTime());

  private CommitChild.Running child(String name, String key, int version, long shard, Path go) throws IOException {
    return new CommitChild.Running(Files.createDirectories(tmp.resolve(name)),
        List.of("-D" + BlobFileSystemProvider.PROPERTY + "=" + azurite.connectionString), uri(key), version, shard, go);
  }

  private static int version(String key, long shard) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(path(key), Map.of("readOnly", "true"))) {
      return VersionedModel.version(fs);
    }
  }

  @Test
  void twoWritersExactlyOneWins() throws Exception {
    upload(VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 4, 128 * 1024, 0), "race1/m.sdnb");
    race("race1/m.sdnb", 0);
    long shard = 600 * 1024;
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 4, 128 * 1024, shard);
    uploadShards("race2/");
    race("race2/m.sdnb", shard);
  }

  private void race(String key, long shard) throws Exception {
    Path go = tmp.resolve("go-" + key.replace('/', '-'));
    List<CommitChild.Running> children = new ArrayList<>();
    int[] versions = {10, 11};
    try {
      for (int v : versions) {
        children.add(child("c" + v + key.replace('/', '-'), key, v, shard, go));
      }
      for (CommitChild.Running c : children) {
        c.await("WRITTEN");
      }
      Files.createFile(go);
      List<String> results = new ArrayList<>();
      for (CommitChild.Running c : children) {
        results.add(c.await("COMMITTED", "REFUSED"));
      }
      assertEquals(1, results.stream().filter(r -> r.equals("COMMITTED")).count(), "exactly one wins: " + results);
      String lost = results.stream().filter(r -> r.startsWith("REFUSED")).findFirst().orElseThrow();
      assertTrue(lost.contains("the model changed since it was mounted"), lost);
      assertEquals(versions[results.indexOf("COMMITTED")], version(key, shard), "the winner's model, whole");
    } finally {
      for (CommitChild.Running c : children) {
        c.close();
      }
    }
  }

  @Test
  void aKilledWriterLeavesTheOldOrTheNewModel() throws Exception {
    kills("crash1/m.sdnb", 0);
  }

  @Test
  void aKilledShardSetWriterLeavesTheOldOrTheNewModel() throws Exception {
    kills("crash2/m.sdnb", 600 * 1024);
  }

  private void kills(String key, long shard) throws Exception {
    Path local = VersionedModel.local(tmp, "m.sdnb", shard > 0 ? ModelFormat.SHARDED_SDNB : ModelFormat.SDNB, 4,
        128 * 1024, shard);
    if (shard > 0) {
      uploadShards(key.substring(0, key.lastIndexOf('/') + 1));
    } else {
      upload(local, key);
    }
    String dir = key.substring(0, key.lastIndexOf('/') + 1);
    KillLoop.Outcome o = KillLoop.run(SEED, KILLS, (name, v) -> child(name, key, v, shard, null),
        () -> version(key, shard), () -> {
          for (String k : keys(dir)) {
            String rest = k.substring(dir.length());
            assertTrue(k.equals(key) || rest.matches("m\\.sdnb\\.modelfs-g[0-9a-f]{32}/m\\.shard\\d+-of-\\d+\\.sdnb")
                || rest.matches("m\\.shard\\d+-of-\\d+\\.sdnb"), "only the model's own blobs: " + k);
          }
        });
    System.out.println(KillLoop.summary(key, KILLS, o, SEED));
  }
}
