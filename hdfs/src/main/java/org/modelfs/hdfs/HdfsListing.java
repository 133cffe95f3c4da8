package org.modelfs.hdfs;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The listings of one model's directory ({@link Stored}), each one NameNode round trip. A mount
 * lists once: the listing that {@code recoverIfIdle} takes to see whether a crashed writer left an
 * install record is, when there is none, kept for the open that follows in the same thread
 * (issue 34: it was listed again, and a third time after the files were opened). A kept listing
 * is used once, by its own thread only, and any new listing forgets it. While that listing is
 * under way, the model file is opened by its path ({@link PathOpen}): when the listing shows one
 * file and the open's blocks are its blocks, the open uses that stream, so listing and opening
 * take one round trip together.
 *
 * <p>Why using it is safe: one listing is atomic on the NameNode, and the open pins each file it
 * names by inode ({@link HdfsSource}) or by the listed blocks ({@link PathOpen}); a file a commit
 * replaced since is gone by that inode, which fails the open with {@link HdfsChangedException},
 * and the open starts again with a new listing.
 */
final class HdfsListing {
  /** A listing kept for its thread's open, and the model file opened by path beside it (or {@code null}). */
  record Kept(Stored stored, Thread by, PathOpen byPath) {}

  private final HdfsModel at;
  private final AtomicReference<Kept> kept = new AtomicReference<>();

  HdfsListing(HdfsModel at) {
    this.at = at;
  }

  /** A new listing; a kept one is forgotten. */
  Stored look() throws IOException {
    forget(kept.getAndSet(null));
    return Stored.of(at);
  }

  /**
   * A new listing, the model file opened by path at the same time, both kept for this thread's
   * next {@link #forOpen} when the listing shows no install record. When it showed one that was
   * gone before it could be read (its install finished meanwhile: nothing to recover), none: the
   * open lists again.
   */
  Stored lookBeforeOpen() throws IOException {
    PathOpen byPath = PathOpen.start(at);
    Stored s;
    try {
      s = look();
    } catch (HdfsChangedException installed) {
      forget(new Kept(null, null, byPath));
      return new Stored(List.of(), List.of());
    } catch (IOException | RuntimeException e) {
      forget(new Kept(null, null, byPath));
      throw e;
    }
    if (s.records().isEmpty()) {
      kept.set(new Kept(s, Thread.currentThread(), byPath));
    } else {
      forget(new Kept(s, null, byPath));
    }
    return s;
  }

  /** The listing (and open by path) this thread's {@link #lookBeforeOpen} kept, else a new listing alone. */
  Kept forOpen() throws IOException {
    Kept k = kept.getAndSet(null);
    if (k != null && k.by() == Thread.currentThread()) {
      return k;
    }
    forget(k);
    return new Kept(Stored.of(at), Thread.currentThread(), null);
  }

  private static void forget(Kept k) {
    if (k != null && k.byPath() != null) {
      k.byPath().drop();
    }
  }
}
