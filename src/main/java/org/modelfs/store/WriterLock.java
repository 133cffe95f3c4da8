package org.modelfs.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one-writer-per-container lock: an exclusive OS lock on the hidden file
 * {@code .<model>.modelfs-lock} beside the model.
 *
 * <p>Locking rule: a mount takes this lock before its first change and keeps it until it is
 * closed; recovery of leftovers (temporary files, stale journals, an unfinished sharded commit)
 * runs only while holding it, so it never touches the files of a live writer. Readers never take
 * it. The lock file itself is never deleted: deleting it would let two processes lock two
 * different files of the same name.
 */
public final class WriterLock implements Closeable {
  private final FileChannel channel;
  private final FileLock lock;

  private WriterLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * The path a model's lock, journal and commit record are named after: the file itself, or for
   * any shard of a sharded SDNB its base name {@code <base>.sdnb}.
   */
  public static Path identity(Path container) {
    Path abs = container.toAbsolutePath();
    org.modelfs.format.sdnb.ShardNames.Shard s =
        org.modelfs.format.sdnb.ShardNames.parse(String.valueOf(abs.getFileName()));
    return s == null ? abs : abs.resolveSibling(s.base() + ".sdnb");
  }

  /** The lock file of the model at {@code container} (a file or a shard set's base name). */
  public static Path pathFor(Path container) {
    Path abs = container.toAbsolutePath();
    return abs.resolveSibling("." + abs.getFileName() + ".modelfs-lock");
  }

  /**
   * Takes the lock, or throws a {@link FileSystemException} naming the model and the lock file
   * when another mount (in this or another process) holds it.
   */
  public static WriterLock acquire(Path container) throws IOException {
    WriterLock l = tryAcquire(container);
    if (l == null) {
      throw new FileSystemException(container.toString(), pathFor(container).toString(),
          "another writer is changing this model (it holds the lock file); close it first");
    }
    return l;
  }

  /** Takes the lock if nobody holds it; {@code null} otherwise. */
  public static WriterLock tryAcquire(Path container) throws IOException {
    FileChannel ch = FileChannel.open(pathFor(container), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      FileLock l = ch.tryLock();
      if (l != null) {
        return new WriterLock(ch, l);
      }
    } catch (OverlappingFileLockException e) {
      // held by another mount in this JVM
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    ch.close();
    return null;
  }

  @Override
  public void close() throws IOException {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
  }
}
