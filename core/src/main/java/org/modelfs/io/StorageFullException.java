package org.modelfs.io;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A write refused because the storage is full, a quota is used up or a file size limit was
 * reached (ENOSPC, EDQUOT, EFBIG — the JDK reports them as a bare {@link IOException} whose
 * message is the C library's text, with no file). This says which file, what it is ("the new
 * container m.sdnb of model …", "the journal file of /params/w"), how far the write got and
 * how much room there is (docs/RELIABILITY.md). The original exception is the cause.
 */
public final class StorageFullException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  /** Which limit was reached. */
  public enum Limit {
    /** No space left on the device (ENOSPC). */
    NO_SPACE("no space left on device"),
    /** A disk quota is used up (EDQUOT). */
    QUOTA("disk quota exceeded"),
    /** The file size limit of the process ({@code ulimit -f}) or of the file system (EFBIG). */
    FILE_SIZE("file too large");

    private final String text;

    Limit(String text) {
      this.text = text;
    }
  }

  private final Limit limit;

  private StorageFullException(String file, String reason, Limit limit, IOException cause) {
    super(file, null, reason);
    this.limit = limit;
    initCause(cause);
  }

  /** Which limit was reached. */
  public Limit limit() {
    return limit;
  }

  /**
   * {@code e} explained, if it is a full device, a used-up quota or a file size limit; else
   * {@code e} itself (an exception already explained is returned as it is).
   *
   * @param e what the write threw
   * @param file the file written
   * @param doing what was being done, for the message ("writing the journal file of /params/w of
   *     the model /data/m.sdnb")
   * @param written bytes of the file written before the failure (its size then), or -1 if unknown
   * @param needed about how many bytes were still to write when it failed, or -1 if unknown
   * @return the exception to throw
   */
  public static IOException explain(IOException e, Path file, String doing, long written, long needed) {
    if (e instanceof StorageFullException) {
      return e;
    }
    Limit limit = limitOf(e);
    if (limit == null) {
      return e;
    }
    StringBuilder sb = new StringBuilder(limit.text).append(" while ").append(doing);
    if (written >= 0) {
      sb.append(" (").append(written).append(" bytes written)");
    }
    if (limit == Limit.FILE_SIZE) {
      sb.append(": the file reached the largest size this process may write (ulimit -f) or the file system"
          + " allows");
      if (needed >= 0) {
        sb.append("; ").append(needed).append(" more bytes were to be written");
      }
    } else {
      sb.append(": ");
      sb.append(needed >= 0 ? "about " + needed + " more bytes to write" : "more bytes to write");
      long usable = usable(file);
      sb.append(usable >= 0 ? ", " + usable + " usable" : "").append(" on the file system of ").append(parentOf(file));
    }
    return new StorageFullException(file.toString(), sb.toString(), limit, e);
  }

  /** The limit {@code e} reports, from its message (the C library's strerror text), or null. */
  static Limit limitOf(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (m.contains("no space left on device")) {
        return Limit.NO_SPACE;
      }
      if (m.contains("disk quota exceeded")) {
        return Limit.QUOTA;
      }
      if (m.contains("file too large")) {
        return Limit.FILE_SIZE;
      }
    }
    return null;
  }

  private static long usable(Path file) {
    try {
      FileStore store = Files.getFileStore(parentOf(file));
      return store.getUsableSpace();
    } catch (IOException | RuntimeException e) {
      return -1; // the message goes without the figure
    }
  }

  private static Path parentOf(Path file) {
    Path p = file.toAbsolutePath().getParent();
    return p == null ? file : p;
  }
}
