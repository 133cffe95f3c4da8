package org.modelfs.hdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.EnumSet;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.ipc.RemoteException;
import org.modelfs.hdfs.nio.HdfsErrors;
import org.modelfs.store.Backing;

/**
 * The one-writer lock of a model in HDFS, across every client: the lock file
 * {@code .<key>.modelfs-lock} beside the model, <b>held open for writing</b>. Holding it is holding
 * HDFS's lease on it (the NameNode's single-writer rule; the client renews it while the JVM
 * lives), so:
 * <ul>
 *   <li>taking it: an exclusive create ({@code createNonRecursive(lock, false, …)}: a missing
 *       directory is an error, never made); if the file exists, an
 *       {@code append} — which the NameNode grants only when no live client holds the lease: the
 *       file was closed (a holder that released without deleting), or its holder died and the
 *       lease's soft limit (60 s by default) passed, when the NameNode recovers the lease first
 *       ("lease recovery is in progress": retried a few times);
 *   <li>a live writer's lock is never taken from it: nothing here deletes a lock file it does
 *       not hold, and {@code recoverLease} (which would end a live lease) is called only on a
 *       lease this very client holds with no stream of it left (a create whose answer was lost);
 *   <li>releasing: the holder deletes the file while still holding it (no one else can have
 *       taken it), then closes its stream;
 *   <li>{@link #fence()} before a commit's rename: an {@code hsync} with {@code UPDATE_LENGTH} of
 *       the empty lock file — the NameNode's {@code fsync}, which checks the lease: it fails if the
 *       NameNode gave the lease away (a writer paused past the soft limit), so that writer
 *       renames nothing. What remains: a pause between the fence and the rename itself
 *       (docs/OBJECT-STORES.md §HDFS).
 * </ul>
 */
final class HdfsLock implements Backing.Lease {
  /** How often taking a lock whose lease is being recovered is tried. */
  private static final int BUFFER = 4096;
  private static final int RECOVERY_TRIES = 20; // about 18 s of pauses: a DataNode may take some heartbeats to recover a block

  private final FileSystem fs;
  private final Path file;
  private final String model;
  private final FSDataOutputStream out;
  private volatile boolean held = true;
  private volatile boolean closed;

  private HdfsLock(FileSystem fs, Path file, String model, FSDataOutputStream out) {
    this.fs = fs;
    this.file = file;
    this.model = model;
    this.out = out;
  }

