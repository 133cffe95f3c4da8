package org.modelfs.format.fb;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cycles of ops DL4J 1.0.0-M2.1's executor can never run (docs/GRAPH.md §5.2). {@code
 * AbstractSession.addDependenciesForOp} (lines 896–942) makes an op wait for all its inputs and
 * control dependencies — except {@code Merge}, which waits for <em>either</em> input ({@code
 * addOrDependency}, 908–918). So a cycle that passes through a {@code merge} op (a TF while
 * loop: Enter → Merge → Switch → … → NextIteration → Merge) can start from the input that comes
 * from outside it; any other cycle waits on itself, and DL4J silently computes nothing on it.
 * The edges into a {@code merge} op by its data inputs are left out; what is left must be acyclic.
 */
final class GraphCycles {
  /** The op DL4J's executor runs when any one of its inputs is available ({@code opName}). */
  static final String MERGE = "merge";

  /** The most cycles reported: one is enough to act on, a hostile graph may hold millions. */
  static final int MAX_REPORTED = 10;

  private GraphCycles() {}

  /**
   * Each cycle of {@code ops} through no {@code merge} op, as the ops on it in order, the first
   * repeated at the end; at most {@link #MAX_REPORTED}. Iterative: a long chain needs no stack.
   */
  static List<List<LoadedGraph.Op>> find(List<LoadedGraph.Op> ops) {
    Map<String, Integer> producer = new HashMap<>();
    Map<String, Integer> byName = new HashMap<>();
    for (int i = 0; i < ops.size(); i++) {
      LoadedGraph.Op op = ops.get(i);
      byName.putIfAbsent(op.name(), i);
      for (String o : op.outputs()) {
        producer.putIfAbsent(o, i);
      }
    }
    int[][] deps = new int[ops.size()][];
    for (int i = 0; i < ops.size(); i++) {
      LoadedGraph.Op op = ops.get(i);
      List<Integer> d = new ArrayList<>();
      if (!op.opName().equals(MERGE)) {
        add(d, producer, op.inputs());
      }
      add(d, byName, op.controlDeps());
      add(d, producer, op.varControlDeps());
      deps[i] = d.stream().mapToInt(Integer::intValue).toArray();
    }
    List<List<LoadedGraph.Op>> out = new ArrayList<>();
    byte[] state = new byte[ops.size()]; // 0 new, 1 on the path, 2 done
    int[] next = new int[ops.size()];
    Deque<Integer> path = new ArrayDeque<>();
    for (int s = 0; s < ops.size() && out.size() < MAX_REPORTED; s++) {
      if (state[s] != 0) {
        continue;
      }
      path.push(s);
      state[s] = 1;
      while (!path.isEmpty() && out.size() < MAX_REPORTED) {
        int at = path.peek();
        if (next[at] == deps[at].length) {
          state[path.pop()] = 2;
          continue;
        }
        int d = deps[at][next[at]++];
        if (state[d] == 0) {
          state[d] = 1;
          path.push(d);
        } else if (state[d] == 1) {
          out.add(cycle(ops, path, d));
        }
      }
    }
    return out;
  }

  /**
   * The cycle closed by an edge from the top of {@code path} to {@code d} (the top reads what
   * {@code d} makes), in the order data flows (each op below another on the path reads it),
   * starting at its op that comes first in the graph.
   */
  private static List<LoadedGraph.Op> cycle(List<LoadedGraph.Op> ops, Deque<Integer> path, int d) {
    List<Integer> c = new ArrayList<>();
    for (int i : path) { // the top first
      c.add(i);
      if (i == d) {
        break;
      }
    }
    int first = c.indexOf(Collections.min(c));
    List<LoadedGraph.Op> out = new ArrayList<>();
    for (int k = 0; k <= c.size(); k++) {
      out.add(ops.get(c.get((first + k) % c.size())));
    }
    return out;
  }

  private static void add(List<Integer> d, Map<String, Integer> index, List<String> names) {
    for (String n : names) {
      Integer i = n == null ? null : index.get(n);
      if (i != null) {
        d.add(i);
      }
    }
  }
}
