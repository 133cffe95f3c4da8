package org.modelfs.store;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cleans up after a writer that crashed or was killed: finishes or drops its multi-file commit,
 * deletes its temporaries and its journal. It runs only while holding the model's
 * {@link ModelLock} (so no live writer's files are touched) and removes only what it can prove
 * is its own: names of {@link SidecarNames} for this model's {@link ModelId}, regular files
 * only, no link ever followed ({@link SafeDir}).
 *
 * <p>A commit record is rolled forward only when every new file is either still at its
 * temporary name or already renamed (its target has the temporary's file key). When some
 * temporaries are gone (a tmp cleaner, a backup that skips {@code *.tmp}) and nothing was
 * renamed yet, the old model is complete: the partial new one is dropped. When some files were
 * renamed and others are lost, neither generation is whole; that is reported, and nothing is
 * deleted.
 */
final class Recovery {
  private Recovery() {}

  /** Whether anything of a crashed writer of {@code id} is there (reads the directory only). */
  static boolean needed(ModelId id) throws IOException {
    String record = SidecarNames.record(id.key());
    for (String n : SafeDir.names(id.dir())) {
      if (n.equals(record) || SidecarNames.isTempOf(id, n) || SidecarNames.isJournal(id.key(), n)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Recovers {@code lock}'s model. Returns whether an interrupted commit was rolled forward.
   *
   * @throws FileSystemException if a commit record says the model is torn beyond repair
   */
  static boolean recover(ModelLock lock) throws IOException {
    if (!lock.held()) {
      throw new IllegalStateException(lock + " is not held");
    }
    ModelId id = lock.id();
    boolean rolled = false;
    CommitRecord.Read r = CommitRecord.read(id);
    if (r.state() == CommitRecord.State.VALID) {
      rolled = finish(id, r.content());
    } else if (r.state() == CommitRecord.State.INCOMPLETE) {
      CommitRecord.remove(id);
    }
    for (String n : SafeDir.names(id.dir())) {
      if (SidecarNames.isTempOf(id, n)) {
        SafeDir.deleteRegularFile(id.dir(), n);
      } else if (SidecarNames.isJournal(id.key(), n)) {
        SafeDir.deleteJournal(id.dir(), n);
      }
    }
    Durable.forceDirectory(id.dir());
    return rolled;
  }

  private static boolean finish(ModelId id, CommitRecord.Content c) throws IOException {
    Path dir = id.dir();
    List<CommitRecord.Rename> pending = new ArrayList<>();
    List<String> done = new ArrayList<>();
    List<String> lost = new ArrayList<>();
    for (CommitRecord.Rename r : c.renames()) {
      Durable.Stamp tmp = Durable.stamp(dir.resolve(r.tmp()));
      Durable.Stamp target = Durable.stamp(dir.resolve(r.target()));
      if (tmp != null && tmp.regular() && (r.key() == null || r.key().equals(tmp.key()))) {
        pending.add(r);
      } else if (tmp == null && target != null && (r.key() == null || r.key().equals(target.key()))) {
        done.add(r.target());
      } else {
        lost.add(r.tmp());
      }
    }
    if (lost.isEmpty()) {
      for (CommitRecord.Rename r : pending) {
        Durable.rename(dir.resolve(r.tmp()), dir.resolve(r.target()));
      }
      for (String d : c.deletes()) {
        SafeDir.deleteRegularFile(dir, d);
      }
      Durable.forceDirectory(dir);
      CommitRecord.remove(id);
      Durable.forceDirectory(dir);
      return true;
    }
    if (done.isEmpty()) {
      // nothing was renamed yet: the old model is whole; the incomplete new one is dropped
      CommitRecord.remove(id);
      Durable.forceDirectory(dir);
      return false;
    }
    throw new FileSystemException(CommitRecord.path(id).toString(), null, "an interrupted commit of " + id
        + " had installed " + done + " when the new files " + lost + " were removed by something else;"
        + " neither the old nor the new model is complete and ModelFS cannot repair it. Nothing was deleted:"
        + " restore the model from a copy, then remove this record");
  }
}
