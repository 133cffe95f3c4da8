package org.modelfs.store;

import java.nio.file.FileSystemException;

/**
 * A step on a writer's journal failed in a way the journal's owner did not cause: a journal
 * file or directory gone, replaced or unwritable while the model was open for writing. The
 * message names the journal file, what it was for and the model; the cause is the file
 * system's own exception.
 */
public final class JournalException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  JournalException(String file, String reason, Throwable cause) {
    super(file, null, reason);
    initCause(cause);
  }
}
