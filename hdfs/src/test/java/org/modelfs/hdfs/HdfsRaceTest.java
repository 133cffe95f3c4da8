package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.Backing;
import org.modelfs.store.Backings;
import org.modelfs.testing.VersionedModel;

/**
 * Writers and readers of one model in HDFS from two clients (two Hadoop clients, two leases:
 * {@code hdfs://localhost:PORT} and {@code hdfs://127.0.0.1:PORT}): two writers → exactly one
 * commit wins; a live writer's lock is never taken; a lock left closed is taken over; readers
 * during commits see one version or are told the model changed — never a mix.
 */
class HdfsRaceTest {
  @TempDir Path tmp;

  private static Path other(String path) throws IOException {
    return Path.of(URI.create("hdfs://127.0.0.1:" + HdfsTestCluster.port() + path));
  }

  private String model(String path, ModelFormat format, long shard) throws IOException {
    Path local = VersionedModel.local(tmp, "m.sdnb", format, 8, 16 * 1024, shard);
    if (shard == 0) {
      HdfsTestCluster.upload(local, path);
      return path;
    }
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("m\\.shard\\d+-of-\\d+\\.sdnb")) {
          HdfsTestCluster.upload(p, path.substring(0, path.lastIndexOf('/') + 1) + p.getFileName());
        }
      }
    }
    return path;
  }

  /**
   * {@code modelfs clean} in a loop while a writer commits the shard set and a reader mounts it
   * again and again. HDFS's clean is the crash recovery and takes the writer lock: a clean and a
   * commit may refuse each other (the commit is tried again).
   */
  @Test
  void cleanRacingCommits() throws Exception {
    long shard = 40 * 1024;
    String p = model("/race-clean/m.sdnb", ModelFormat.SHARDED_SDNB, shard);
    org.modelfs.testing.CleanRace.run(HdfsTestCluster.path(p), HdfsTestCluster.uri(p).toString(), shard, 4, true);
  }

  @Test
  void twoWritersOfTwoClientsExactlyOneWins() throws Exception {
    String path = model("/race/m.sdnb", ModelFormat.SDNB, 0);
    FileSystem a = ModelFileSystems.open(HdfsTestCluster.path(path));
    FileSystem b = ModelFileSystems.open(other(path));
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (var entry : List.of(Map.entry(a, 1), Map.entry(b, 2))) {
        results.add(pool.submit(() -> {
          go.await();
          try {
            VersionedModel.write(entry.getKey(), entry.getValue()); // the first write takes the lock
            entry.getKey().close(); // the commit
            return entry.getValue();
          } catch (IOException e) {
            entry.getKey().close();
            assertTrue(e.getMessage().contains("changed since it was mounted")
                || e.getMessage().contains("another writer has the model open"), e.toString());
            return 0;
          }
        }));
      }
      go.countDown();
      int winners = 0;
      int winner = 0;
      for (Future<Integer> f : results) {
        if (f.get() > 0) {
          winners++;
          winner = f.get();
        }
      }
      assertEquals(1, winners, "exactly one writer commits");
      try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path(path), Map.of("readOnly", "true"))) {
        assertEquals(winner, VersionedModel.version(fs));
      }
      assertEquals(List.of("m.sdnb"), HdfsTestCluster.names("/race"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aLiveWritersLockIsNeverTakenAndALockLeftClosedIs() throws Exception {
    String path = model("/locks/m.sdnb", ModelFormat.SDNB, 0);
    Backing mine = Backings.of(HdfsTestCluster.path(path));
    Backing theirs = Backings.of(other(path));
    try (Backing.Lease held = mine.lock()) {
      FileSystemException e = assertThrows(FileSystemException.class, theirs::lock);
      assertTrue(e.getMessage().contains("holds the HDFS lease of the lock file .m.sdnb.modelfs-lock"), e.getMessage());
      FileSystemException same = assertThrows(FileSystemException.class, mine::lock);
      assertTrue(same.getMessage().contains("another writer in this JVM"), same.getMessage());
      assertTrue(held.held());
    }
    assertEquals(List.of("m.sdnb"), HdfsTestCluster.names("/locks"), "released: the lock file is gone");
    HdfsTestCluster.admin().create(new org.apache.hadoop.fs.Path("/locks/.m.sdnb.modelfs-lock"), false).close();
    try (Backing.Lease l = theirs.lock()) {
      assertTrue(l.held(), "a lock file no client holds open is taken over");
    }
    assertEquals(List.of("m.sdnb"), HdfsTestCluster.names("/locks"));
  }

  /**
   * A writer whose lease the NameNode gave away (as after a pause past the soft limit; here taken
   * by force with {@code recoverLease}) renames nothing: the fence before the rename refuses.
   */
  @Test
  void aWriterThatLostItsLeaseCommitsNothing() throws Exception {
    String path = model("/fenced/m.sdnb", ModelFormat.SDNB, 0);
    byte[] before = HdfsTestCluster.bytes(path);
    FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path(path));
    VersionedModel.write(fs, 5);
    org.apache.hadoop.fs.Path lock = new org.apache.hadoop.fs.Path("/fenced/.m.sdnb.modelfs-lock");
    var dfs = (DistributedFileSystem) HdfsTestCluster.admin();
    for (int i = 0; i < 100 && !dfs.recoverLease(lock); i++) {
      Thread.sleep(100);
    }
    IOException e = assertThrows(IOException.class, fs::close);
    assertTrue(e.getMessage().contains("lost the HDFS lease"), e.getMessage());
    assertArrayEquals(before, HdfsTestCluster.bytes(path), "nothing was replaced");
  }

  @Test
  void readersDuringCommitsNeverSeeAMix() throws Exception {
    String path = model("/readers/m.sdnb", ModelFormat.SHARDED_SDNB, 40 * 1024);
    assertTrue(HdfsTestCluster.names("/readers").size() > 2, HdfsTestCluster.names("/readers").toString());
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<int[]> reader = pool.submit(() -> {
        int reads = 0;
        int changed = 0;
        int last = 0;
        while (!done.get() || reads == 0) {
          try (FileSystem fs = ModelFileSystems.open(other(path), Map.of("readOnly", "true"))) {
            int v = VersionedModel.version(fs);
            assertTrue(v >= last, "a reader never goes back: " + v + " after " + last);
            last = v;
            reads++;
          } catch (HdfsChangedException | UncheckedIOException e) {
            changed++;
          } catch (IOException e) {
            if (!(e.getCause() instanceof HdfsChangedException)) {
              throw e;
            }
            changed++;
          }
        }
        return new int[] {reads, changed};
      });
      for (int v = 1; v <= 4; v++) {
        try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path(path), Map.of("format", "sdnb-sharded",
            "maxShardBytes", String.valueOf(40 * 1024)))) {
          VersionedModel.write(fs, v);
        }
      }
      done.set(true);
      int[] r = reader.get();
      System.out.println("readers during 4 commits: " + r[0] + " whole reads, " + r[1] + " told the model changed");
      try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path(path), Map.of("readOnly", "true"))) {
        assertEquals(4, VersionedModel.version(fs));
      }
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
  }
}
