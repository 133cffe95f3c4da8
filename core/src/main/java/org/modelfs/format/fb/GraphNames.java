package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.ModelFormatException;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;

/**
 * How a tag's variables relate to the ops of its stored graph by name and by id: which were
 * renamed since the graph was read, and which ops use a variable. Ops take their inputs by
 * variable id ({@code FlatNode.inputPaired}), so a renamed variable stays wired; names appear
 * only in the variable itself, the variable control dependencies ({@code
 * FlatVariable.controlDepsForVar}, {@code FlatNode.varControlDeps}) and the graph's
 * {@code placeholders} and {@code lossVariables} lists, which a writer renames through
 * {@link #renames} (docs/FORMATS.md §3.10). The walks over the ops are charged to a
 * {@link Budget}: a graph sharing one op many times over is refused, not unfolded.
 */
public final class GraphNames {
  /** The {@code FlatNode} slots read here (docs/FORMATS.md §3.2). */
  static final int N_ID = 0;
  static final int N_NAME = 1;
  static final int N_INPUT_PAIRED = 6;
  static final int N_VAR_CONTROL_DEPS = 20;

  private GraphNames() {}

  /**
   * The variables of {@code tag} whose name differs from the one their {@code FlatVariable} in
   * {@code root} (the tag's stored graph) carries: stored name → current name. Empty without a
   * graph.
   */
  static Map<String, String> renames(Tag tag, FbTable root) throws ModelFormatException {
    Map<String, String> out = new HashMap<>();
    if (root == null) {
      return out;
    }
    for (Variable v : tag.variables()) {
      if (v.graphVariable() >= 0) {
        String stored = root.buffer().table(v.graphVariable(), "FlatVariable").getString(V_NAME, "name");
        if (stored != null && !stored.equals(v.name())) {
          out.put(stored, v.name());
        }
      }
    }
    return out;
  }

  /**
   * For each of {@code names} that an op of the tag's stored graph uses — as an input, or as a
   * variable control dependency — the names of those ops, in graph order. Names used by no op
   * are absent.
   *
   * @param file the file name for error messages
   */
  public static Map<String, List<String>> users(Tag tag, Set<String> names, String file) throws ModelFormatException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    GraphRef g = tag.graph();
    if (g == null || names.isEmpty()) {
      return out;
    }
    FbTable root = new FbBuffer(g.source(), g.offset(), g.length(), file).root("FlatGraph");
    Map<String, String> renamed = renames(tag, root);
    Budget budget = Budget.read(root.buffer());
    Map<Long, String> byId = new HashMap<>();
    for (Variable v : tag.variables()) {
      if (v.graphVariable() >= 0 && names.contains(v.name())) {
        FbTable id = root.buffer().table(v.graphVariable(), "FlatVariable").getTable(V_ID, "id");
        if (id != null) {
          byId.put(key(id.getInt(P_FIRST, 0), id.getInt(P_SECOND, 0)), v.name());
        }
      }
    }
    FbVector nodes = root.getVector(G_NODES, "nodes", 4);
    for (int i = 0; nodes != null && i < nodes.length(); i++) {
      FbTable n = nodes.getTable(i);
      budget.element(n.position(), n.what());
      String op = n.getString(N_NAME, "name");
      String opName = op != null ? op : "#" + n.getInt(N_ID, 0);
      FbVector in = n.getVector(N_INPUT_PAIRED, "inputPaired", 4);
      for (int j = 0; in != null && j < in.length(); j++) {
        budget.element(in.position(), in.what());
        FbTable p = in.getTable(j);
        String var = byId.get(key(p.getInt(P_FIRST, 0), p.getInt(P_SECOND, 0)));
        if (var != null) {
          add(out, var, opName);
        }
      }
      FbVector deps = n.getVector(N_VAR_CONTROL_DEPS, "varControlDeps", 4);
      for (int j = 0; deps != null && j < deps.length(); j++) {
        budget.element(deps.position(), deps.what());
        String var = renamed.getOrDefault(deps.getString(j), deps.getString(j));
        if (names.contains(var)) {
          add(out, var, opName);
        }
      }
    }
    return out;
  }

  private static void add(Map<String, List<String>> out, String var, String op) {
    List<String> ops = out.computeIfAbsent(var, k -> new ArrayList<>());
    if (!ops.contains(op)) {
      ops.add(op);
    }
  }

  private static long key(int node, int index) {
    return ((long) node << 32) | (index & 0xffffffffL);
  }
}
