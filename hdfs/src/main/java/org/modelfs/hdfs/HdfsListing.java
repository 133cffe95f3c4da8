package org.modelfs.hdfs;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The listings of one model's directory ({@link Stored}), each one NameNode round trip. A mount
 * lists once: the listing that {@code recoverIfIdle} takes to see whether a crashed writer left an
 * install record is, when there is none, kept for the open that follows in the same thread
 * (issue 34: it was listed again, and a third time after the files were opened); the open then
 * reads each file over the blocks that listing named ({@link ListedBlocks}). A kept listing is
 * used once, by its own thread only, and any new listing forgets it.
 *
 * <p>Why using it is safe: one listing is atomic on the NameNode, and the open pins each file it
 * names to its inode and its listed blocks ({@link HdfsSource}); a file a commit replaced since
 * keeps its blocks while they last, then fails a read with {@link HdfsChangedException}, and an
 * open that meets it starts again with a new listing.
 */
final class HdfsListing {
  /** A listing kept for its thread's open. */
  private record Kept(Stored stored, Thread by) {}

  private final HdfsModel at;
  private final AtomicReference<Kept> kept = new AtomicReference<>();

  HdfsListing(HdfsModel at) {
    this.at = at;
  }

  /** A new listing; a kept one is forgotten. */
  Stored look() throws IOException {
    kept.set(null);
    return Stored.of(at);
  }

  /**
   * A new listing, kept for this thread's next {@link #forOpen} when it shows no install record.
   * When it showed one that was gone before it could be read (its install finished meanwhile:
   * nothing to recover), none: the open lists again.
   */
  Stored lookBeforeOpen() throws IOException {
    Stored s;
    try {
      s = look();
    } catch (HdfsChangedException installed) {
      return new Stored(List.of(), List.of());
    }
    if (s.records().isEmpty()) {
      kept.set(new Kept(s, Thread.currentThread()));
    }
    return s;
  }

  /** The listing this thread's {@link #lookBeforeOpen} kept, else a new one. */
  Stored forOpen() throws IOException {
    Kept k = kept.getAndSet(null);
    if (k != null && k.by() == Thread.currentThread()) {
      return k.stored();
    }
    return Stored.of(at);
  }
}
