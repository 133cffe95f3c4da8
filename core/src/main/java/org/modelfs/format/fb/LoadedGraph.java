package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.format.ModelFormatException;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;

/**
 * A tag's ops as DL4J 1.0.0-M2.1 wires them when it loads the graph the tag will be written with
 * ({@code SameDiff.fromFlatBuffers}, docs/GRAPH.md §1.7 and §5): each op's name, its inputs (the
 * variables whose {@code FlatVariable.id} its {@code inputPaired} entries name), its declared
 * outputs ({@code outputNames}) and control dependencies — every variable by the name it has
 * now (renames since the graph was read applied). Only variables the tag still has count: a
 * writer writes those and no others. Read from the tables alone, never an array's bytes; every
 * element visited is charged to a {@link Budget}.
 */
final class LoadedGraph {
  /** The {@code FlatNode} slots read here (docs/FORMATS.md §3.4). */
  private static final int N_OUTPUT_NAMES = 15;
  private static final int N_OP_NAME = 16;
  private static final int N_OUTPUT_TYPES = 17;
  private static final int N_CONTROL_DEPS = 19;

  /**
   * One op.
   *
   * @param name its {@code name}, or {@code #<id>} when it has none ({@code named} false)
   * @param opName the op it runs ({@code opName}), or {@code ""}
   * @param inputs its inputs by variable name; {@code null} at a position whose id no variable has
   * @param danglingIds the {@code [first, second]} id of each {@code null} input, in order
   * @param outputs its declared outputs ({@code outputNames})
   * @param outputTypes the {@code DType} code of each output ({@code outputTypes}), as many as it stores
   * @param controlDeps ops that must run first ({@code controlDeps})
   * @param varControlDeps variables that must exist first ({@code varControlDeps})
   * @param table the position of its {@code FlatNode}: two entries of {@code nodes} may be one table
   */
  record Op(long table, String name, boolean named, String opName, List<String> inputs, List<int[]> danglingIds, List<String> outputs,
      List<Integer> outputTypes, List<String> controlDeps, List<String> varControlDeps) {
    /** {@code op 'name' (opName)}, as messages name an op. */
    String label() {
      return (named ? "op '" + GraphJsonReader.cut(name) + "'" : "op " + name)
          + (opName.isEmpty() ? "" : " (" + GraphJsonReader.cut(opName) + ")");
    }
  }

  private LoadedGraph() {}

  /** The ops of {@code tag}'s graph in graph order; empty without a graph. */
  static List<Op> ops(Tag tag, String file) throws ModelFormatException {
    List<Op> out = new ArrayList<>();
    GraphRef g = tag.graph();
    if (g == null) {
      return out;
    }
    FbTable root = new FbBuffer(g.source(), g.offset(), g.length(), file).root("FlatGraph");
    Budget budget = Budget.read(root.buffer());
    Map<String, String> renamed = GraphNames.renames(tag, root);
    Map<Long, String> byId = new HashMap<>();
    for (Variable v : tag.variables()) {
      if (v.graphVariable() >= 0) {
        FbTable fv = root.buffer().table(v.graphVariable(), "FlatVariable");
        budget.element(fv.position(), fv.what());
        FbTable id = fv.getTable(V_ID, "id");
        if (id != null) {
          byId.putIfAbsent(GraphJsonReader.key(id.getInt(P_FIRST, 0), id.getInt(P_SECOND, 0)), v.name());
        }
      }
    }
    FbVector nodes = root.getVector(G_NODES, "nodes", 4);
    for (int i = 0; nodes != null && i < nodes.length(); i++) {
      FbTable n = nodes.getTable(i);
      budget.element(n.position(), n.what());
      String name = n.getString(GraphNames.N_NAME, "name");
      String opName = n.getString(N_OP_NAME, "opName");
      List<String> inputs = new ArrayList<>();
      List<int[]> dangling = new ArrayList<>();
      FbVector in = n.getVector(GraphNames.N_INPUT_PAIRED, "inputPaired", 4);
      for (int j = 0; in != null && j < in.length(); j++) {
        budget.element(in.position(), in.what());
        FbTable p = in.getTable(j);
        int first = p.getInt(P_FIRST, 0);
        int second = p.getInt(P_SECOND, 0);
        String var = byId.get(GraphJsonReader.key(first, second));
        inputs.add(var);
        if (var == null) {
          dangling.add(new int[] {first, second});
        }
      }
      out.add(new Op(n.position(), name != null ? name : "#" + n.getInt(GraphNames.N_ID, 0), name != null, opName == null ? "" : opName,
          inputs, dangling, strings(n, N_OUTPUT_NAMES, "outputNames", renamed, budget), types(n, budget),
          strings(n, N_CONTROL_DEPS, "controlDeps", Map.of(), budget),
          strings(n, GraphNames.N_VAR_CONTROL_DEPS, "varControlDeps", renamed, budget)));
    }
    return out;
  }

  /**
   * The variables {@code tag}'s graph names as losses ({@code lossVariables}), by the names they
   * have now; empty without a graph.
   */
  static List<String> losses(Tag tag, String file) throws ModelFormatException {
    GraphRef g = tag.graph();
    if (g == null) {
      return List.of();
    }
    FbTable root = new FbBuffer(g.source(), g.offset(), g.length(), file).root("FlatGraph");
    FbVector v = root.getVector(G_LOSS_VARIABLES, "lossVariables", 4);
    Map<String, String> renamed = GraphNames.renames(tag, root);
    List<String> out = new ArrayList<>();
    for (int i = 0; v != null && i < v.length(); i++) {
      String s = v.getString(i);
      if (s != null) {
        out.add(renamed.getOrDefault(s, s));
      }
    }
    return out;
  }

  private static List<Integer> types(FbTable n, Budget budget) throws ModelFormatException {
    FbVector v = n.getVector(N_OUTPUT_TYPES, "outputTypes", 1);
    List<Integer> out = new ArrayList<>();
    for (int i = 0; v != null && i < v.length(); i++) {
      budget.element(v.position(), v.what());
      out.add((int) v.getByte(i));
    }
    return out;
  }

  private static List<String> strings(FbTable n, int slot, String what, Map<String, String> renamed, Budget budget)
      throws ModelFormatException {
    FbVector v = n.getVector(slot, what, 4);
    List<String> out = new ArrayList<>();
    for (int i = 0; v != null && i < v.length(); i++) {
      budget.element(v.position(), v.what());
      String s = v.getString(i);
      if (s != null) {
        budget.charge(2L * s.length(), v.position(), v.what());
        out.add(renamed.getOrDefault(s, s));
      }
    }
    return out;
  }
}
