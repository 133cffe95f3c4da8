package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.FaultSweep;
import org.modelfs.testing.VersionedModel;

/**
 * Every namespace change of a commit failing, one at a time (issue 34's hostile trial): a create
 * (the lock, a temporary, the install record), a rename or a delete refused before the NameNode
 * applies it (it and every later one: an outage), or applied with its answer lost. After each: a
 * fresh mount reads the old model or the new one, whole — the new one exactly when the commit
 * reported success (before: a rename that landed, a failed install after the complete record and
 * a failed removal of the lock were reported as failed commits; a lost answer to the lock's
 * create left this client's lease on it, and the model "open by another writer" until the JVM
 * exited); the next commit and {@code clean} work; files beside the model whose names share its
 * prefix are untouched. Through a client of its own (authority {@code LocalHost:PORT}) whose
 * {@code FileSystem} and {@code FileContext} fail as {@link HdfsFaults} says.
 */
class HdfsCommitFaultsTest {
  private static final int COUNT = 3;

  @TempDir Path tmp;

  @AfterEach
  void noFaults() {
    HdfsFaults.off();
  }

  private static Path faulty(String path) throws Exception {
    URI root = URI.create("hdfs://LocalHost:" + HdfsTestCluster.port() + "/");
    try {
      FileSystems.newFileSystem(root, Map.of("fs.hdfs.impl", FaultyDfs.class.getName(),
          "fs.AbstractFileSystem.hdfs.impl", "org.apache.hadoop.fs.FaultyHdfs", "fs.hdfs.impl.disable.cache", "true"));
    } catch (java.nio.file.FileSystemAlreadyExistsException e) {
      // made by the other case
    }
    return Path.of(root.resolve(path));
  }

  /** The shard set's sweep (-Pslow: a NameNode round trip per namespace change; its findings replay below in every run). */
  @Test
  @Tag("slow")
  void aFailureAtEveryNamespaceChangeLeavesTheOldModelOrTheNewOneForAShardSet() throws Exception {
    aFailureAtEveryNamespaceChangeLeavesTheOldModelOrTheNewOne("sharded");
  }

  /** The single file's sweep (-Pslow, as the shard set's). */
  @Test
  @Tag("slow")
  void aFailureAtEveryNamespaceChangeLeavesTheOldModelOrTheNewOneForASingleFile() throws Exception {
    aFailureAtEveryNamespaceChangeLeavesTheOldModelOrTheNewOne("single");
  }

  private void aFailureAtEveryNamespaceChangeLeavesTheOldModelOrTheNewOne(String kind) throws Exception {
    boolean sharded = kind.equals("sharded");
    String dir = "/faults-" + kind + "/";
    Map<String, String> env = sharded ? Map.of("format", "sdnb-sharded", "maxShardBytes", String.valueOf(64 * 1024))
        : Map.of();
    Path local = VersionedModel.local(tmp, "m.sdnb", sharded ? ModelFormat.SHARDED_SDNB : ModelFormat.SDNB, COUNT,
        16 * 1024, sharded ? 64 * 1024 : 0);
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("m\\.(sdnb|shard\\d+-of-\\d+\\.sdnb)")) {
          HdfsTestCluster.upload(p, dir + p.getFileName());
        }
      }
    }
    List<String> neighbours = List.of("m", "m.sdnb2", "m.sdnb.bak", ".m.sdnb2.modelfs-lock",
        ".m.sdnb.modelfs-0123456789abcdef0123456789abcde.tmp", "m.shard0-of-2.sdnb2");
    for (String n : neighbours) {
      HdfsTestCluster.upload(Files.write(tmp.resolve("n"), n.getBytes()), dir + n);
    }
    Path model = faulty(dir + "m.sdnb");
    List<String> outcomes = FaultSweep.run(model, model.toUri().toString(), env, COUNT, new FaultSweep.Faults() {
      @Override
      public void arm(boolean before, int n) {
        if (before) {
          HdfsFaults.failBefore(n);
        } else {
          HdfsFaults.failAfter(n);
        }
      }

      @Override
      public List<String> disarm() {
        HdfsFaults.off();
        return HdfsFaults.failed();
      }
    });
    for (String n : neighbours) {
      assertArrayEquals(n.getBytes(), HdfsTestCluster.bytes(dir + n), n + " is not the model's: " + outcomes);
    }
  }

  /** A single-file model {@code /faults-<name>/m.sdnb}, version 0, through the failing client. */
  private Path single(String name) throws Exception {
    HdfsTestCluster.upload(VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, COUNT, 16 * 1024, 0),
        "/faults-" + name + "/m.sdnb");
    return faulty("/faults-" + name + "/m.sdnb");
  }

  /**
   * The default run's cases of what the sweep found: a rename applied with its answer lost, and a
   * failed removal of the lock file at release, are commits that landed (before: "closed without
   * committing"); a lock create applied with its answer lost no longer locks the model for the
   * JVM's life (before: "another writer has the model open").
   */
  @org.junit.jupiter.api.Test
  void whatTheSweepFoundInOneCommitEach() throws Exception {
    Path model = single("rename");
    HdfsFaults.failFirst(true, "create .m.sdnb.modelfs-lock");
    assertThrows(FileSystemException.class, () -> VersionedModel.commit(model, Map.of(), 2, 7));
    HdfsFaults.failFirst(true, "rename ");
    VersionedModel.commit(model, Map.of(), 0, 9); // and the lease our own client was left holding is ended
    assertEquals(1, HdfsFaults.failed().size(), "the rename failed after it was applied: " + HdfsFaults.failed());
    HdfsFaults.failFirst(false, "delete .m.sdnb.modelfs-lock");
    VersionedModel.commit(model, Map.of(), 1, 8);
    assertEquals(1, HdfsFaults.failed().size(), "the lock's removal failed: " + HdfsFaults.failed());
    HdfsFaults.off();
    VersionedModel.commit(model, Map.of(), 2, 6); // the lock file left closed is taken over
    assertArrayEquals(new int[] {9, 8, 6}, VersionedModel.values(model, COUNT));
    assertEquals(List.of("m.sdnb"), HdfsTestCluster.names("/faults-rename"));
  }
}
