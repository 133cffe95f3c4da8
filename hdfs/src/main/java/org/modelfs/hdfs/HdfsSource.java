package org.modelfs.hdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.modelfs.hdfs.nio.HdfsErrors;
import org.modelfs.io.KeptRanges;
import org.modelfs.io.RemoteSource;

/**
 * The bytes of one HDFS file as it was when the model was opened: positional reads
 * ({@code FSDataInputStream.read(position, ByteBuffer)}: only the bytes asked for cross the
 * network, no parameter's bytes are held in the heap), safe from many threads at once (HDFS's positional reads
 * share no position).
 *
 * <p><b>Pinned to the inode.</b> The stream is opened by the file's inode id
 * ({@code /.reserved/.inodes/<id>}, an HDFS path that names one inode whatever it is called), so
 * every block location the client asks for later is of that file: once a commit renames a new
 * file over the name, reads of the old one go on returning the old bytes while its blocks last
 * and then fail with {@link HdfsChangedException} — never bytes of the new file. HDFS files are
 * written once (an append or truncate is the only change in place); the length read at open is
 * the end of the source, and an inode whose length is no longer that is refused at open.
 *
 * <p><b>Prefetched ranges.</b> What an opening says it will read ({@link #prefetch}: every
 * shard's ends, an SDNB's FlatGraph) is read with one positional read and kept in the heap for
 * the source's life, bounded ({@link KeptRanges}); the inode's bytes never change, so they need
 * no pinning of their own. The checks every read makes first are core's {@link RemoteSource}.
 */
final class HdfsSource extends RemoteSource {
  /** A prefetched range shorter than this is widened to it (an end of the file: a header, SDNB's manifest). */
  static final int END = 64 * 1024;
  /** The most bytes one prefetch keeps (an SDNB FlatGraph of up to 8 MiB in one request). */
  static final int MAX_WINDOW = 8 << 20;
  /** The most prefetched ranges a source keeps: an opening's head, tail and index. */
  static final int WINDOWS = 4;

  private final FSDataInputStream in;
  /** The file system of a stream opened by path ({@link PathOpen}), else {@code null}. */
  private final FileSystem byPath;
  /** Its inode, once proven ({@link #pin}); -1 before. */
  private volatile long fileId;
  /** What an opening prefetched, kept for the source's life (at most {@value #WINDOWS} × {@value #MAX_WINDOW} bytes). */
  private final KeptRanges windows;

  private HdfsSource(FSDataInputStream in, FileSystem byPath, long fileId, long size, String name) {
    super(name, size);
    this.in = in;
    this.byPath = byPath;
    this.fileId = fileId;
    this.windows = new KeptRanges(size, END, MAX_WINDOW, WINDOWS);
  }

  /**
   * Opens the file with inode id {@code fileId} (read at {@code size} bytes under {@code name},
   * the user's spelling of it), or the path itself when {@code fileId} is negative (no HDFS).
   */
  static HdfsSource open(FileSystem fs, Path file, long fileId, long size, String name)
      throws IOException {
    Path byId = fileId < 0 ? file : inode(fileId);
    FSDataInputStream in;
    long now;
    try {
      in = fs.open(byId);
      // HDFS's open answers with the blocks and the length: no file status (a round trip) needed
      now = in instanceof HdfsDataInputStream h ? h.getVisibleLength() : fs.getFileStatus(byId).getLen();
    } catch (FileNotFoundException e) {
      throw changed(e, name, "was replaced or removed");
    } catch (IOException e) {
      throw HdfsErrors.nio(e, name, "opening it");
    }
    if (now != size) {
      in.close();
      throw new HdfsChangedException(name, "its length changed from " + size + " to " + now + " bytes");
    }
    return new HdfsSource(in, null, fileId, size, name);
  }

  /**
   * A stream {@link PathOpen} opened by path, of {@code size} bytes; once {@link #pin pinned} to
   * the inode the listing named, a read that fails when that inode is gone reports the change.
   */
  static HdfsSource byPath(FSDataInputStream in, FileSystem fs, long size, String name) {
    return new HdfsSource(in, fs, -1, size, name);
  }

  /** The inode this source opened by path was proven to read ({@link PathOpen#take}). */
  void pin(long inode) {
    fileId = inode;
  }

  @Override
  protected int readAt(ByteBuffer dst, long position, int want) throws IOException {
    int n = windows.read(dst, position, want);
    if (n >= 0) {
      return n;
    }
    ByteBuffer part = dst.duplicate();
    part.limit(part.position() + want);
    try {
      n = in.read(position, part);
      if (n > 0) {
        dst.position(dst.position() + n);
      }
      return n;
    } catch (IOException e) {
      throw failed(e, "reading " + want + " bytes at offset " + position);
    }
  }

  /**
   * Reads {@code [position, position + length)} — widened to {@value #END} bytes if shorter, to
   * the whole file when it is the head of a small one, at most {@value #MAX_WINDOW} — with one
   * positional read and keeps it ({@link KeptRanges}): each positional read is a round trip to a
   * DataNode, and an opening's index is read in many small ones (issue 34: the FlatGraph walk of a
   * 1 GiB model was dozens). Up to {@value #WINDOWS} ranges, the first ones.
   */
  @Override
  protected void prefetchAt(long position, long length) throws IOException {
    windows.prefetch(position, length, (from, b) -> {
      try {
        in.readFully(from, b);
      } catch (IOException e) {
        throw failed(e, "reading " + b.length + " bytes at offset " + from);
      }
    });
  }

  /**
   * A failed read: the file was replaced or removed when its blocks or inode are gone (a stream
   * opened by path refreshes its locations by the path, and Hadoop refuses the new file's blocks:
   * whether the listed inode is still there says which it was), else the read's own failure.
   */
  private IOException failed(IOException e, String doing) {
    if (e instanceof FileNotFoundException || e instanceof BlockMissingException || byPath != null && gone()) {
      return changed(e, name(), "was replaced or removed (its blocks are gone)");
    }
    return HdfsErrors.nio(e, name(), doing);
  }

  private boolean gone() {
    if (fileId < 0) {
      return false; // not proven yet: PathOpen drops it on any failure
    }
    try {
      byPath.getFileStatus(inode(fileId));
      return false;
    } catch (FileNotFoundException e) {
      return true;
    } catch (IOException e) {
      return false; // the read's own failure is reported
    }
  }

  /** The HDFS path that names inode {@code fileId} whatever it is called. */
  private static Path inode(long fileId) {
    return new Path("/.reserved/.inodes/" + fileId);
  }

  private static HdfsChangedException changed(IOException cause, String name, String what) {
    HdfsChangedException e = new HdfsChangedException(name, what);
    e.initCause(cause);
    return e;
  }

  @Override
  protected void release() throws IOException {
    windows.clear();
    in.close();
  }
}
