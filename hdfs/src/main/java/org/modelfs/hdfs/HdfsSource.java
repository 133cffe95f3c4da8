package org.modelfs.hdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
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
 * <p><b>Pinned to the inode.</b> The stream reads the blocks the mount's listing named
 * ({@link ListedBlocks}), or is opened by the file's inode id when the listing cannot stand for
 * an open; either way it is bound to {@code /.reserved/.inodes/<id>}, an HDFS path that names one
 * inode whatever it is called, so every block location the client asks for later is of that file: once a commit renames a new
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
  /** The file system it was opened on: asked whether the inode is still there when blocks are missing. */
  private final FileSystem fs;
  /** The inode read, or -1 (no HDFS: a path). */
  private final long fileId;
  /** What an opening prefetched, kept for the source's life (at most {@value #WINDOWS} × {@value #MAX_WINDOW} bytes). */
  private final KeptRanges windows;

  private HdfsSource(FSDataInputStream in, FileSystem fs, long fileId, long size, String name) {
    super(name, size);
    this.in = in;
    this.fs = fs;
    this.fileId = fileId;
    this.windows = new KeptRanges(size, END, MAX_WINDOW, WINDOWS);
  }

  /**
   * The file {@code listed} (inode {@code fileId}, under {@code name}, the user's spelling of it)
   * over the blocks its listing named, with no request ({@link ListedBlocks}); {@code null} when
   * the listing cannot stand for an open: then {@link #open}.
   */
  static HdfsSource listed(FileSystem fs, FileStatus listed, long fileId, String name) throws IOException {
    FSDataInputStream in;
    try {
      in = ListedBlocks.open(fs, listed, fileId);
    } catch (IOException e) {
      throw HdfsErrors.nio(e, name, "opening it");
    }
    return in == null ? null : new HdfsSource(in, fs, fileId, listed.getLen(), name);
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
    return new HdfsSource(in, fs, fileId, size, name);
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
   * A failed read: the file was replaced or removed when its blocks or inode are gone, else the
   * read's own failure. A block no live DataNode holds while the inode is still there is the
   * cluster's failure, not a change of the model: it is reported as such (the same read succeeds
   * once a DataNode holding the block is back; before, it said the model changed).
   */
  private IOException failed(IOException e, String doing) {
    if (e instanceof BlockMissingException b && inodeThere()) {
      FileSystemException out = new FileSystemException(name(), null, doing + ": no live DataNode holds its block at"
          + " offset " + b.getOffset() + " (the DataNodes that hold it are down or unreachable; the model is"
          + " unchanged, the read succeeds again once one of them is back)");
      out.initCause(e);
      return out;
    }
    if (e instanceof FileNotFoundException || e instanceof BlockMissingException) {
      return changed(e, name(), "was replaced or removed (its blocks are gone)");
    }
    return HdfsErrors.nio(e, name(), doing);
  }

  /** Whether the inode read is still in the namespace (the NameNode asked; not known: {@code false}). */
  private boolean inodeThere() {
    if (fileId < 0) {
      return false;
    }
    try {
      fs.getFileStatus(inode(fileId));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The HDFS path that names inode {@code fileId} whatever it is called. */
  static Path inode(long fileId) {
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
