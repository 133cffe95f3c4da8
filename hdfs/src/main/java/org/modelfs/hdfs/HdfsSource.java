package org.modelfs.hdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.modelfs.hdfs.nio.HdfsErrors;
import org.modelfs.io.ByteSource;

/**
 * The bytes of one HDFS file as it was when the model was opened: positional reads
 * ({@code FSDataInputStream.read(position, ByteBuffer)}: only the bytes asked for cross the
 * network, nothing is held in the heap), safe from many threads at once (HDFS's positional reads
 * share no position).
 *
 * <p><b>Pinned to the inode.</b> The stream is opened by the file's inode id
 * ({@code /.reserved/.inodes/<id>}, an HDFS path that names one inode whatever it is called), so
 * every block location the client asks for later is of that file: once a commit renames a new
 * file over the name, reads of the old one go on returning the old bytes while its blocks last
 * and then fail with {@link HdfsChangedException} — never bytes of the new file. HDFS files are
 * written once (an append or truncate is the only change in place); the length read at open is
 * the end of the source, and an inode whose length is no longer that is refused at open.
 */
final class HdfsSource implements ByteSource {
  private final FSDataInputStream in;
  private final long size;
  private final String name;
  private volatile boolean closed;

  private HdfsSource(FSDataInputStream in, long size, String name) {
    this.in = in;
    this.size = size;
    this.name = name;
  }

  /**
   * Opens the file with inode id {@code fileId} (read at {@code size} bytes under {@code name},
   * the user's spelling of it), or the path itself when {@code fileId} is negative (no HDFS).
   */
  static HdfsSource open(FileSystem fs, Path file, long fileId, long size, String name)
      throws IOException {
    Path byId = fileId < 0 ? file : new Path("/.reserved/.inodes/" + fileId);
    FSDataInputStream in;
    long now;
    try {
      in = fs.open(byId);
      now = fs.getFileStatus(byId).getLen();
    } catch (FileNotFoundException e) {
      throw changed(e, name, "was replaced or removed");
    } catch (IOException e) {
      throw HdfsErrors.nio(e, name, "opening it");
    }
    if (now != size) {
      in.close();
      throw new HdfsChangedException(name, "its length changed from " + size + " to " + now + " bytes");
    }
    return new HdfsSource(in, size, name);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    if (position < 0) {
      throw new IllegalArgumentException(name + ": negative position " + position);
    }
    if (position >= size) {
      return -1;
    }
    int want = (int) Math.min(dst.remaining(), size - position);
    if (want == 0) {
      return 0;
    }
    ByteBuffer part = dst.duplicate();
    part.limit(part.position() + want);
    try {
      int n = in.read(position, part);
      if (n > 0) {
        dst.position(dst.position() + n);
      }
      return n;
    } catch (FileNotFoundException | BlockMissingException e) {
      throw changed(e, name, "was replaced or removed (its blocks are gone)");
    } catch (IOException e) {
      throw HdfsErrors.nio(e, name, "reading " + want + " bytes at offset " + position);
    }
  }

  private static HdfsChangedException changed(IOException cause, String name, String what) {
    HdfsChangedException e = new HdfsChangedException(name, what);
    e.initCause(cause);
    return e;
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      in.close();
    }
  }
}
