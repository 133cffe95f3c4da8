package org.modelfs.provider;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ClosedFileSystemException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.modelfs.io.Closer;

/**
 * Every channel, stream and cache file a mounted model has open, so that closing the file
 * system closes them all (the jimfs {@code FileSystemState} idea): after that, each of them
 * answers with a closed-channel error instead of reading a released container.
 */
final class OpenResources {
  private final Set<Closeable> open = ConcurrentHashMap.newKeySet();
  private boolean closed; // guarded by this

  /**
   * Registers {@code c}. Once {@link #closeAll} has begun nothing more is registered: {@code c} is
   * closed at once and the caller gets a {@link ClosedFileSystemException} — so a channel opened
   * while the file system closes cannot outlive it.
   */
  <C extends Closeable> C add(C c) {
    synchronized (this) {
      if (!closed) {
        open.add(c);
        return c;
      }
    }
    ClosedFileSystemException e = new ClosedFileSystemException();
    try {
      c.close();
    } catch (IOException suppressed) {
      e.addSuppressed(suppressed);
    }
    throw e;
  }

  void remove(Closeable c) {
    open.remove(c);
  }

  int count() {
    return open.size();
  }

  /** Closes everything registered, now and for good; the first failure is thrown with the others suppressed. */
  void closeAll() throws IOException {
    List<Closeable> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(open);
      open.clear();
    }
    Closer.closeAll(all);
  }
}
