package org.modelfs.hdfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * Hadoop's own HDFS client ({@code fs.hdfs.impl} in a mount's env) that counts the positional
 * reads its streams make — each one a request to a DataNode — as they are made, in the caller's
 * thread (the DataNode's own metrics count a read only after the client has its bytes, too late
 * for a deterministic count). Everything else is {@link DistributedFileSystem}'s.
 */
public class CountingDfs extends DistributedFileSystem {
  /** Positional reads by every stream of every instance. */
  static final AtomicLong READS = new AtomicLong();
  /**
   * When set, a mount's listing ({@code HdfsModel.siblings} takes the client) waits until an open
   * by path has been sent — at most {@value #AWAIT_SECONDS} s, so a mount that opens only after
   * listing still runs, late — and notes whether it came: the two were in flight together.
   */
  static volatile CountDownLatch pathOpenSent;
  static final AtomicReference<Boolean> LISTED_WITH_OPEN = new AtomicReference<>();
  static final int AWAIT_SECONDS = 10;

  @Override
  public DFSClient getClient() {
    CountDownLatch l = pathOpenSent;
    if (l != null) {
      try {
        LISTED_WITH_OPEN.compareAndSet(null, l.await(AWAIT_SECONDS, TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return super.getClient();
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    CountDownLatch l = pathOpenSent;
    if (l != null && !f.toUri().getPath().startsWith("/.reserved/")) {
      l.countDown();
    }
    HdfsDataInputStream in = (HdfsDataInputStream) super.open(f, bufferSize);
    return new Counting((DFSInputStream) in.getWrappedStream());
  }

  private static final class Counting extends HdfsDataInputStream {
    Counting(DFSInputStream in) {
      super(in);
    }

    @Override
    public int read(long position, ByteBuffer buf) throws IOException {
      READS.incrementAndGet();
      return super.read(position, buf);
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      READS.incrementAndGet();
      return super.read(position, buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      READS.incrementAndGet();
      super.readFully(position, buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }

    @Override
    public void readFully(long position, ByteBuffer buf) throws IOException {
      READS.incrementAndGet();
      super.readFully(position, buf);
    }
  }
}
