package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.CommitChild;
import org.modelfs.testing.SlowRuns;
import org.modelfs.testing.VersionedModel;

/**
 * Two writers in two JVMs mount the same model, change it and commit at the same moment: exactly
 * one commit lands, the other is refused with "the model changed since it was mounted", and the
 * stored model is the winner's, whole. For a single object and for a shard set.
 */
class ObjectRaceTest extends StoreTest {
  /** Rounds per kind: 1 by default, 10 under {@code -Pslow}, or {@code -Drace.rounds=N}. */
  private static final int ROUNDS = SlowRuns.count("race.rounds", 1, 10);
  @Test
  void singleObject() throws Exception {
    s3.upload(VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 4, 16 * 1024, 0), "race1/m.sdnb");
    race("race1/m.sdnb", 0);
  }

  @Test
  void shardSet() throws Exception {
    long shard = 40 * 1024;
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 4, 16 * 1024, shard);
    uploadShards("race2/");
    race("race2/m.sdnb", shard);
  }

  /** {@code modelfs clean} in a loop while a writer commits the shard set and a reader mounts it again and again. */
  @Test
  void cleanRacingCommits() throws Exception {
    long shard = 40 * 1024;
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 4, 16 * 1024, shard);
    uploadShards("race-clean/");
    org.modelfs.testing.CleanRace.run(s3.path("race-clean/m.sdnb"), s3.uri("race-clean/m.sdnb").toString(), shard, 6);
  }

  private void race(String key, long shard) throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Path go = tmp.resolve("go" + round);
      List<CommitChild.Running> children = new ArrayList<>();
      int[] versions = {10 + 2 * round, 11 + 2 * round};
      try {
        for (int v : versions) {
          children.add(s3.child(Files.createDirectories(tmp.resolve("c" + v)), key, v, shard, go, -1));
        }
        for (CommitChild.Running c : children) {
          c.await("WRITTEN");
        }
        Files.createFile(go); // both mounted and changed: commit now
        List<String> results = new ArrayList<>();
        for (CommitChild.Running c : children) {
          results.add(c.await("COMMITTED", "REFUSED"));
        }
        long won = results.stream().filter(r -> r.equals("COMMITTED")).count();
        assertEquals(1, won, "exactly one writer wins: " + results);
        String lost = results.stream().filter(r -> r.startsWith("REFUSED")).findFirst().orElseThrow();
        assertTrue(lost.contains("the model changed since it was mounted"), lost);
        int winner = versions[results.indexOf("COMMITTED")];
        try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
          assertEquals(winner, VersionedModel.version(fs), "the winner's model, whole");
        }
      } finally {
        for (CommitChild.Running c : children) {
          c.close();
        }
      }
    }
  }
}
