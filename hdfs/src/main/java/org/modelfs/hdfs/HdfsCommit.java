package org.modelfs.hdfs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.Models;
import org.modelfs.hdfs.nio.HdfsErrors;
import org.modelfs.io.ByteSource;
import org.modelfs.io.StorageFullException;
import org.modelfs.io.WriteProgress;
import org.modelfs.model.Model;
import org.modelfs.store.SidecarNames;

/**
 * One commit of a model in HDFS, step by step (docs/OBJECT-STORES.md §HDFS "Commit"):
 * <ol>
 *   <li>each planned file is written by its codec into a local temporary (codecs seek back to
 *       patch headers; an HDFS stream cannot);
 *   <li>uploaded to {@code .<target>.modelfs-<32 hex>.tmp} beside the model: exclusive create,
 *       {@code hsync}, close (the old file's permission given to it);
 *   <li>read back <i>from HDFS</i> with the format's reader and compared with the plan: bytes
 *       ModelFS cannot read back never replace anything;
 *   <li>the caller's last check (the lease fenced, the generation still the mounted one);
 *   <li>one file replacing the same name: one atomic rename ({@code OVERWRITE}); otherwise an
 *       {@link InstallRecord} first, then the renames and deletes.
 * </ol>
 * Files the plan keeps (a shard set's unchanged weight shards, {@code container.ShardReuse}) are
 * neither written nor renamed nor deleted: a small change of a shard set uploads the changed
 * shards only. A failure before the rename or record deletes the temporaries: the old model is intact.
 */
final class HdfsCommit {
  /** The caller's check just before the first rename. */
  interface LastCheck {
    void run() throws IOException;
  }

  private final HdfsModel at;
  private final ContainerPlan plan;
  private final LongConsumer progress;

  HdfsCommit(HdfsModel at, ContainerPlan plan, LongConsumer progress) {
    this.at = at;
    this.plan = plan;
    this.progress = progress;
  }

  void run(Stored before, LastCheck check) throws IOException {
    Map<String, FileStatus> stored = new LinkedHashMap<>();
    before.files().forEach(f -> stored.put(f.name(), f.status()));
    Path local = privateTempDirectory();
    Map<String, String> temps = new LinkedHashMap<>();
    List<Object> reread = new ArrayList<>(); // the new model's files in the plan's order: a temporary's name, or a kept file's status
    try {
      long written = 0;
      FileStatus old = before.files().isEmpty() ? null : before.files().get(0).status();
      for (ContainerPlan.PlannedFile f : plan.files()) {
        if (!InstallRecord.ownFile(at, f.name())) {
          throw new IllegalArgumentException(f.name() + " is not a file of " + at.uri());
        }
        if (f.kept()) {
          // an unchanged weight shard: the file the mounted generation read, left exactly as it is
          FileStatus k = stored.get(f.name());
          if (!plan.sharded() || k == null) {
            throw new IllegalArgumentException("the plan keeps " + f.name() + ", which " + at.uri() + " does not store");
          }
          reread.add(k);
          continue;
        }
        Path t = local.resolve(f.name());
        written += writeLocally(f, t, written);
        String temp = SidecarNames.newTemp(f.name());
        temps.put(temp, f.name());
        upload(t, temp, old);
        Files.delete(t);
        reread.add(temp);
      }
      verify(reread);
      check.run();
      List<String> deletes = new ArrayList<>();
      for (Stored.File s : before.files()) {
        if (!temps.containsValue(s.name()) && reread.stream().noneMatch(r -> r == s.status())) {
          deletes.add(s.name());
        }
      }
      if (temps.size() == 1 && deletes.isEmpty()) {
        Map.Entry<String, String> only = temps.entrySet().iterator().next();
        at.path().getFileSystem().context().rename(at.beside(only.getKey()), at.beside(only.getValue()),
            Options.Rename.OVERWRITE);
      } else {
        InstallRecord record = new InstallRecord(temps, deletes);
        record.install(at, record.write(at));
      }
    } catch (IOException | RuntimeException e) {
      for (String temp : temps.keySet()) {
        try {
          at.fs().delete(at.beside(temp), false);
        } catch (IOException | RuntimeException again) {
          e.addSuppressed(again);
        }
      }
      if (e instanceof org.apache.hadoop.ipc.RemoteException r) {
        throw HdfsErrors.nio(r, at.uri(), "commit");
      }
      throw e;
    } finally {
      deleteTree(local);
    }
  }

  /** Step 1: the codec streams the file into a local temporary; returns its size. */
  private long writeLocally(ContainerPlan.PlannedFile f, Path t, long written) throws IOException {
    try (FileChannel ch = FileChannel.open(t, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      try (WriteProgress p = WriteProgress.start(ch, progress, written)) {
        f.body().writeTo(ch, t.toString());
      } catch (IOException e) {
        throw StorageFullException.explain(e, t, "writing the new container " + f.name() + " of " + at.uri()
            + " locally before its upload (commit; nothing was replaced)", ch.size(),
            Math.max(0, plan.arrayBytes() - written));
      } catch (RuntimeException e) {
        FileSystemException refused = new FileSystemException(at.uri(), null, "commit refused: the "
            + plan.format().token() + " writer failed on " + f.name() + " (" + e + "); nothing was replaced");
        refused.initCause(e);
        throw refused;
      }
      return ch.size();
    }
  }

  /** Step 2: the local file into the temporary {@code temp} beside the model: exclusive create, hsync. */
  private void upload(Path local, String temp, FileStatus old) throws IOException {
    try (InputStream in = Files.newInputStream(local); FSDataOutputStream out = at.fs().create(at.beside(temp), false)) {
      if (old != null) {
        at.fs().setPermission(at.beside(temp), old.getPermission());
      }
      in.transferTo((OutputStream) out);
      out.hsync();
    } catch (IOException e) {
      throw HdfsErrors.nio(e, at.uri(), "commit refused: uploading the new file " + temp + " (nothing was replaced)");
    }
  }

  /**
   * Step 3: the new model's files — the temporaries, and the files the plan keeps — read back
   * from HDFS, pinned to their inodes, and compared with the plan.
   */
  private void verify(List<Object> files) throws IOException {
    List<ByteSource> sources = new ArrayList<>();
    List<String> problems;
    try {
      for (Object f : files) {
        FileStatus s = f instanceof FileStatus kept ? kept : at.fs().getFileStatus(at.beside((String) f));
        sources.add(HdfsSource.open(at.fs(), s.getPath(), HdfsModel.fileId(s), s.getLen(), at.shown(s.getPath().getName())));
      }
      try (Model m = plan.sharded() ? Models.openShardSources(at.uri(), sources)
          : Models.open(at.uri(), sources.get(0))) {
        problems = plan.verify(m);
      }
    } catch (IOException e) {
      org.modelfs.io.Closer.closeAll(sources);
      throw new FileSystemException(at.uri(), null, "commit refused: the new container does not read back from"
          + " HDFS (" + e.getMessage() + "); nothing was replaced");
    }
    if (!problems.isEmpty()) {
      throw new FileSystemException(at.uri(), null, "commit refused: the new container does not read back as"
          + " written (" + String.join("; ", problems) + "); nothing was replaced");
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

  private static Path privateTempDirectory() throws IOException {
    try {
      return Files.createTempDirectory("modelfs-commit-", PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      return Files.createTempDirectory("modelfs-commit-");
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.deleteIfExists(p);
      }
    }
    Files.deleteIfExists(dir);
  }
}
