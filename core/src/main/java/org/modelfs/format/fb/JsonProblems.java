package org.modelfs.format.fb;

import java.util.ArrayList;
import java.util.List;

/**
 * The problems found in a written graph.json, in document order, at most {@link #MAX} (a
 * hostile document cannot make the message unbounded; the count past that is said).
 */
final class JsonProblems {
  static final int MAX = 50;

  private final List<String> list = new ArrayList<>();
  private int dropped;

  /** Records {@code what} found at {@code where} (e.g. {@code "op 'clip' (clipbyvalue), tArgs 'left'"}). */
  void add(String where, String what) {
    if (list.size() < MAX) {
      list.add(where + ": " + what);
    } else {
      dropped++;
    }
  }

  boolean any() {
    return !list.isEmpty();
  }

  /** Throws them, if any, as one {@link GraphJsonException} for {@code file}. */
  void throwIfAny(String file) throws GraphJsonException {
    if (list.isEmpty()) {
      return;
    }
    List<String> out = new ArrayList<>(list);
    if (dropped > 0) {
      out.add(dropped + " more not listed");
    }
    throw new GraphJsonException(file, out);
  }
}
