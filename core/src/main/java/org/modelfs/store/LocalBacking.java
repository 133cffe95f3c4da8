package org.modelfs.store;

import org.modelfs.format.sdnb.ShardNames;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.Models;
import org.modelfs.model.Model;

/**
 * A model kept as files in a directory (any {@code java.nio.file} provider: the default one,
 * jimfs, …). This class is the transaction: every step of a commit, in order, is in
 * {@link #commit}; the files it makes are named by {@link SidecarNames}; the lock is
 * {@link ModelLock}; crash leftovers go through {@link Recovery}.
 */
public final class LocalBacking implements Backing {
  /** How long a reader waits for a commit that is installing its files. */
  private static final long INSTALL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final Path spelling;
  private final ModelId id;

  private LocalBacking(Path spelling, ModelId id) {
    this.spelling = spelling;
    this.id = id;
  }

  /** The model at {@code path} (any spelling; it need not exist yet, its directory must). */
  public static LocalBacking of(Path path) throws IOException {
    return new LocalBacking(path, ModelId.of(path));
  }

  /** The model at {@code path}, written as a shard set ({@code <base>.shard<k>-of-<N>.sdnb}). */
  public static LocalBacking ofShardSet(Path path) throws IOException {
    return new LocalBacking(path, ModelId.of(path).asShardSet());
  }

  /** The model's identity. */
  public ModelId id() {
    return id;
  }

  @Override
  public String fileName() {
    return id.fileName();
  }

  // ---- reading ------------------------------------------------------------------------------

  /**
   * Opens the model's current files: never two generations. A commit that is installing several
   * files is waited for (its record is there meanwhile); a crashed one is finished first when the
   * lock can be had; and the files must be the same after opening as before.
   */
  @Override
  public Snapshot open() throws IOException {
    long deadline = System.nanoTime() + INSTALL_WAIT_NANOS;
    for (int attempt = 0; ; attempt++) {
      Seen before = look();
      if (before.installing()) {
        recoverIfIdle();
        before = look();
      }
      if (!before.installing()) {
        Model m = Models.open(spelling);
        boolean same;
        try {
          Seen after = look();
          same = !after.installing() && after.generation().equals(before.generation());
        } catch (IOException | RuntimeException e) {
          m.close();
          throw e;
        }
        if (same) {
          return new Snapshot(m, before.generation());
        }
        m.close();
      }
      if (System.nanoTime() > deadline) {
        throw new FileSystemException(spelling.toString(), null,
            "the model's files kept changing while it was opened (a commit installing them for over "
                + TimeUnit.NANOSECONDS.toSeconds(INSTALL_WAIT_NANOS) + " s, or one that crashed where this"
                + " process cannot take the lock to finish it)");
      }
      pause(attempt);
    }
  }

  /** What one look at the directory shows: the stored generation, and whether a commit is installing files. */
  private record Seen(Generation generation, boolean installing) {}

  /**
   * One look: the stamps of the model's files and, for a shard set (the only model a commit
   * installs in several steps), whether a complete commit record is there — from one listing.
   */
  private Seen look() throws IOException {
    if (id.shardBase() == null) {
      return new Seen(stamps(List.of(id.fileName())), false);
    }
    List<String> names = new ArrayList<>();
    boolean installing = false;
    for (String n : SafeDir.names(id.dir())) {
      if (id.isModelFile(n)) {
        names.add(n);
      } else if (!installing && SidecarNames.isRecord(id.key(), n)) {
        installing = CommitRecord.read(id, id.dir().resolve(n)).state() == CommitRecord.State.VALID;
      }
    }
    Collections.sort(names);
    return new Seen(stamps(names), installing);
  }

