package org.modelfs.hdfs;

import static org.modelfs.testing.SameTree.assertSameModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.StoreModels;
import org.modelfs.testing.VersionedModel;

/**
 * A cluster unlike HdfsTestCluster's default: 1 MiB blocks (every model of a few MiB, and every
 * shard, spans blocks; parameters and the FlatGraph straddle block ends), three DataNodes with
 * replication 2, and listings paged by 5 entries ({@code dfs.ls.limit}). What a mount shows is
 * what the same model shows locally.
 */
class OddClusterTest {
  static final int BLOCK = 1 << 20;
  static MiniDFSCluster cluster;
  static org.apache.hadoop.fs.FileSystem admin;
  @TempDir Path tmp;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        Path.of("target", "minidfs-odd-" + ProcessHandle.current().pid()).toAbsolutePath().toString());
    conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
    conf.setLong("dfs.blocksize", BLOCK);
    conf.setInt("dfs.replication", 2);
    conf.setInt("dfs.ls.limit", 5);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(3).build();
    cluster.waitActive();
    admin = cluster.getFileSystem();
  }

  @AfterAll
  static void stop() {
    cluster.shutdown(true);
  }

  /** The NIO path of {@code path} in this cluster. */
  static Path path(String path) throws IOException {
    URI root = URI.create("hdfs://localhost:" + cluster.getNameNodePort() + "/");
    try {
      FileSystems.getFileSystem(root);
    } catch (java.nio.file.FileSystemNotFoundException e) {
      // a dead DataNode is retried after 10 ms, not Hadoop's 3 s window
      FileSystems.newFileSystem(root, Map.of("dfs.blocksize", String.valueOf(BLOCK), "dfs.replication", "2",
          "dfs.client.retry.window.base", "10"));
    }
    return Path.of(URI.create(root + path.substring(1)));
  }

  static void upload(Path local, String path) throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
    admin.mkdirs(p.getParent());
    try (InputStream in = Files.newInputStream(local); OutputStream out = admin.create(p, true)) {
      in.transferTo(out);
    }
  }


  /** A sharded container by its base name: refused saying what its shards are (before: "no shards of this base name"). */
  @org.junit.jupiter.api.Test
  void aShardedContainerIsRefusedByName() throws Exception {
    StoreModels.assertShardedContainerRefused(tmp.resolve("sdmc"), "/sdmc/", OddClusterTest::upload, OddClusterTest::path);
  }

  /** The CLI's reading commands on every kind print and write what they do on the local file. */
  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#kinds")
  void theCliOnEveryStoreModel(String kind) throws Exception {
    StoreModels.Written m = StoreModels.put(tmp.resolve(kind), kind, "/cli/" + kind + "/", OddClusterTest::upload);
    org.modelfs.testing.StoreCli.assertSameAsLocal(m.model(), path("/cli/" + kind + "/" + m.name()).toUri().toString(), tmp);
  }

  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#kinds")
  void everyStoreModel(String kind) throws Exception {
    StoreModels.assertStoredAsLocal(tmp.resolve(kind), kind, "/kinds/" + kind + "/", OddClusterTest::upload, OddClusterTest::path);
  }

  /** 5 MiB models: every array and the graph cross block ends; the shard set's 12 shards page the listing. */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"fb", "sdnb", "sdz", "sharded"})
  void modelsSpanningManyBlocks(String format) throws Exception {
    ModelFormat f = switch (format) {
      case "fb" -> ModelFormat.FB;
      case "sdnb" -> ModelFormat.SDNB;
      case "sdz" -> ModelFormat.SDZ;
      default -> ModelFormat.SHARDED_SDNB;
    };
    Path dir = Files.createDirectory(tmp.resolve(format));
    String name = "m." + (format.equals("sharded") ? "sdnb" : format);
    // 7 parameters of 180,001 floats: 720,004 bytes each, none aligned to a block
    Path local = VersionedModel.local(dir, name, f, 7, 180_001, format.equals("sharded") ? 450_000 : 0);
    List<Path> files;
    try (var s = Files.list(dir)) {
      files = s.sorted().toList();
    }
    for (Path p : files) {
      upload(p, "/big-" + format + "/" + p.getFileName());
    }
    assertTrue(admin.getFileBlockLocations(new org.apache.hadoop.fs.Path("/big-" + format + "/" + files.get(0)
        .getFileName()), 0, Long.MAX_VALUE).length > 1 || files.size() > 5, "blocks or pages: " + files);
    Path mountLocal = format.equals("sharded") ? files.get(0) : local;
    assertSameModel(mountLocal, path("/big-" + format + "/" + name));
  }

  /** Every float of every parameter, read through the mount. */
  private static byte[][] params(FileSystem fs, int count) throws IOException {
    byte[][] out = new byte[count][];
    for (int i = 0; i < count; i++) {
      out[i] = Files.readAllBytes(fs.getPath("/params/big/w" + i));
    }
    return out;
  }

  /**
   * One DataNode stopped while a mount reads: every read goes on from the other replica with the
   * same bytes. Two of three stopped: a block with no live replica fails the read with an
   * IOException that names the file and says its blocks cannot be read, never that the model was
   * replaced (it was not) and never other bytes.
   */
  @Test
  void dataNodesStoppedWhileAMountReads() throws Exception {
    // 21 MB: more than an opening prefetches (HdfsSource keeps at most 8 MiB windows), so the parameters are read later
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 7, 750_001, 0);
    upload(local, "/dn/m.sdnb");
    byte[][] want;
    try (FileSystem l = ModelFileSystems.open(local, Map.of("readOnly", "true"))) {
      want = params(l, 7);
    }
    List<MiniDFSCluster.DataNodeProperties> stopped = new java.util.ArrayList<>();
    try {
      try (FileSystem r = ModelFileSystems.open(path("/dn/m.sdnb"), Map.of("readOnly", "true"))) {
        stopped.add(cluster.stopDataNode(0));
        byte[][] got = params(r, 7);
        for (int i = 0; i < 7; i++) {
          assertArrayEquals(want[i], got[i], "w" + i + " with one DataNode stopped");
        }
      }
      try (FileSystem r = ModelFileSystems.open(path("/dn/m.sdnb"), Map.of("readOnly", "true"))) {
        stopHolders(16L * BLOCK, stopped); // w5's block: no live replica left
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> params(r, 7));
        String m = e.getMessage();
        assertTrue(m.contains("/dn/m.sdnb") && !m.contains("replaced") && m.contains("DataNode"),
            "names the file and the missing blocks, not a replaced model: " + e);
        assertTrue(!(e instanceof HdfsChangedException), "not a change of the model: " + e);
      }
    } finally {
      for (MiniDFSCluster.DataNodeProperties dn : stopped) {
        cluster.restartDataNode(dn, true);
      }
      cluster.waitActive();
    }
  }

  /** Stops every DataNode still running that holds a replica of the block at {@code offset} of /dn/m.sdnb. */
  private static void stopHolders(long offset, List<MiniDFSCluster.DataNodeProperties> stopped) throws IOException {
    for (String h : admin.getFileBlockLocations(new org.apache.hadoop.fs.Path("/dn/m.sdnb"), offset, 1)[0].getNames()) {
      for (int i = 0; i < cluster.getDataNodes().size(); i++) {
        if (h.endsWith(":" + cluster.getDataNodes().get(i).getXferPort())) {
          stopped.add(cluster.stopDataNode(i));
          break;
        }
      }
    }
  }

  /**
   * A model someone else is still writing (created, written, flushed, not closed: under
   * construction): a mount either shows the bytes flushed so far as a model or fails with an
   * IOException that names the file and says it is still being written, never "its length changed".
   */
  @Test
  void aModelStillBeingWrittenBySomeoneElse() throws Exception {
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 7, 180_001, 0);
    byte[] all = Files.readAllBytes(local);
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/uc/m.sdnb");
    admin.mkdirs(p.getParent());
    try (org.apache.hadoop.fs.FSDataOutputStream out = admin.create(p, true)) {
      out.write(all);
      out.hflush();
      try {
        assertSameModel(local, path("/uc/m.sdnb"));
      } catch (IOException e) {
        assertTrue(e.getMessage().contains("/uc/m.sdnb") && e.getMessage().contains("being written"),
            "names the file and says it is being written: " + e);
      }
    }
  }
}
