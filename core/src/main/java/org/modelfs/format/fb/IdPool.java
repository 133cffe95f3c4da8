package org.modelfs.format.fb;

import java.util.HashSet;
import java.util.Set;

/**
 * Node ids for what a written graph.json leaves without one (docs/GRAPH.md §3.2): past every id in
 * use — the document's and the tag's graph's, so a new id never names what the tag had — and,
 * once {@code Integer.MAX_VALUE} is in use, the smallest positive id still free. Never an id in
 * use, never a wrapped one.
 */
final class IdPool {
  private final Set<Integer> used = new HashSet<>();
  private long max;
  /** Where the search for a free id starts once the ids past the largest are used up. */
  private int low = 1;

  /** Marks {@code id} as in use. */
  void use(int id) {
    used.add(id);
    max = Math.max(max, id);
  }

  /** A free id, now in use. */
  int take() {
    int id;
    if (max < Integer.MAX_VALUE) {
      id = (int) (max + 1);
    } else {
      while (used.contains(low)) {
        low++; // at most as many steps as ids in use: a document holds far fewer than 2^31
      }
      id = low;
    }
    use(id);
    return id;
  }
}
