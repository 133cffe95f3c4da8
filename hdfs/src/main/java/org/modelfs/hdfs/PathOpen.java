package org.modelfs.hdfs;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.client.impl.DfsClientConf;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.modelfs.io.ParallelReads;

/**
 * The model file opened <b>by its path</b> while its directory is listed (issue 34: the listing
 * and the open in one round trip, not two in turn), and used only when it is <b>proven the
 * listed file</b>: the listing ({@link HdfsModel#siblings}) gives the file's blocks, the open
 * gives the blocks of whatever file the path named when the NameNode answered it, and the two
 * must be the same blocks — each block's id, generation stamp and length, at least one block, the
 * last one complete — and the same length. HDFS never reuses a block id and a block belongs to
 * one file; an append or a truncate changes a generation stamp or a length; so equal blocks are
 * the listed file's bytes, and the generation the mount pins (the listing's
 * {@code name@inode:length:mtime}) is what it reads. Otherwise (a commit replaced the file between
 * the two, the model is a shard set or there is no such file, the listing shows an install
 * record, or the file system is not HDFS) the stream is closed unused and the open takes the
 * inode path ({@link HdfsSource#open}), which starts again from a new listing if the listed inode
 * is gone.
 *
 * <p>The stream stays bound to the path for block locations, so it is used only for a file of at
 * most the client's {@code dfs.client.read.prefetch.size} (10 blocks by default: 1.25 GiB of 128
 * MiB blocks): its open fetched every block's location, and so does every later fetch by the path
 * — a DataNode failed, or the periodic refresh of {@code dfs.client.refresh.read-block-locations.ms}
 * — which Hadoop's client checks against the blocks it has, refusing a list that changed
 * ("Blocklist for … has changed"); {@link HdfsSource} then reports the change when the listed
 * inode is gone. A larger file's later blocks would be asked for by the path unchecked, after such
 * a refresh: it is opened by inode.
 */
final class PathOpen {
  private static final AtomicInteger THREADS = new AtomicInteger();

  /** The stream, and the source over it with its ends fetched. */
  private record Opened(FSDataInputStream in, HdfsSource source) {}

  /** The open answered. */
  private final CompletableFuture<Opened> opened;
  /** The open answered and the ends were read. */
  private final CompletableFuture<Opened> opening;
  private final HdfsModel at;

  private PathOpen(CompletableFuture<Opened> opened, CompletableFuture<Opened> opening, HdfsModel at) {
    this.opened = opened;
    this.opening = opening;
    this.at = at;
  }

  /**
   * Opens {@code at}'s model file by its path and fetches its head and tail at once (what
   * {@link org.modelfs.io.ParallelReads#prefetchEnds} would fetch next: the bytes every format
   * reads first), on two threads of their own started now, so that neither the proof's wait for
   * the listing nor a thread's start delays them; {@code null} off HDFS.
   */
  static PathOpen start(HdfsModel at) {
    if (!(at.fs() instanceof DistributedFileSystem)) {
      return null;
    }
    CompletableFuture<Opened> opened = new CompletableFuture<>();
    CompletableFuture<Void> tail = new CompletableFuture<>();
    CompletableFuture<Opened> all = new CompletableFuture<>();
    thread(() -> {
      Opened o;
      try {
        FSDataInputStream in = at.fs().open(at.file());
        long size = in instanceof HdfsDataInputStream h ? h.getVisibleLength() : -1;
        o = new Opened(in, HdfsSource.byPath(in, at.fs(), size, at.shown(at.name())));
        opened.complete(o);
      } catch (IOException | RuntimeException e) {
        opened.completeExceptionally(e); // none (a shard set's base name): the inode path opens, or says why not
        all.completeExceptionally(e);
        return;
      }
      try {
        o.source().prefetch(0, 1);
        tail.join();
        all.complete(o);
      } catch (IOException | RuntimeException e) {
        close(o);
        all.completeExceptionally(e); // the inode path reads it again, or says why not
      }
    });
    thread(() -> {
      try {
        HdfsSource src = opened.join().source();
        if (src.size() > ParallelReads.TAIL_APART) {
          src.prefetch(src.size() - 1, 1);
        }
        tail.complete(null);
      } catch (IOException | RuntimeException e) {
        tail.completeExceptionally(e);
      }
    });
    return new PathOpen(opened, all, at);
  }

  private static void thread(Runnable r) {
    Thread t = new Thread(r, "modelfs-hdfs-path-open-" + THREADS.incrementAndGet());
    t.setDaemon(true);
    t.start();
  }

  /**
   * The source over the stream, its ends held and pinned to the listed inode, if it is {@code s}'s
   * one file ({@link #sameFile}); else {@code null}, the stream closed. The proof is checked as soon
   * as the open answered, while the ends are still being read; then waits for them.
   */
  HdfsSource take(Stored s) {
    if (!s.single() || !s.records().isEmpty()) {
      drop(); // a shard set (its base name is no file), or an install under way: not waited for
      return null;
    }
    long within = new DfsClientConf(at.fs().getConf()).getPrefetchSize();
    Opened o;
    try {
      o = opened.join();
    } catch (RuntimeException failed) {
      return null; // the inode path opens it, or says why not
    }
    Stored.File f = s.files().get(0);
    if (f.status().getLen() > within || !sameFile(o.in(), f.status())) {
      drop();
      return null;
    }
    try {
      opening.join();
    } catch (RuntimeException failed) {
      return null; // its ends could not be read (closed): the inode path reads them again, or says why not
    }
    o.source().pin(HdfsModel.fileId(f.status()));
    return o.source();
  }

  /** Closes the stream when it has opened, unused. */
  void drop() {
    opening.thenAccept(PathOpen::close);
  }

  /** Whether {@code in} reads exactly the blocks {@code listed} had when it was listed. */
  static boolean sameFile(FSDataInputStream in, FileStatus listed) {
    if (!(in instanceof HdfsDataInputStream h) || !(listed instanceof HdfsLocatedFileStatus l)) {
      return false;
    }
    LocatedBlocks want = l.getLocatedBlocks();
    if (want == null || want.isUnderConstruction() || !want.isLastBlockComplete() || want.locatedBlockCount() == 0
        || h.getVisibleLength() != listed.getLen() || want.getFileLength() != listed.getLen()) {
      return false;
    }
    List<LocatedBlock> got;
    try {
      got = h.getAllBlocks(); // held since the open (a file past dfs.client.read.prefetch.size: asked for the rest)
    } catch (IOException e) {
      return false;
    }
    List<LocatedBlock> listedBlocks = want.getLocatedBlocks();
    if (got.size() != listedBlocks.size()) {
      return false;
    }
    for (int i = 0; i < got.size(); i++) {
      ExtendedBlock a = got.get(i).getBlock();
      ExtendedBlock b = listedBlocks.get(i).getBlock();
      if (a.getBlockId() != b.getBlockId() || a.getGenerationStamp() != b.getGenerationStamp()
          || a.getNumBytes() != b.getNumBytes() || !a.getBlockPoolId().equals(b.getBlockPoolId())) {
        return false;
      }
    }
    return true;
  }

  private static void close(Opened o) {
    try {
      o.source().close();
    } catch (IOException ignored) {
      // an unused stream of a file only read from: nothing of the user's is lost
    }
  }
}