  private static void pause(int attempt) throws IOException {
    try {
      Thread.sleep(Math.min(50, 1 + attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for a commit to finish");
    }
  }

  @Override
  public Generation current() throws IOException {
    return look().generation();
  }

  private Generation stamps(List<String> names) throws IOException {
    List<String> files = new ArrayList<>();
    for (String n : names) {
      Durable.Stamp s = Durable.stamp(id.dir().resolve(n));
      if (s != null) {
        files.add(n + "@" + s.key() + "/" + s.size() + "/" + s.modifiedMillis());
      }
    }
    return new Generation(files);
  }

  /**
   * Before a mount: when a crashed writer left something and no writer holds the lock, cleans up
   * (finishing an interrupted commit). Where the lock cannot be taken (a read-only directory,
   * something planted at the lock's name) the files are left as they are and reading goes on.
   */
  @Override
  public void recoverIfIdle() throws IOException {
    if (ModelLock.heldHere(id) || !Recovery.needed(id)) {
      return;
    }
    ModelLock l;
    try {
      l = ModelLock.tryAcquire(id);
    } catch (IOException | UnsupportedOperationException e) {
      return; // not ours to clean here; reading does not need it
    }
    if (l != null) {
      try (l) {
        Recovery.recover(l);
      }
    }
  }

  /**
   * {@code modelfs clean}: when a crashed writer left something ({@link Recovery#leftovers}), takes
   * the lock — refused while a writer holds it — and runs {@link Recovery}; returns the names of
   * the leftovers that are gone afterwards.
   */
  @Override
  public List<String> clean() throws IOException {
    List<String> before = Recovery.leftovers(id);
    if (before.isEmpty()) {
      return List.of();
    }
    try (ModelLock l = ModelLock.acquire(id)) {
      Recovery.recover(l);
    }
    List<String> gone = new ArrayList<>(before);
    gone.removeAll(new java.util.HashSet<>(SafeDir.names(id.dir())));
    return gone;
  }

  // ---- writing ------------------------------------------------------------------------------

  /** A commit here keeps the unchanged weight shards of a shard set where they are. */
  @Override
  public boolean keepsUnchangedFiles() {
    return true;
  }

  @Override
  public ModelLock lock() throws IOException {
    return ModelLock.acquire(id);
  }

  @Override
  public void recover(Lease lease) throws IOException {
    Recovery.recover(own(lease));
  }

  @Override
  public Journal newJournal(Lease lease) throws IOException {
    own(lease);
    return Journal.create(id);
  }

  /**
   * The transaction. Under the lock: (1) the stored generation must still be {@code expected};
   * (2) every file of the plan is written to a new temporary beside its target
   * ({@code CREATE_NEW}, random name) and forced; (3) the temporaries are opened with the
   * format's reader, with the files the plan keeps as they are (unchanged weight shards of a
   * shard set: never written, renamed, backed up or deleted), and checked against the plan
   * ({@link ContainerPlan#verify}) — a model ModelFS could not read back never replaces anything; (4) each
   * temporary replacing an existing file is given its owner, group and mode
   * ({@link OwnerAndMode#keep}; the commit is refused when it cannot be); a single new file with nothing else to
   * remove is renamed over its target; otherwise each old file a rename will replace is hard-linked
   * to a backup name (the way back), a {@link CommitRecord} is written and forced, the
   * temporaries renamed in order, the files of the old model that the new one does not reuse
   * (old shards, the single file a shard set replaces, or the reverse) deleted, the backups and the
   * record removed; (5) the directory is forced. A failure before the record leaves the old model and
   * deletes the temporaries; a failure after it is finished by {@link Recovery} at once if it can
   * be, else at the next open.
   */
  @Override
  public void commit(Lease lease, Generation expected, ContainerPlan plan, java.util.function.LongConsumer progress)
      throws IOException {
    ModelLock lock = own(lease);
    if (id.shardBase() != null) {
      Recovery.finishRecords(lock); // a commit of this writer that an interrupt stopped after its record
    }
    Generation now = current();
    if (!now.equals(expected)) {
      throw new ModelChangedException(spelling.toString(), expected, now);
    }
    Path dir = id.dir();
    List<Path> temps = new ArrayList<>();
    List<String> targets = new ArrayList<>();
    boolean recorded = false;
    boolean installed = false; // the record is removed: every new file is in place
    long written = 0;
    for (String n : SafeDir.names(dir)) {
      ShardNames.Shard linked = ShardNames.parseAny(n);
      if (id.shardBase() != null && id.isModelFile(n) && Files.isSymbolicLink(dir.resolve(n))
          && (linked == null || !Files.isRegularFile(dir.resolve(n)) || !ModelId.holdsShard(dir.resolve(n), linked.ext()))) {
        // a shard set is files of one directory, installed by renames there: a link at a shard's
        // name is never followed (its target may be anywhere). A link to a shard (a frozen shard
        // shared between checkpoints) is a shard of this model: a commit that rewrites it puts a
        // file of the model in the link's place, the shared file untouched; one that keeps it
        // keeps the link. A link to anything else is not silently replaced.
        throw new FileSystemException(dir.resolve(n).toString(), null, "commit refused: a symbolic link named like a"
            + " shard of the model " + id.dir().resolve(id.key()) + "; a shard set is written as regular files of one"
            + " directory. Remove the link, or write the shard set where it points; nothing was written");
      }
      ShardNames.Shard s = ShardNames.parseAny(n);
      if (s != null && id.shardBase() != null && id.isModelFile(n)
          && Files.isRegularFile(dir.resolve(n), java.nio.file.LinkOption.NOFOLLOW_LINKS)
          && !ModelId.holdsShard(dir.resolve(n), s.ext())) {
        throw new FileSystemException(dir.resolve(n).toString(), null, "commit refused: named like a shard of the"
            + " model " + id.dir().resolve(id.key()) + " but it is not one (no " + s.ext() + " shard starts like it);"
            + " this commit would replace or delete it. Move it away; nothing was written");
      }
    }
    List<String> kept = new ArrayList<>(); // files of the model the new one keeps as they are
    List<Path> reread = new ArrayList<>(); // the new model's files, in the plan's order
    try {
      for (ContainerPlan.PlannedFile f : plan.files()) {
        if (!id.isModelFile(f.name())) {
          throw new IllegalArgumentException(f.name() + " is not a file of " + id);
        }
        if (f.kept()) {
          // an unchanged weight shard: the file the mounted generation read (checked above), left
          // exactly as it is — not written, renamed, backed up or deleted
          if (!plan.sharded()) {
            throw new IllegalArgumentException("the plan keeps " + f.name() + ", but " + id + " is written as one file");
          }
          if (!Files.isRegularFile(dir.resolve(f.name()), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new FileSystemException(dir.resolve(f.name()).toString(), null, "commit refused: this unchanged"
                + " shard of the model " + id.dir().resolve(id.key()) + " was to be kept as it is, but it is no longer a"
                + " regular file here (moved, deleted or replaced by a link since the model was mounted); nothing was"
                + " replaced");
          }
          kept.add(f.name());
          reread.add(dir.resolve(f.name()));
          continue;
        }
        Path t = dir.resolve(SidecarNames.newTemp(f.name()));
        try (SeekableByteChannel ch = Durable.createNew(t)) {
          temps.add(t);
          if (Files.isRegularFile(dir.resolve(f.name()), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            OwnerAndMode.restrictLike(t, dir.resolve(f.name()));
          }
          written += PlannedFiles.write(plan, f, ch, t, spelling.toString(), written, progress);
        }
        targets.add(f.name());
        reread.add(t);
      }
      PlannedFiles.verify(plan, reread, spelling.toString());
      for (int i = 0; i < temps.size(); i++) {
        // an existing file keeps its owner, group and mode (OutputFile, docs/CLI.md "Output files")
        if (Files.isRegularFile(dir.resolve(targets.get(i)), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          OwnerAndMode.keep(temps.get(i), dir.resolve(targets.get(i)));
        }
      }
      List<String> remove = new ArrayList<>();
      for (String n : SafeDir.names(dir)) {
        if (id.isModelFile(n) && !targets.contains(n) && !kept.contains(n) && Files.isRegularFile(dir.resolve(n),
            java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          remove.add(n);
        }
      }
      if (temps.size() == 1 && remove.isEmpty()) {
        Durable.rename(temps.get(0), dir.resolve(targets.get(0)));
        Durable.forceDirectory(dir);
        return;
      }
      List<CommitRecord.Rename> renames = new ArrayList<>();
      for (int i = 0; i < temps.size(); i++) {
        Durable.Stamp s = Durable.stamp(temps.get(i));
        renames.add(new CommitRecord.Rename(temps.get(i).getFileName().toString(), targets.get(i),
            s == null ? null : s.key()));
      }
      // the way back: a hard link to every old file a rename will replace, made before the record
      List<CommitRecord.Backup> backups = new ArrayList<>();
      for (String target : targets) {
        if (Files.isRegularFile(dir.resolve(target), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          String b = SidecarNames.newBackup(target);
          try {
            Files.createLink(dir.resolve(b), dir.resolve(target));
            backups.add(new CommitRecord.Backup(b, target));
          } catch (UnsupportedOperationException | IOException e) {
            // no hard links here: the commit goes on without its way back (the record says which)
          }
        }
      }
      Path record;
      try {
        record = CommitRecord.write(id, new CommitRecord.Content(renames, backups, remove));
      } catch (IOException | RuntimeException e) {
        for (CommitRecord.Backup b : backups) {
          SafeDir.deleteRegularFile(dir, b.backup());
        }
        throw e;
      }
      recorded = true;
      try {
        for (int i = 0; i < temps.size(); i++) {
          Durable.rename(temps.get(i), dir.resolve(targets.get(i)));
        }
        for (String n : remove) {
          SafeDir.deleteRegularFile(dir, n);
        }
        Durable.forceDirectory(dir);
        for (CommitRecord.Backup b : backups) {
          SafeDir.deleteRegularFile(dir, b.backup());
        }
        CommitRecord.remove(record);
        installed = true;
        Durable.forceDirectory(dir);
      } catch (IOException | RuntimeException e) {
        // roll the recorded commit forward now; an interrupt that stopped it must not stop this
        // too (it is kept for the caller)
        boolean interrupted = Thread.interrupted();
        try {
          if (!Recovery.finishRecords(lock) && !installed) {
            // Recovery rolled it back (a new file was gone): the model is the old one
            throw e;
          }
        } catch (IOException | RuntimeException again) {
          if (again == e) {
            throw e;
          }
          e.addSuppressed(again);
          throw e;
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
      }
    } finally {
      if (!recorded) {
        for (Path t : temps) {
          Files.deleteIfExists(t);
        }
      }
    }
  }

  private ModelLock own(Lease lease) {
    if (!(lease instanceof ModelLock l) || !l.id().equals(id) || !l.held()) {
      throw new IllegalStateException("not a held lock of " + id + ": " + lease);
    }
    return l;
  }

  @Override
  public List<Path> files() throws IOException {
    List<Path> out = new ArrayList<>();
    for (String n : SafeDir.names(id.dir())) {
      if (id.isModelFile(n)) {
        out.add(id.dir().resolve(n));
      }
    }
    Collections.sort(out);
    return out;
  }
}
