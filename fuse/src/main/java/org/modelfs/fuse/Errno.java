package org.modelfs.fuse;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;
import org.modelfs.CommitRefusedException;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.io.StorageFullException;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * What a tool sees when the mounted model refuses (docs/MOUNT.md "Errors"): each exception of the
 * NIO view maps to the errno a POSIX file system gives for the same refusal, negated as FUSE wants
 * it. The message itself goes to the mount's log, since a tool only prints the errno's text.
 */
final class Errno {
  private Errno() {}

  /** The negated errno for {@code e}; EIO for what has no better name. */
  static int of(Throwable e) {
    if (e instanceof Refusal r) {
      return -r.errno;
    }
    if (e instanceof NoSuchFileException || e instanceof InvalidPathException) {
      return -ErrorCodes.ENOENT();
    }
    if (e instanceof FileAlreadyExistsException) {
      return -ErrorCodes.EEXIST();
    }
    if (e instanceof DirectoryNotEmptyException) {
      return -ErrorCodes.ENOTEMPTY();
    }
    if (e instanceof NotDirectoryException) {
      return -ErrorCodes.ENOTDIR();
    }
    if (e instanceof ReadOnlyFileSystemException) {
      return -ErrorCodes.EROFS();
    }
    if (e instanceof StorageFullException) {
      return -ErrorCodes.ENOSPC();
    }
    if (e instanceof AccessDeniedException || e instanceof SecurityException) {
      return -ErrorCodes.EACCES();
    }
    if (e instanceof GraphJsonException || e instanceof CommitRefusedException || e instanceof IllegalArgumentException) {
      return -ErrorCodes.EINVAL();
    }
    if (e instanceof UnsupportedOperationException) {
      return -ErrorCodes.EOPNOTSUPP(); // jnr-constants' ENOTSUP() is 45 on Linux, not 95
    }
    if (e instanceof FileSystemException f && String.valueOf(f.getReason()).contains("another writer")) {
      return -ErrorCodes.EBUSY(); // the model's writer lock (a writable mount holds it from the start)
    }
    if (e instanceof IOException && String.valueOf(e.getMessage()).contains("No space left")) {
      return -ErrorCodes.ENOSPC();
    }
    return -ErrorCodes.EIO();
  }
}
