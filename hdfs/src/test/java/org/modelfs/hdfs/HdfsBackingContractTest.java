package org.modelfs.hdfs;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.modelfs.store.Backing;
import org.modelfs.store.BackingContractTest;

/**
 * {@link HdfsBacking} held to the backing contract, against the test JVM's MiniDFSCluster (a
 * fresh directory per model), built through the module's {@link HdfsBackings} service as a mount
 * builds it. Another client is another backing of the same path (the contract compares the
 * paths both list); writers of two Hadoop clients, each with its own lease, are
 * {@link HdfsRaceTest}'s.
 */
class HdfsBackingContractTest extends BackingContractTest {
  private static final AtomicInteger PLACES = new AtomicInteger();

  @Override
  protected Backing newBacking(String fileName, boolean shardSet) throws IOException {
    String dir = "/contract" + PLACES.incrementAndGet();
    HdfsTestCluster.admin().mkdirs(new Path(dir));
    return new HdfsBackings().backing(HdfsTestCluster.path(dir + "/" + fileName), shardSet);
  }

  @Override
  protected Backing anotherClient(Backing b) throws IOException {
    HdfsBacking h = (HdfsBacking) b;
    return new HdfsBackings().backing(h.model().path(), h.shardSet());
  }

  /** Each stored file's inode id, length and time: a kept file keeps its inode, a rewritten one is a new inode. */
  @Override
  protected Map<String, String> storedFiles(Backing b) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (Stored.File f : ((HdfsBacking) b).look().files()) {
      out.put(f.name(), f.stamp());
    }
    return out;
  }

  /**
   * A replaced file's inode is deleted by the rename: a reader opened before goes on reading its
   * blocks while the DataNode still has them, then fails (never reads the new file's bytes).
   */
  @Override
  protected boolean keepsOldGenerationReadable(boolean shardSet) {
    return false;
  }
}
