package org.modelfs.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one-writer-per-model lock: held by at most one owner per {@link ModelId} in this JVM (a
 * static table) and across processes by an OS lock on {@code .<key>.modelfs-lock}
 * ({@link SidecarNames#lock}).
 *
 * <p>Why the table: POSIX record locks belong to the process, and closing <em>any</em> descriptor
 * of the file drops all of them (the {@link FileLock} Javadoc warns of it). So nothing in this JVM
 * opens the lock file while an owner here holds it: a second writer, a read-only mount's recovery,
 * a CLI command — each asks the table first and is refused without touching the file.
 *
 * <p>The lock file is removed by its holder when it releases, while it still holds the OS lock;
 * a taker therefore checks, after locking, that the path still names the file it locked (same
 * file key before opening, after opening and after locking), and starts over if not — the
 * classic lock-file unlink race. The file is opened without following links, and never if
 * something other than a regular file sits at its name.
 *
 * <p>Lock order (docs/ARCHITECTURE.md): a mount's change lock, then this lock (the table is one
 * atomic map operation), then the OS lock; nothing is taken while holding the OS lock.
 */
public final class ModelLock implements Backing.Lease {
  private static final ConcurrentHashMap<ModelId, Object> HELD = new ConcurrentHashMap<>();
  private static final int TRIES = 50;
  /** How long {@link #acquire} waits for a lock that is held before it refuses. */
  static final long PATIENCE_MILLIS = 500;

  private final ModelId id;
  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final Durable.Stamp stamp;
  private boolean released; // guarded by this

  private ModelLock(ModelId id, Path file, FileChannel channel, FileLock lock, Durable.Stamp stamp) {
    this.id = id;
    this.file = file;
    this.channel = channel;
    this.lock = lock;
    this.stamp = stamp;
  }

  /**
   * Takes the lock, or throws a {@link FileSystemException} naming the model and the lock file
   * when another owner (in this or another process) holds it. A reader cleaning up after a
   * crashed writer holds the lock for a few milliseconds, so a refusal is only given after the
   * lock stayed taken for {@link #PATIENCE_MILLIS}.
   */
  public static ModelLock acquire(ModelId id) throws IOException {
    long deadline = System.nanoTime() + PATIENCE_MILLIS * 1_000_000L;
    ModelLock l = tryAcquire(id);
    for (int i = 1; l == null && System.nanoTime() < deadline; i++) {
      try {
        Thread.sleep(Math.min(50, 2L * i));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for the lock of " + id);
      }
      l = tryAcquire(id);
    }
    if (l == null) {
      throw new FileSystemException(id.toString(), id.dir().resolve(SidecarNames.lock(id.key())).toString(),
          "another writer is changing this model (it holds the lock file); close it first");
    }
    return l;
  }

  /** Takes the lock if nobody holds it; {@code null} otherwise. */
  public static ModelLock tryAcquire(ModelId id) throws IOException {
    Object reserved = new Object();
    if (HELD.putIfAbsent(id, reserved) != null) {
      return null; // an owner in this JVM: do not even open the file
    }
    ModelLock l = null;
    try {
      l = lockFile(id);
      if (l != null) {
        HELD.replace(id, reserved, l);
      }
      return l;
    } finally {
      if (l == null) {
        HELD.remove(id, reserved);
      }
    }
  }

  /** Whether an owner in this JVM holds the lock of {@code id}. */
  public static boolean heldHere(ModelId id) {
    return HELD.containsKey(id);
  }

  private static ModelLock lockFile(ModelId id) throws IOException {
    Path file = id.dir().resolve(SidecarNames.lock(id.key()));
    boolean madeHere = false; // whether a pass found no lock file (and so this call made the one there)
    for (int i = 0; i < TRIES; i++) {
      Durable.Stamp before = regularOrAbsent(file);
      FileChannel ch;
      try {
        ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      } catch (FileSystemException e) {
        throw new FileSystemException(file.toString(), null, "cannot open the lock file of " + id
            + " (a symbolic link or other file planted at its name is never followed): " + e.getReason());
      } catch (UnsupportedOperationException | IllegalArgumentException e) {
        // a provider that cannot open a file without following links (the JDK's zip file system)
        throw noLocks(id, file, madeHere, null, "cannot open its lock file without following links", e);
      }
      boolean keep = false;
      try {
        Durable.Stamp opened = Durable.stamp(file);
        if (before == null || !before.sameFileOrEqual(opened)) {
          madeHere |= before == null;
          continue; // just created, or replaced meanwhile: look again
        }
        FileLock fl;
        try {
          fl = ch.tryLock();
        } catch (UnsupportedOperationException | IOException e) {
          keep = true; // noLocks closes it
          throw noLocks(id, file, madeHere, ch, "offers no file locks", e);
        }
        if (fl == null) {
          return null; // another process
        }
        if (!opened.sameFileOrEqual(Durable.stamp(file))) {
          fl.release(); // its holder removed it as we locked it: take the new one
          continue;
        }
        keep = true;
        return new ModelLock(id, file, ch, fl, opened);
      } finally {
        if (!keep) {
          ch.close();
        }
      }
    }
    throw new FileSystemException(file.toString(), null, "the lock file kept being replaced while it was taken ("
        + TRIES + " tries)");
  }

  /**
   * The storage cannot hold a writer lock (an object store through its NIO provider, which then
   * has no {@link BackingFactory}; the JDK's zip file system): the channel is closed (a provider
   * that writes objects on close makes the object only now), the lock file is removed again if
   * this call made it — on storage without locks nobody can hold that file as a lock — and the
   * caller learns why it cannot write there.
   */
  private static IOException noLocks(ModelId id, Path file, boolean madeHere, FileChannel ch, String why,
      Exception e) {
    FileSystemException out = new FileSystemException(file.toString(), null, "the storage of " + id + " ("
        + file.getFileSystem().provider().getScheme() + ":) " + why + " (" + e + "), so ModelFS cannot write the"
        + " model there; models in an S3-compatible object store are written through the modelfs-s3 module"
        + " (docs/OBJECT-STORES.md), which must be on the class path");
    out.initCause(e);
    try {
      if (ch != null) {
        ch.close();
      }
      if (madeHere) {
        Files.deleteIfExists(file);
      }
    } catch (IOException | RuntimeException again) {
      out.addSuppressed(again);
    }
    return out;
  }

  private static Durable.Stamp regularOrAbsent(Path file) throws IOException {
    Durable.Stamp s = Durable.stamp(file);
    if (s != null && !s.regular()) {
      throw new FileSystemException(file.toString(), null, "is not a regular file: something was planted at the"
          + " name of the model's lock file; ModelFS neither follows nor removes it — remove it to write the model");
    }
    return s;
  }

  /** The model this lock is for. */
  public ModelId id() {
    return id;
  }

  /** Whether this lock is still held. */
  @Override
  public synchronized boolean held() {
    return !released && lock.isValid();
  }

  /**
   * Removes the lock file (while still holding it, and only if it is still the file locked) and
   * releases the lock. Always releases; a failure to remove the file is thrown afterwards.
   */
  @Override
  public synchronized void close() throws IOException {
    if (released) {
      return;
    }
    released = true;
    IOException failure = null;
    try {
      Durable.Stamp now = Durable.stamp(file);
      if (stamp.sameFileOrEqual(now) && now.size() == 0) {
        Files.deleteIfExists(file); // ModelFS never writes a lock file: one with content is not ours to remove
      }
    } catch (IOException e) {
      failure = e;
    }
    try {
      try {
        if (lock.isValid()) {
          lock.release();
        }
      } finally {
        channel.close();
      }
    } catch (IOException e) {
      if (failure != null) {
        e.addSuppressed(failure);
      }
      failure = e;
    } finally {
      HELD.remove(id, this);
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "lock of " + id + (released ? " (released)" : "");
  }
}
