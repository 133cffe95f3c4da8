package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * A mount reads each file over the blocks its listing named ({@link ListedBlocks}): no open of
 * its own, bound to the listed inode. These hold what that must never change: the bytes are the
 * listed file's and no other's, a file the listing cannot stand for is opened by inode beside the
 * rest, and a read of blocks the file no longer has reports the change instead of bytes.
 */
class ListedBlocksTest {
  @TempDir Path tmp;

  private static LocatedBlocks blocks(boolean underConstruction, boolean lastComplete, long length, long... startAndSize) {
    List<LocatedBlock> list = new ArrayList<>();
    for (int i = 0; i < startAndSize.length; i += 2) {
      LocatedBlock b = new LocatedBlock(new ExtendedBlock("bp", 1000 + i, startAndSize[i + 1], 1), new DatanodeInfo[0]);
      b.setStartOffset(startAndSize[i]);
      list.add(b);
    }
    return new LocatedBlocks(length, underConstruction, list, list.isEmpty() ? null : list.get(list.size() - 1),
        lastComplete, null, null);
  }

  @Test
  void aBlockListStandsForAnOpenOnlyWhenItIsTheWholeFinishedFile() {
    assertTrue(ListedBlocks.whole(blocks(false, true, 300, 0, 128, 128, 128, 256, 44), 300));
    assertTrue(ListedBlocks.whole(blocks(false, true, 0), 0), "an empty file: no block");
    assertFalse(ListedBlocks.whole(null, 300), "no blocks listed (a later page of the listing)");
    assertFalse(ListedBlocks.whole(blocks(false, true, 300, 0, 128, 128, 128, 256, 44), 301), "the listed length is another");
    assertFalse(ListedBlocks.whole(blocks(false, true, 300, 0, 128, 256, 44), 300), "a block missing from the list");
    assertFalse(ListedBlocks.whole(blocks(false, true, 300, 0, 128, 128, 128), 300), "the list ends short of the file");
    assertFalse(ListedBlocks.whole(blocks(false, true, 300, 0, 128, 120, 136, 256, 44), 300), "blocks that overlap");
    assertFalse(ListedBlocks.whole(blocks(true, true, 300, 0, 128, 128, 128, 256, 44), 300), "being written");
    assertFalse(ListedBlocks.whole(blocks(false, false, 300, 0, 128, 128, 128, 256, 44), 300), "its last block not finished");
  }

  /** A shard set of at least three shards, written locally and uploaded under {@code dir}; the local shard 0. */
  private Path shardSet(String dir) throws Exception {
    var synthetic = SyntheticModels.floats(tmp.resolve("set.data"), 6, 1 << 18); // 6 parameters of 1 MiB
    Path local = tmp.resolve("set.sdnb");
    try (var src = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), local, WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(2 << 20));
    }
    int shards = 0;
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("set\\.shard\\d+-of-\\d+\\.sdnb")) {
          HdfsTestCluster.upload(p, dir + "/" + p.getFileName());
          shards++;
        }
      }
    }
    assertTrue(shards >= 3, shards + " shards");
    return local;
  }

  /** Every parameter of the mount at {@code stored} equals the local model's, byte for byte. */
  private static void sameParameters(Path local, Path stored) throws IOException {
    try (FileSystem want = ModelFileSystems.open(local, Map.of("readOnly", "true"));
        FileSystem got = ModelFileSystems.open(stored, Map.of("readOnly", "true"));
        var names = Files.list(want.getPath("/params/big"))) {
      int n = 0;
      for (Path p : (Iterable<Path>) names::iterator) {
        assertArrayEquals(Files.readAllBytes(p), Files.readAllBytes(got.getPath(p.toString())), p.toString());
        n++;
      }
      assertEquals(6, n);
    }
  }

  @Test
  void aShardStillBeingWrittenIsOpenedByInodeAndTheSetReadsWhole() throws Exception {
    Path local = shardSet("/listed-uc");
    String writing = HdfsTestCluster.names("/listed-uc").get(1);
    Path stored = OpenRoundTripsTest.counted("/listed-uc/set.sdnb");
    sameParameters(local, stored); // the client connected
    try (FSDataOutputStream appending = HdfsTestCluster.admin().append(new org.apache.hadoop.fs.Path("/listed-uc/" + writing))) {
      long listed = CountingDfs.LISTED.get();
      ServerCounts before = ServerCounts.now();
      sameParameters(local, stored);
      int shards = HdfsTestCluster.names("/listed-uc").size();
      assertEquals(shards - 1, CountingDfs.LISTED.get() - listed, "every shard but the one being written over its listed blocks");
      assertEquals(1, ServerCounts.now().minus(before).opens(), "the one being written (" + writing + ") opened by inode");
    }
  }

  @Test
  void aReadOfBlocksTheListedFileNoLongerHasReportsTheChange() throws Exception {
    var one = SyntheticModels.floats(tmp.resolve("one.data"), 2, 1 << 20); // parameters of 4 MiB, beyond the prefetched ends
    Path local = tmp.resolve("one.sdnb");
    try (var src = one.data()) {
      ModelFiles.write(one.tag(), local, WriteOptions.of(ModelFormat.SDNB));
    }
    HdfsTestCluster.upload(local, "/listed-gone/m.sdnb");
    Path stored = OpenRoundTripsTest.counted("/listed-gone/m.sdnb");
    try (FileSystem want = ModelFileSystems.open(local, Map.of("readOnly", "true"));
        FileSystem got = ModelFileSystems.open(stored, Map.of("readOnly", "true"))) {
      String param = "/params/big/w1";
      byte[] old = Files.readAllBytes(want.getPath(param));
      HdfsTestCluster.upload(SyntheticModels.sdnb(tmp.resolve("two.sdnb"), 3), "/listed-gone/m.sdnb"); // a new inode; the old one deleted
      MiniDFSCluster cluster = HdfsTestCluster.get();
      IOException told = null;
      for (int i = 0; i < 120 && told == null; i++) {
        BlockManagerTestUtil.computeAllPendingWork(cluster.getNamesystem().getBlockManager());
        cluster.triggerHeartbeats();
        try {
          assertArrayEquals(old, Files.readAllBytes(got.getPath(param)), "the listed file's bytes while its blocks last");
          Thread.sleep(250);
        } catch (IOException e) {
          told = e;
        }
      }
      assertNotNull(told, "the old blocks were never deleted");
      Throwable c = told;
      while (c != null && !(c instanceof HdfsChangedException)) {
        c = c.getCause();
      }
      assertNotNull(c, "told the model changed: " + told);
      assertTrue(told.getMessage().contains("m.sdnb"), told.getMessage());
    }
  }
}
