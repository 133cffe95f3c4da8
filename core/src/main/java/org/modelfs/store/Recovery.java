package org.modelfs.store;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
 * temporaries are gone (a tmp cleaner, a backup that skips {@code *.tmp}), the commit is rolled
 * back instead: each file already renamed over an old one gets the old one back from its backup
 * link ({@code keep} lines), a renamed file that had no old one is removed (its file key proves it
 * is the commit's), the remaining temporaries are dropped — the old model is whole again. Only if
 * a needed backup is gone too is neither generation whole; that is reported, and nothing is
 * deleted.
 */
final class Recovery {
  private Recovery() {}

  /** Whether anything of a crashed writer of {@code id} is there (reads the directory only). */
  static boolean needed(ModelId id) throws IOException {
    return !leftovers(id).isEmpty();
  }

  /**
   * The names of what crashed writers of {@code id} left in its directory, in listing order:
   * commit records, temporaries and backups that are regular files, journal directories (what is
   * planted at our names as something else is never touched, so not listed). Reads the directory only.
   */
  static List<String> leftovers(ModelId id) throws IOException {
    List<String> out = new ArrayList<>();
    for (String n : SafeDir.names(id.dir())) {
      Path p = id.dir().resolve(n);
      if ((SidecarNames.isRecord(id.key(), n) || SidecarNames.isTempOf(id, n) || SidecarNames.isBackupOf(id, n))
          && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
          || SidecarNames.isJournal(id.key(), n) && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        out.add(n);
      }
    }
    return out;
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
    boolean rolled = finishRecords(lock);
    for (String n : SafeDir.names(id.dir())) {
      if (SidecarNames.isTempOf(id, n) || SidecarNames.isBackupOf(id, n)) {
        SafeDir.deleteRegularFile(id.dir(), n);
      } else if (SidecarNames.isJournal(id.key(), n)) {
        SafeDir.deleteJournal(id.dir(), n);
      }
    }
    Durable.forceDirectory(id.dir());
    return rolled;
  }

  /**
   * Finishes (or rolls back) recorded commits of {@code lock}'s model and drops cut-off records,
   * touching nothing else — what a live writer may run before its own commit (its journal is
   * not a leftover). Returns whether a commit was rolled forward.
   */
  static boolean finishRecords(ModelLock lock) throws IOException {
    if (!lock.held()) {
      throw new IllegalStateException(lock + " is not held");
    }
    boolean rolled = false;
    for (CommitRecord.Read r : CommitRecord.all(lock.id())) {
      if (r.state() == CommitRecord.State.VALID) {
        rolled |= finish(lock.id(), r);
      } else if (r.state() == CommitRecord.State.INCOMPLETE) {
        CommitRecord.remove(r.path());
      }
    }
    return rolled;
  }

  private static boolean finish(ModelId id, CommitRecord.Read record) throws IOException {
    CommitRecord.Content c = record.content();
    Path dir = id.dir();
    List<CommitRecord.Rename> pending = new ArrayList<>();
    List<CommitRecord.Rename> done = new ArrayList<>();
    List<String> lost = new ArrayList<>();
    for (CommitRecord.Rename r : c.renames()) {
      Durable.Stamp tmp = Durable.stamp(dir.resolve(r.tmp()));
      Durable.Stamp target = Durable.stamp(dir.resolve(r.target()));
      if (tmp != null && tmp.regular() && (r.key() == null || r.key().equals(tmp.key()))) {
        pending.add(r);
      } else if (tmp == null && target != null && (r.key() == null || r.key().equals(target.key()))) {
        done.add(r);
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
      finishRecord(id, record, c);
      return true;
    }
    // roll back: every renamed file gets its old file back, or goes if there was none
    List<String> unrecoverable = new ArrayList<>();
    for (CommitRecord.Rename r : done) {
      CommitRecord.Backup b = backupOf(c, r.target());
      if (b != null && (r.key() == null || Durable.stamp(dir.resolve(b.backup())) == null)) {
        unrecoverable.add(r.target());
      } else if (b == null && r.key() == null) {
        unrecoverable.add(r.target());
      }
    }
    if (!unrecoverable.isEmpty()) {
      throw new FileSystemException(record.path().toString(), null, "an interrupted commit of " + id
          + " had installed " + unrecoverable + " when some of its new files " + lost + " were removed by"
          + " something else, and the way back to the old files is gone too: neither the old nor the new model"
          + " is complete and ModelFS cannot repair it. Nothing was deleted: restore the model from a copy,"
          + " then remove this record");
    }
    for (CommitRecord.Rename r : done) {
      CommitRecord.Backup b = backupOf(c, r.target());
      if (b != null) {
        Durable.rename(dir.resolve(b.backup()), dir.resolve(r.target()));
      } else {
        SafeDir.deleteRegularFile(dir, r.target());
      }
    }
    for (CommitRecord.Rename r : pending) {
      SafeDir.deleteRegularFile(dir, r.tmp());
    }
    finishRecord(id, record, c);
    return false;
  }

  private static void finishRecord(ModelId id, CommitRecord.Read record, CommitRecord.Content c) throws IOException {
    Durable.forceDirectory(id.dir());
    for (CommitRecord.Backup b : c.backups()) {
      SafeDir.deleteRegularFile(id.dir(), b.backup());
    }
    CommitRecord.remove(record.path());
    Durable.forceDirectory(id.dir());
  }

  private static CommitRecord.Backup backupOf(CommitRecord.Content c, String target) {
    for (CommitRecord.Backup b : c.backups()) {
      if (b.target().equals(target)) {
        return b;
      }
    }
    return null;
  }
}
