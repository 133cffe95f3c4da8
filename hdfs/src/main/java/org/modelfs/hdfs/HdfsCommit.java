package org.modelfs.hdfs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.ipc.RemoteException;
import org.modelfs.container.ContainerPlan;
import org.modelfs.hdfs.nio.HdfsErrors;
import org.modelfs.io.ByteSource;
import org.modelfs.store.CommitSteps;
import org.modelfs.store.CommitStorage;
import org.modelfs.store.Generation;
import org.modelfs.store.LocalTemps;
import org.modelfs.store.ModelChangedException;
import org.modelfs.store.SidecarNames;

/**
 * The HDFS steps of one commit, run by the core's shared {@link CommitSteps} (which writes each
 * planned file with progress, reads the new model back with the format's reader and compares it
 * with the plan; docs/OBJECT-STORES.md §9 "Commit"):
 * <ol>
 *   <li>{@link #begin}: the stored generation is still the mounted one;
 *   <li>{@link #create}: the codec writes into a local temporary (codecs seek back to patch
 *       headers; an HDFS stream cannot);
 *   <li>{@link #readBack}: the local file is uploaded to {@code .<target>.modelfs-<32 hex>.tmp}
 *       beside the model — exclusive create, the old file's permission, {@code hsync}, close — and
 *       the read-back reads <i>that</i>, from HDFS, pinned to its inode; a kept file (an unchanged
 *       weight shard) is read back where it is, by the inode the mount read;
 *   <li>{@link #install}: the caller's last check (the lease fenced, the generation again), then
 *       one file replacing the same name: one atomic rename ({@code OVERWRITE}); otherwise an
 *       {@link InstallRecord} first, then the renames and deletes. Kept files are neither written,
 *       renamed nor deleted.
 * </ol>
 * A failure before the rename or record deletes the temporaries (HDFS and local): the old model is intact.
 */
final class HdfsCommit implements CommitStorage {
  /** The caller's check just before the first rename. */
  interface LastCheck {
    void run() throws IOException;
  }

  private final HdfsModel at;
  private final Stored before;
  private final LastCheck check;
  private final LocalTemps local;
  /** The HDFS temporary of each uploaded local temporary. */
  private final Map<Path, String> uploaded = new LinkedHashMap<>();
  /** The inode id of each HDFS temporary (a rename keeps it): how a rename whose answer was lost is settled. */
  private final Map<String, Long> inodes = new LinkedHashMap<>();

  private HdfsCommit(HdfsModel at, Stored before, LastCheck check, LocalTemps local) {
    this.at = at;
    this.before = before;
    this.check = check;
    this.local = local;
  }

  /** Commits {@code plan} over {@code before} (checked against {@code expected} first). */
  static void run(HdfsModel at, Stored before, Generation expected, ContainerPlan plan, LongConsumer progress,
      LastCheck check) throws IOException {
    HdfsCommit c = new HdfsCommit(at, before, check, LocalTemps.create());
    try {
      CommitSteps.run(c, expected, plan, progress);
    } finally {
      c.local.delete();
    }
  }

  @Override
  public String model() {
    return at.uri();
  }

  @Override
  public void begin(Generation expected) throws IOException {
    if (!before.generation().equals(expected)) {
      throw new ModelChangedException(at.uri(), expected, before.generation());
    }
  }

  @Override
  public Temp create(String name) throws IOException {
    if (!InstallRecord.ownFile(at, name)) {
      throw new IllegalArgumentException(name + " is not a file of " + at.uri());
    }
    return local.temp(name);
  }

  /** Uploads the written local temporary to HDFS and reads <i>that</i> back, by its inode. */
  @Override
  public ByteSource readBack(Temp t) throws IOException {
    String temp = SidecarNames.newTemp(t.name());
    uploaded.put(t.path(), temp);
    FileStatus old = before.files().isEmpty() ? null : before.files().get(0).status();
    try (InputStream in = Files.newInputStream(t.path()); FSDataOutputStream out = at.fs().create(at.beside(temp), false)) {
      if (old != null) {
        at.fs().setPermission(at.beside(temp), old.getPermission());
      }
      in.transferTo((OutputStream) out);
      out.hsync();
    } catch (IOException e) {
      throw HdfsErrors.nio(e, at.uri(), "commit refused: uploading the new file " + temp + " (nothing was replaced)");
    }
    Files.delete(t.path());
    FileStatus s = at.status(at.beside(temp));
    if (s == null) {
      throw new NoSuchFileException(at.shown(temp), null, "the commit's temporary vanished after its upload");
    }
    inodes.put(temp, HdfsModel.fileId(s));
    return HdfsSource.open(at.fs(), s.getPath(), HdfsModel.fileId(s), s.getLen(), at.shown(temp));
  }

