package org.modelfs.io;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Closes a group of resources in reverse order of registration; the first failure is thrown
 * with the later ones attached as suppressed exceptions, so none is lost.
 */
public final class Closer implements Closeable {
  private final Deque<Closeable> resources = new ArrayDeque<>();

  /** Registers {@code c} and returns it. */
  public synchronized <C extends Closeable> C register(C c) {
    resources.push(c);
    return c;
  }

  @Override
  public synchronized void close() throws IOException {
    List<Closeable> all = new ArrayList<>(resources);
    resources.clear();
    closeAll(all);
  }

  /** Closes each of {@code all} in order; the first failure is thrown, the others suppressed. */
  public static void closeAll(Iterable<? extends Closeable> all) throws IOException {
    IOException first = null;
    for (Closeable c : all) {
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        IOException io = e instanceof IOException x ? x : new IOException(e.getMessage(), e);
        if (first == null) {
          first = io;
        } else {
          first.addSuppressed(io);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
