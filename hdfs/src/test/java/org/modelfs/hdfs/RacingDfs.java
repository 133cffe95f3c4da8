package org.modelfs.hdfs;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Hadoop's own HDFS client ({@code fs.hdfs.impl} in a mount's env) with hooks that put a commit
 * at a chosen point between a mount's listing and its open of the model file by path
 * ({@link PathOpen}): each hook runs once, then is gone. Counts the opens by path and by inode.
 */
public class RacingDfs extends DistributedFileSystem {
  /** Run in the open by path, before the NameNode is asked. */
  static final AtomicReference<Hook> BEFORE_PATH_OPEN = new AtomicReference<>();
  /** Run in the open by path, after the NameNode answered. */
  static final AtomicReference<Hook> AFTER_PATH_OPEN = new AtomicReference<>();
  /** Run when the mount's listing takes the client ({@code HdfsModel.siblings}), before it is sent. */
  static final AtomicReference<Hook> BEFORE_LISTING = new AtomicReference<>();
  static final AtomicInteger PATH_OPENS = new AtomicInteger();
  static final AtomicInteger INODE_OPENS = new AtomicInteger();

  /** A step of a race. */
  @FunctionalInterface
  interface Hook {
    void run() throws Exception;
  }

  static void reset() {
    BEFORE_PATH_OPEN.set(null);
    AFTER_PATH_OPEN.set(null);
    BEFORE_LISTING.set(null);
    PATH_OPENS.set(0);
    INODE_OPENS.set(0);
  }

  private static void run(AtomicReference<Hook> hook) throws IOException {
    Hook h = hook.getAndSet(null);
    if (h == null) {
      return;
    }
    try {
      h.run();
    } catch (Exception e) {
      throw new IOException("the race's hook failed", e);
    }
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    if (f.toUri().getPath().startsWith("/.reserved/.inodes/")) {
      INODE_OPENS.incrementAndGet();
      return super.open(f, bufferSize);
    }
    PATH_OPENS.incrementAndGet();
    run(BEFORE_PATH_OPEN);
    FSDataInputStream in = super.open(f, bufferSize);
    run(AFTER_PATH_OPEN);
    return in;
  }

  @Override
  public DFSClient getClient() {
    try {
      run(BEFORE_LISTING);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return super.getClient();
  }
}