  /** A file the plan keeps: the stored one, by the inode the mount read. */
  @Override
  public ByteSource kept(String name) throws IOException {
    for (Stored.File f : before.files()) {
      if (f.name().equals(name)) {
        return HdfsSource.open(at.fs(), f.status().getPath(), HdfsModel.fileId(f.status()), f.status().getLen(),
            at.shown(name));
      }
    }
    throw new IllegalArgumentException("the plan keeps " + name + ", which " + at.uri() + " does not store");
  }

  @Override
  public void install(List<Planned> files) throws IOException {
    Map<String, String> temps = new LinkedHashMap<>();
    Set<String> kept = new HashSet<>();
    for (Planned p : files) {
      if (p.kept()) {
        kept.add(p.name());
      } else {
        temps.put(uploaded.get(p.temp().path()), p.name());
      }
    }
    boolean recorded = false;
    try {
      check.run();
      List<String> deletes = new ArrayList<>();
      for (Stored.File s : before.files()) {
        if (!temps.containsValue(s.name()) && !kept.contains(s.name())) {
          deletes.add(s.name());
        }
      }
      if (temps.size() == 1 && deletes.isEmpty()) {
        Map.Entry<String, String> only = temps.entrySet().iterator().next();
        try {
          at.path().getFileSystem().context().rename(at.beside(only.getKey()), at.beside(only.getValue()),
              Options.Rename.OVERWRITE);
        } catch (IOException | RuntimeException e) {
          if (!renamed(only.getKey(), only.getValue(), e)) {
            throw e;
          }
          recorded = true; // it landed: the temporary is the model now
        }
        return;
      }
      InstallRecord record = new InstallRecord(new LinkedHashMap<>(temps), List.copyOf(deletes));
      String name = record.write(at);
      recorded = true; // past the record: the next writer finishes the install, the temporaries are its
      try {
        record.install(at, name);
      } catch (IOException | RuntimeException e) {
        // the commit is made: every reader's listing applies a complete record (Stored), and the
        // next writer, a read-only open with the lock free, or modelfs clean finishes its renames
        System.getLogger("org.modelfs.hdfs").log(System.Logger.Level.WARNING, at.uri() + ": the commit is made"
            + " (its install record " + name + " is complete), but finishing its renames failed; the next writer,"
            + " mount or 'modelfs clean' finishes them: " + e, e);
      }
    } catch (IOException | RuntimeException e) {
      if (!recorded) {
        deleteUploaded(temps.keySet(), e);
      }
      if (e instanceof RemoteException r) {
        throw HdfsErrors.nio(r, at.uri(), "commit");
      }
      throw e;
    }
  }

  /**
   * After a rename of {@code temp} over {@code target} failed: whether it was applied all the same
   * (the NameNode renamed, the answer was lost): the temporary is gone and the target is its inode.
   * A failure to find out is added to {@code failure} and counts as not renamed.
   */
  private boolean renamed(String temp, String target, Exception failure) {
    Long inode = inodes.get(temp);
    try {
      FileStatus t = at.status(at.beside(target));
      return inode != null && inode >= 0 && at.status(at.beside(temp)) == null && t != null
          && HdfsModel.fileId(t) == inode;
    } catch (IOException | RuntimeException again) {
      failure.addSuppressed(again);
      return false;
    }
  }

  @Override
  public void discard(List<Temp> temps) throws IOException {
    IOException failed = new IOException("discarding the temporaries of a failed commit of " + at.uri());
    deleteUploaded(new ArrayList<>(uploaded.values()), failed);
    if (failed.getSuppressed().length > 0) {
      throw failed;
    }
  }

  private void deleteUploaded(Collection<String> temps, Exception into) {
    for (String temp : temps) {
      try {
        at.fs().delete(at.beside(temp), false);
      } catch (IOException | RuntimeException again) {
        into.addSuppressed(again);
      }
    }
  }

  /**
   * After a crashed writer (hold the lock): rolls forward every complete install record, deletes
   * incomplete ones and every temporary of the model's files; returns the names removed or finished.
   */
  static List<String> recover(HdfsModel at) throws IOException {
    List<String> done = new ArrayList<>();
    for (FileStatus s : at.siblings()) {
      String n = s.getPath().getName();
      if (s.isFile() && SidecarNames.isRecord(InstallRecord.key(at), n)) {
        InstallRecord r = InstallRecord.read(at, n);
        if (r == null) {
          at.fs().delete(s.getPath(), false);
        } else {
          r.install(at, n);
        }
        done.add(n);
      }
    }
    for (FileStatus s : at.siblings()) {
      String n = s.getPath().getName();
      String target = SidecarNames.tempTarget(n);
      if (s.isFile() && target != null && InstallRecord.ownFile(at, target)) {
        try {
          at.fs().delete(s.getPath(), false);
        } catch (IOException e) {
          throw HdfsErrors.nio(e, at.uri(), "deleting a crashed commit's temporary " + n);
        }
        done.add(n);
      }
    }
    return done;
  }
}
