package org.modelfs.hdfs.nio;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;

/**
 * A failed Hadoop call as the JDK's exception for it, naming the file as the user wrote it
 * ({@code hdfs://host:port/dir/m.fb}) and Hadoop's reason in one line (the first line of the
 * NameNode's message: its stack trace is not the user's).
 */
public final class HdfsErrors {
  private HdfsErrors() {}

  /** {@code e}, thrown while {@code doing} on {@code file}, as the JDK's exception for it. */
  public static IOException nio(IOException e, String file, String doing) {
    IOException u = e instanceof RemoteException r ? r.unwrapRemoteException() : e;
    String reason = doing + ": " + firstLine(u);
    IOException out;
    if (u instanceof FileNotFoundException) {
      out = new NoSuchFileException(file, null, reason);
    } else if (u instanceof org.apache.hadoop.fs.FileAlreadyExistsException) {
      out = new FileAlreadyExistsException(file, null, reason);
    } else if (u instanceof AccessControlException) {
      out = new AccessDeniedException(file, null, reason);
    } else if (u instanceof PathIsNotEmptyDirectoryException) {
      out = new DirectoryNotEmptyException(file);
    } else if (u instanceof FileSystemException || u instanceof InterruptedIOException) {
      return u;
    } else {
      out = new FileSystemException(file, null, reason);
    }
    out.initCause(e);
    return out;
  }

  /** The first line of {@code e}'s message (a remote exception carries the server's trace after it). */
  public static String firstLine(Throwable e) {
    String m = e.getMessage();
    if (m == null || m.isBlank()) {
      return e.getClass().getSimpleName();
    }
    int nl = m.indexOf('\n');
    return (nl < 0 ? m : m.substring(0, nl)).trim();
  }
}
