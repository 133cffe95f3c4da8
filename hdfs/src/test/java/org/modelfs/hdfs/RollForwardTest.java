package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.Backing;
import org.modelfs.store.Backings;
import org.modelfs.store.SidecarNames;
import org.modelfs.testing.VersionedModel;

/**
 * A writer killed right after its install record was complete (what it leaves, made here by
 * hand: the new shards under temporaries, the record, the old shards): a reader already sees the
 * new version whole, and {@code clean} (or the next writer) finishes the install — renames,
 * deletes, record removed — leaving exactly the new shard set.
 */
class RollForwardTest {
  @TempDir Path tmp;

  private static List<Path> shards(Path dir) throws Exception {
    try (var files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().matches("m\\.shard\\d+-of-\\d+\\.sdnb")).sorted().toList();
    }
  }

  /** What a writer killed after its complete record leaves in {@code dir}: returns the new set's names. */
  private List<String> leaveARecord(String dir) throws Exception {
    Path work = Files.createDirectories(tmp.resolve(dir.replace('/', '_')));
    long shard = 40 * 1024;
    Path v0 = Files.createDirectories(work.resolve("v0"));
    VersionedModel.local(v0, "m.sdnb", ModelFormat.SHARDED_SDNB, 6, 16 * 1024, shard);
    Path v1 = Files.createDirectories(work.resolve("v1"));
    Path local1 = VersionedModel.local(v1, "m.sdnb", ModelFormat.SHARDED_SDNB, 6, 16 * 1024, shard);
    try (FileSystem fs = ModelFileSystems.open(local1, Map.of("format", "sdnb-sharded", "maxShardBytes",
        String.valueOf(shard)))) {
      VersionedModel.write(fs, 1);
    }
    for (Path p : shards(v0)) {
      HdfsTestCluster.upload(p, dir + p.getFileName());
    }
    StringBuilder record = new StringBuilder();
    List<String> expected = new ArrayList<>();
    for (Path p : shards(v1)) {
      String target = p.getFileName().toString();
      String temp = SidecarNames.newTemp(target);
      HdfsTestCluster.upload(p, dir + temp);
      record.append("rename\t").append(temp).append('\t').append(target).append('\n');
      expected.add(target);
    }
    record.append("end\n");
    String name = SidecarNames.newRecord("m.sdnb");
    HdfsTestCluster.upload(Files.writeString(work.resolve("record"), record), dir + name);

    return expected;
  }

  @Test
  void aCompleteRecordIsReadAsInstalledAndFinishedByClean() throws Exception {
    String name = null;
    List<String> expected = leaveARecord("/rollfwd/");
    for (String n : HdfsTestCluster.names("/rollfwd")) {
      name = SidecarNames.isRecord("m.sdnb", n) ? n : name;
    }
    Backing b = Backings.of(HdfsTestCluster.path("/rollfwd/m.sdnb"));
    try (var snap = b.open().model()) {
      assertEquals(expected.size(), snap.shards().weightShards().size() + 1, "the record's set, opened as installed");
    }
    assertTrue(HdfsTestCluster.names("/rollfwd").contains(name), "opening changed nothing");
    List<String> cleaned = b.clean();
    assertEquals(List.of(name), cleaned, "the record was finished; its temporaries became the shards");
    assertEquals(expected.stream().sorted().toList(), HdfsTestCluster.names("/rollfwd"));
    try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path("/rollfwd/m.sdnb"), Map.of("readOnly", "true"))) {
      assertEquals(1, VersionedModel.version(fs));
    }
  }

  /** A read-only mount finishes a crashed writer's complete record itself when no writer holds the lock. */
  @Test
  void aReadOnlyMountFinishesItWhenTheLockIsFree() throws Exception {
    List<String> expected = leaveARecord("/rollfwd2/");
    try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path("/rollfwd2/m.sdnb"), Map.of("readOnly", "true"))) {
      assertEquals(1, VersionedModel.version(fs));
    }
    assertEquals(expected.stream().sorted().toList(), HdfsTestCluster.names("/rollfwd2"));
  }
}
