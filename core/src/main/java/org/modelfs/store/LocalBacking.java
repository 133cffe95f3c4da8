package org.modelfs.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.Models;
import org.modelfs.model.Model;

/**
 * A model kept as files in a directory (any {@code java.nio.file} provider: the default one,
 * jimfs, …). Its commit is {@link CommitSteps} with the directory's steps ({@link LocalCommit});
 * the files it makes are named by {@link SidecarNames}; the lock is {@link ModelLock}; crash
 * leftovers go through {@link Recovery}.
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
      throw new InterruptedIOException("interrupted while waiting for a commit to finish");
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
    gone.removeAll(new HashSet<>(SafeDir.names(id.dir())));
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
   * The transaction: {@link CommitSteps} with this directory's steps ({@link LocalCommit}). Under
   * the lock: (1) the stored generation must still be {@code expected}; (2) every file of the plan
   * is written to a new temporary beside its target ({@code CREATE_NEW}, random name) and forced;
   * (3) the temporaries are read back with the format's reader, with the files the plan keeps as
   * they are (unchanged weight shards of a shard set: never written, renamed, backed up or
   * deleted), and checked against the plan — a model ModelFS could not read back never replaces
   * anything; (4) installed by renames ({@link LocalCommit#install}: owner and mode kept,
   * {@code .old} backups and a {@link CommitRecord} when several files change). A failure before
   * the record leaves the old model and deletes the temporaries; a failure after it is finished by
   * {@link Recovery} at once if it can be, else at the next open.
   */
  @Override
  public void commit(Lease lease, Generation expected, ContainerPlan plan, LongConsumer progress)
      throws IOException {
    CommitSteps.run(new LocalCommit(this, id, spelling.toString(), own(lease)), expected, plan, progress);
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