  /** Takes the lock {@code file} of the model {@code model} (the user's spelling, for messages). */
  static HdfsLock take(FileSystem fs, Path file, String model) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        // never creates the model's directory: a lock (clean, convert, a commit) in a directory
        // that does not exist is refused, as a local model's is, and leaves nothing behind
        return new HdfsLock(fs, file, model, fs.createNonRecursive(file, false, BUFFER, fs.getDefaultReplication(file),
            fs.getDefaultBlockSize(file), null));
      } catch (FileAlreadyExistsException exists) {
        // held, or left closed: try to take it over
      } catch (FileNotFoundException | ParentNotDirectoryException noDir) {
        NoSuchFileException e = new NoSuchFileException(model, null, "the model's directory does not exist");
        e.initCause(noDir);
        throw e;
      } catch (IOException e) {
        if (remote(e, "FileNotFoundException") || remote(e, "ParentNotDirectoryException")) {
          NoSuchFileException gone = new NoSuchFileException(model, null, "the model's directory does not exist");
          gone.initCause(e);
          throw gone;
        }
        // the file exists under a lease: live (refused), or expired and being recovered (again)
        if (remote(e, "RecoveryInProgressException") && attempt < RECOVERY_TRIES) {
          pause(250L * Math.min(attempt, 4));
          continue;
        }
        if (attempt < RECOVERY_TRIES && endedOwnLease(fs, file, e)) {
          continue;
        }
        if (remote(e, "AlreadyBeingCreatedException") || remote(e, "RecoveryInProgressException")) {
          throw held(e, model, file);
        }
        throw refused(e, model, file, "creating the lock file");
      }
      try {
        return new HdfsLock(fs, file, model, fs.append(file));
      } catch (FileNotFoundException gone) {
        // released meanwhile: create it again
      } catch (IOException e) {
        boolean recovering = remote(e, "RecoveryInProgressException");
        if (recovering && attempt < RECOVERY_TRIES) {
          pause(250L * Math.min(attempt, 4));
          continue;
        }
        if (attempt < RECOVERY_TRIES && endedOwnLease(fs, file, e)) {
          continue;
        }
        if (recovering || remote(e, "AlreadyBeingCreatedException")) {
          throw held(e, model, file);
        }
        throw refused(e, model, file, "taking over the lock file");
      }
      if (attempt >= RECOVERY_TRIES) {
        throw new FileSystemException(model, null, "the lock file " + file.getName() + " kept appearing and"
            + " vanishing: other writers are taking the model's lock");
      }
    }
  }

  /**
   * When the NameNode refused because <i>this</i> client already holds the lock file's lease — a
   * create of ours that the NameNode applied but whose stream never reached us (its answer lost,
   * the thread interrupted): no writer holds it (this JVM's {@link org.modelfs.store.WriterTable}
   * lets one taker per model in at a time, and each of its clients is one lease holder), and
   * nothing else would ever end that lease while the JVM lives — ends it ({@code recoverLease}: the
   * file is empty, so it is closed at once) and returns {@code true}: take the lock again. Before,
   * the model stayed "open for writing by another writer" until the JVM exited.
   */
  private static boolean endedOwnLease(FileSystem fs, Path file, IOException e) throws IOException {
    if (!(fs instanceof DistributedFileSystem d) || !remote(e, "AlreadyBeingCreatedException") || e.getMessage() == null
        || !e.getMessage().contains(d.getClient().getClientName() + " is already the current lease holder")) {
      return false;
    }
    d.recoverLease(file);
    return true;
  }

  /** Whether {@code e} is the NameNode's exception of this simple class name (the client jar has no class for some). */
  private static boolean remote(IOException e, String simpleName) {
    String name = e instanceof RemoteException r ? r.getClassName() : e.getClass().getName();
    return name.endsWith("." + simpleName);
  }

  private static FileSystemException held(IOException e, String model, Path file) {
    FileSystemException held = new FileSystemException(model, null, "another writer has the model open for"
        + " writing (it holds the HDFS lease of the lock file " + file.getName() + "; a writer that died"
        + " frees it once its lease expires, 60 s by default)");
    held.initCause(e);
    return held;
  }

  private static IOException refused(IOException e, String model, Path file, String doing) {
    return HdfsErrors.nio(e, model, doing + " " + file.getName());
  }

  static void pause(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a model in HDFS");
    }
  }

  @Override
  public boolean held() {
    return held;
  }

  /** Proves the lease is still this client's (see the class comment); throws if it is not. */
  void fence() throws IOException {
    try {
      if (out instanceof HdfsDataOutputStream h) {
        h.hsync(EnumSet.of(HdfsDataOutputStream.SyncFlag.UPDATE_LENGTH)); // the NameNode's fsync
      } else {
        out.hsync();
      }
    } catch (IOException e) {
      held = false;
      FileSystemException lost = new FileSystemException(model, null, "commit refused: this writer lost the HDFS"
          + " lease of the lock file " + file.getName() + " (it was paused past the lease's limit and another"
          + " writer took the lock); nothing was replaced (" + HdfsErrors.firstLine(e) + ")");
      lost.initCause(e);
      throw lost;
    }
  }

  /**
   * Deletes the lock file while holding it, then closes the stream (whose file is gone by then).
   * A lock whose lease was lost ({@link #fence()} failed) is not deleted — it is another
   * writer's now — and only its dead stream is closed.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    boolean mine = held;
    held = false;
    try {
      if (mine) {
        fs.delete(file, false);
      }
    } catch (IOException e) {
      // the commit before stands; the lock file stays, closed below, and the next writer takes it
      // over (an append): a failed release is no failed commit (before, close threw, and the
      // caller was told its commit failed although it had landed)
      System.getLogger("org.modelfs.hdfs").log(System.Logger.Level.WARNING, model + ": removing the lock file "
          + file.getName() + " failed (the next writer takes it over): " + e, e);
    } finally {
      try {
        out.close();
      } catch (IOException expected) {
        // the stream's file was deleted above by its holder, or its lease is another writer's
        // (the commit that found that out reported it): nothing of ours is lost
      }
    }
  }
}
