package org.modelfs.hdfs;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * A stream over <b>the blocks the listing named</b>, with no request to the NameNode (issue 34:
 * the open of every file was a round trip of its own after the listing, the one step a mount of a
 * shard set could not send beside it). The listing's first page carries each file's blocks
 * ({@link HdfsModel#siblings}); HDFS's client builds a stream from such a block list itself when
 * it opens a file by a path handle ({@code DFSClient.open(HdfsPathHandle)}: a file status with
 * its blocks, then the {@code DFSInputStream} constructor that takes them). That constructor is
 * not public; it is reached by reflection, and where it is missing (another Hadoop) or the
 * listing cannot stand for an open, {@link #open} answers {@code null} and the file is opened by
 * inode as before ({@link HdfsSource#open}: one round trip more, the same bytes).
 *
 * <p>The stream is bound to the inode: its name is {@code /.reserved/.inodes/<id>}, so whatever
 * the client asks the NameNode later (a DataNode failed, a block token expired) is asked of the
 * listed file, never of whatever the name means by then. It reads exactly the listed blocks, so
 * the mount reads the generation the listing pinned; a commit that replaced the file since leaves
 * those blocks to the old inode, readable while they last, then a failed read that reports the
 * change ({@link HdfsChangedException}), as for a file opened by inode.
 *
 * <p>The listing stands for an open only when its block list is the whole, finished file — every
 * block complete, contiguous from 0 to the listed length — in a plain replicated file: a file
 * still being written, erasure-coded (its reader is another class) or in an encryption zone (its
 * key comes with the open) is opened by inode.
 */
final class ListedBlocks {
  /** {@code DFSInputStream(DFSClient, String src, boolean verifyChecksum, LocatedBlocks)}, or {@code null}. */
  private static final Constructor<DFSInputStream> STREAM = constructor();

  /**
   * A client that wraps the streams it makes ({@code fs.hdfs.impl} of a test or benchmark that
   * counts or traces reads): the streams built here go through it as its {@code open}'s would.
   */
  interface Wrapping {
    FSDataInputStream wrap(HdfsDataInputStream in);
  }

  private ListedBlocks() {}

  private static Constructor<DFSInputStream> constructor() {
    try {
      Constructor<DFSInputStream> c = DFSInputStream.class.getDeclaredConstructor(
          DFSClient.class, String.class, boolean.class, LocatedBlocks.class);
      c.setAccessible(true);
      return c;
    } catch (NoSuchMethodException | RuntimeException e) {
      return null; // another Hadoop: every file is opened by inode
    }
  }

  /** Whether streams can be built from listings in this JVM. */
  static boolean available() {
    return STREAM != null;
  }

  /**
   * A stream reading the blocks {@code listed} carries, bound to inode {@code fileId}; {@code null}
   * when the listing cannot stand for an open (see the class comment): then open by inode.
   */
  static FSDataInputStream open(FileSystem fs, FileStatus listed, long fileId) throws IOException {
    if (STREAM == null || fileId < 0 || !(fs instanceof DistributedFileSystem d)
        || !(listed instanceof HdfsLocatedFileStatus l) || !whole(l.getLocatedBlocks(), listed.getLen())) {
      return null;
    }
    DFSClient client = d.getClient();
    DFSInputStream in;
    try {
      in = STREAM.newInstance(client, HdfsSource.inode(fileId).toUri().getPath(), true, l.getLocatedBlocks());
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      return null; // not an I/O failure: the open by inode says what is wrong, if anything
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
    try {
      HdfsDataInputStream wrapped = client.createWrappedInputStream(in);
      return fs instanceof Wrapping w ? w.wrap(wrapped) : wrapped;
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** Whether {@code b} is every block of a finished, plain file of {@code length} bytes. */
  static boolean whole(LocatedBlocks b, long length) {
    if (b == null || b.isUnderConstruction() || !b.isLastBlockComplete() || b.getFileLength() != length
        || b.getErasureCodingPolicy() != null || b.getFileEncryptionInfo() != null) {
      return false;
    }
    long at = 0;
    for (LocatedBlock block : b.getLocatedBlocks()) {
      if (block.getStartOffset() != at || block.getBlockSize() <= 0 || block.isStriped()) {
        return false;
      }
      at += block.getBlockSize();
    }
    return at == length;
  }
}
