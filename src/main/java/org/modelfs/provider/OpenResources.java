package org.modelfs.provider;

import java.io.Closeable;
import java.io.IOException;
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

  <C extends Closeable> C add(C c) {
    open.add(c);
    return c;
  }

  void remove(Closeable c) {
    open.remove(c);
  }

  int count() {
    return open.size();
  }

  /** Closes everything registered; the first failure is thrown with the others suppressed. */
  void closeAll() throws IOException {
    List<Closeable> all = new ArrayList<>(open);
    open.clear();
    Closer.closeAll(all);
  }
}
