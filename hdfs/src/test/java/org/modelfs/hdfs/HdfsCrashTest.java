package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.CommitChild;
import org.modelfs.testing.KillLoop;
import org.modelfs.testing.SlowRuns;
import org.modelfs.testing.VersionedModel;

/**
 * SIGKILL of a writer in another JVM at random points of its commit to HDFS (the cluster runs
 * here): a mount afterwards shows the old version or the new one, whole; only the model's files
 * and what the dead writer left under names of its own (its lock, temporaries, install record)
 * are beside it; the next writer takes the dead writer's lock once the lease's soft limit has
 * passed (set to 2 s here, 60 s by default), finishes or removes what it left, and commits.
 * Kills per kind: system property {@code crash.kills} (default 3; 20 under {@code -Pslow}).
 */
class HdfsCrashTest {
  private static final int KILLS = SlowRuns.count("crash.kills", 3, 20);
  private static final long SEED = Long.getLong("crash.seed", System.nanoTime());
  private static final long SOFT_LEASE_MS = 2000;
  @TempDir Path tmp;

  @BeforeAll
  static void shortLeases() throws Exception {
    HdfsTestCluster.get().setLeasePeriod(SOFT_LEASE_MS, 20 * 60_000);
  }

  @AfterAll
  static void defaultLeases() throws Exception {
    MiniDFSCluster c = HdfsTestCluster.get();
    c.setLeasePeriod(60_000, 20 * 60_000);
  }

  @Test
  void singleFile() throws Exception {
    HdfsTestCluster.upload(VersionedModel.local(tmp, "one.sdnb", ModelFormat.SDNB, 8, 64 * 1024, 0), "/crash1/one.sdnb");
    kills("/crash1/one.sdnb", 0);
  }

  @Test
  void shardSet() throws Exception {
    long shard = 300 * 1024;
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 8, 64 * 1024, shard);
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("m\\.shard\\d+-of-\\d+\\.sdnb")) {
          HdfsTestCluster.upload(p, "/crash2/" + p.getFileName());
        }
      }
    }
    kills("/crash2/m.sdnb", shard);
  }

  private void kills(String path, long shard) throws Exception {
    String dir = path.substring(0, path.lastIndexOf('/'));
    KillLoop.Outcome o = KillLoop.run(SEED, KILLS, (name, v) -> new CommitChild.Running(
        Files.createDirectories(tmp.resolve(name)), List.of(), HdfsTestCluster.uri(path).toString(), v, shard, null),
        () -> version(path), () -> {
          for (String n : HdfsTestCluster.names(dir)) {
            assertTrue(n.matches("(one\\.sdnb|m\\.shard\\d+-of-\\d+\\.sdnb)")
                || n.matches("\\.(one|m)\\.sdnb\\.modelfs-(lock|commit-[0-9a-f]{32})")
                || n.matches("\\.(one\\.sdnb|m\\.shard\\d+-of-\\d+\\.sdnb)\\.modelfs-[0-9a-f]{32}\\.tmp"),
                "only the model's files and names the writer owns: " + n);
          }
          Thread.sleep(SOFT_LEASE_MS + 500); // the dead writer's lease expires: the next writer may take its lock
        });
    System.out.println(KillLoop.summary(path, KILLS, o, SEED));
    try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path(path), shard > 0 ? Map.of("format",
        "sdnb-sharded", "maxShardBytes", String.valueOf(shard)) : Map.of())) {
      VersionedModel.write(fs, 100);
    }
    assertEquals(100, version(path));
    for (String n : HdfsTestCluster.names(dir)) {
      assertTrue(n.matches("one\\.sdnb|m\\.shard\\d+-of-\\d+\\.sdnb"), "after the next commit only the model: " + n);
    }
  }

  private static int version(String path) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path(path), Map.of("readOnly", "true"))) {
      return VersionedModel.version(fs);
    }
  }
}
