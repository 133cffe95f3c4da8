package org.modelfs.hdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * The benchmark's timeline of one mount ({@code -Dhdfsbench.trace=true}, {@link HdfsStoreBench}):
 * Hadoop's own HDFS client ({@code fs.hdfs.impl} of the mount's client) that notes when each
 * NameNode request and each DataNode positional read starts and ends, in which thread, and prints
 * one mount's events (relative to its first) when the next mount starts after a pause. B's
 * downloads use a client of their own, so only the mount is traced. Not used by any test.
 */
public class TracingDfs extends DistributedFileSystem implements ListedBlocks.Wrapping {
  private record Event(long at, String thread, String what) {}

  private static final List<Event> EVENTS = new ArrayList<>();
  private static long last;

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(TracingDfs::flush));
  }

  static synchronized void note(String what) {
    long now = System.nanoTime();
    if (!EVENTS.isEmpty() && now - last > 300_000_000L) {
      flush();
    }
    last = now;
    EVENTS.add(new Event(now, Thread.currentThread().getName(), what));
  }

  private static synchronized void flush() {
    if (EVENTS.isEmpty()) {
      return;
    }
    long t0 = EVENTS.get(0).at();
    StringBuilder b = new StringBuilder("-- mount timeline (ms from its first request)\n");
    for (Event e : EVENTS) {
      b.append(String.format("  %7.2f  %-22s %s%n", (e.at() - t0) / 1e6, e.thread(), e.what()));
    }
    System.out.print(b);
    EVENTS.clear();
  }

  private interface Call<T> {
    T call() throws IOException;
  }

  private static <T> T traced(String what, Call<T> c) throws IOException {
    note(what + " start");
    try {
      return c.call();
    } finally {
      note(what + " end");
    }
  }

  @Override
  public FileStatus[] listStatus(Path p) throws IOException {
    return traced("NN getListing " + p.getName(), () -> super.listStatus(p));
  }

  @Override
  public RemoteIterator<LocatedFileStatus> listLocatedStatus(Path p) throws FileNotFoundException, IOException {
    note("NN listLocatedStatus " + p.getName() + " start");
    RemoteIterator<LocatedFileStatus> it = super.listLocatedStatus(p);
    return new RemoteIterator<>() {
      @Override
      public boolean hasNext() throws IOException {
        return traced("NN listing page", it::hasNext);
      }

      @Override
      public LocatedFileStatus next() throws IOException {
        return it.next();
      }
    };
  }

  /** The mount's listing goes to the client itself (HdfsModel#siblings), as do the streams over listed blocks: when it is taken. */
  @Override
  public org.apache.hadoop.hdfs.DFSClient getClient() {
    note("client taken (a listing, or a stream over listed blocks)");
    return super.getClient();
  }

  @Override
  public FSDataInputStream wrap(HdfsDataInputStream in) {
    DFSInputStream d = (DFSInputStream) in.getWrappedStream();
    return new Traced(d, "listed");
  }

  @Override
  public FileStatus getFileStatus(Path p) throws IOException {
    return traced("NN getFileInfo " + p.getName(), () -> super.getFileStatus(p));
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    HdfsDataInputStream in = traced("NN open " + f.getName(), () -> (HdfsDataInputStream) super.open(f, bufferSize));
    return new Traced((DFSInputStream) in.getWrappedStream(), f.getName());
  }

  private static final class Traced extends HdfsDataInputStream {
    private final String name;

    Traced(DFSInputStream in, String name) {
      super(in);
      this.name = name;
    }

    private String read(long position, int length) {
      return String.format("DN read %s @%,d +%,d", name, position, length);
    }

    @Override
    public int read(long position, ByteBuffer buf) throws IOException {
      return traced(read(position, buf.remaining()), () -> super.read(position, buf));
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      return traced(read(position, length), () -> super.read(position, buffer, offset, length));
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      traced(read(position, length), () -> {
        super.readFully(position, buffer, offset, length);
        return null;
      });
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }

    @Override
    public void readFully(long position, ByteBuffer buf) throws IOException {
      traced(read(position, buf.remaining()), () -> {
        super.readFully(position, buf);
        return null;
      });
    }

    @Override
    public void close() throws IOException {
      traced("close " + name, () -> {
        super.close();
        return null;
      });
    }
  }
}
