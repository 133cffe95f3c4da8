package org.modelfs.hdfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * Hadoop's own HDFS client ({@code fs.hdfs.impl} in a mount's env) that counts the positional
 * reads its streams make — each one a request to a DataNode — as they are made, in the caller's
 * thread (the DataNode's own metrics count a read only after the client has its bytes, too late
 * for a deterministic count). Everything else is {@link DistributedFileSystem}'s.
 */
public class CountingDfs extends DistributedFileSystem implements ListedBlocks.Wrapping {
  /** Positional reads by every stream of every instance. */
  static final AtomicLong READS = new AtomicLong();
  /** Streams built from a listing's blocks ({@link ListedBlocks}), by every instance. */
  static final AtomicLong LISTED = new AtomicLong();

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    HdfsDataInputStream in = (HdfsDataInputStream) super.open(f, bufferSize);
    return new Counting((DFSInputStream) in.getWrappedStream());
  }

  @Override
  public FSDataInputStream wrap(HdfsDataInputStream in) {
    LISTED.incrementAndGet();
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
