package org.modelfs.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.function.LongConsumer;
import org.modelfs.container.ContainerPlan;

/**
 * Where a model's files are kept, and how a new version of them is made the current one: the
 * seam between the file system ({@code org.modelfs.provider}, the CLI) and storage. The core has
 * one implementation, {@link LocalBacking} (a directory: lock file, journal beside the model,
 * temporary files renamed into place); others come from a {@link BackingFactory} found as a
 * service ({@link Backings}): the object-store module's commit point is a conditional PUT of the
 * new container against the ETag read at mount, its lock a local one (the PUT's condition is what
 * keeps two writers apart), its journal a local temporary directory.
 *
 * <p>The transaction, whatever the backing: {@link #lock} → {@link #recover} → the generation
 * read at {@link #open} still current → {@link #commit}: write every file of the plan where no
 * reader sees it, force it, read it back with the format's reader and check it, then make it the
 * model in one step; {@link #open} again to see it. Those steps are written once, in
 * {@link CommitSteps}; a backing's {@link #commit} runs them with its own {@link CommitStorage}
 * (where temporaries go, how the new set is installed), and its tests extend
 * {@code BackingContractTest} (core's test jar): docs/ARCHITECTURE.md "A new backing".
 */
public interface Backing {
  /**
   * The name a plan writes the model under: the single file, or {@code <base>.sdnb} for a shard
   * set.
   */
  String fileName();

  /** Opens the current model: every stored file of one generation. */
  Snapshot open() throws IOException;

  /**
   * Before a read-only open: cleans up after a crashed writer where that is safe without taking
   * part in a transaction (a local directory whose lock is free). Nothing by default.
   */
  default void recoverIfIdle() throws IOException {}

  /**
   * Before a mount makes a new model at {@code path} (env {@code create=true}): refuses when none
   * can be made there. By default the model's directory must exist; an object store has no
   * directories to check (its first PUT says whether the bucket takes the object).
   */
  default void checkNew(Path path) throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new NoSuchFileException(path.toString(), null, "the directory of the new model does not exist");
    }
  }

  /**
   * When the model last changed in storage, as the backing knows it without asking the file
   * system again (an object's Last-Modified from the last open), or {@code null}: the mount then
   * reads its file's attributes.
   */
  default FileTime modified() throws IOException {
    return null;
  }

  /**
   * Removes what crashed or failed commits of this model left behind ({@code modelfs clean}), and
   * only that; returns what is gone, in the storage's own words: for a directory the names of the
   * leftover files and journal directories beside the model (a commit that had passed its point
   * of no return is finished, not undone: its record and temporaries are among the names), for an
   * object store the keys of the deleted objects. Empty when there was nothing to remove.
   *
   * @throws java.nio.file.FileSystemException if a writer is changing the model now (a directory:
   *     it holds the lock), so what is left there may still be in use
   */
  List<String> clean() throws IOException;

  /** The stored files (or objects) of the model now, in name order, for messages and the CLI. */
  List<Path> files() throws IOException;

  /** The generation stored now, without opening anything. */
  Generation current() throws IOException;

  /** Takes the one-writer lock, or throws a {@code FileSystemException} if another writer holds it. */
  Lease lock() throws IOException;

  /** Cleans up after crashed writers. Hold {@code lease}. */
  void recover(Lease lease) throws IOException;

  /** A new, empty journal for {@code lease}'s pending changes. */
  Journal newJournal(Lease lease) throws IOException;

  /**
   * Whether {@link #commit} takes plans that keep some of the model's files as they are
   * ({@link ContainerPlan#keepsFiles()}: the unchanged weight shards of a shard set). Off by
   * default: a store that installs a commit somewhere else (an object store's new generation
   * directory) must get every file written.
   */
  default boolean keepsUnchangedFiles() {
    return false;
  }

  /**
   * Makes {@code plan} the model, if the stored generation is still {@code expected}.
   *
   * @throws ModelChangedException if another writer committed since {@code expected}
   */
  default void commit(Lease lease, Generation expected, ContainerPlan plan) throws IOException {
    commit(lease, expected, plan, null);
  }

  /**
   * {@link #commit(Lease, Generation, ContainerPlan)}, telling {@code progress} (may be
   * {@code null}) how many bytes of the new container are written so far, now and then.
   */
  void commit(Lease lease, Generation expected, ContainerPlan plan, LongConsumer progress)
      throws IOException;

  /** A held writer lock; closing releases it. */
  interface Lease extends Closeable {
    /** Whether the lease is still held. */
    boolean held();
  }
}
