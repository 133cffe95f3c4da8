package org.modelfs.format.fb;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.modelfs.model.DType;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.model.Where;
import org.modelfs.format.fb.Dl4jGraphRules.Problem;

/**
 * The rules of {@link Dl4jGraphRules} about the variables DL4J 1.0.0-M2.1 computes (docs/GRAPH.md
 * §5.5): an op's output is of kind ARRAY and holds no array; an ARRAY variable is an op's output;
 * its declared dtype is the one its op declares for it ({@code outputTypes}); every loss variable
 * is of kind ARRAY. Each finding names the variable and the op, whatever route made it (a copy
 * or new file onto an op's output, a graph.json edit, a codec).
 */
final class ComputedVariables {
  private ComputedVariables() {}

  /**
   * Adds the problems of {@code tag} (whose graph's ops are {@code ops}, each output's producer
   * in {@code producer}, its loss variables {@code losses}) to {@code add}.
   */
  static void check(Tag tag, Map<String, LoadedGraph.Op> producer, List<String> losses, Consumer<Supplier<Problem>> add) {
    if (tag.graph() == null) {
      return;
    }
    for (Variable v : tag.variables()) {
      LoadedGraph.Op op = producer.get(v.name());
      String name = GraphJsonReader.cut(v.name());
      if (op == null) {
        if (v.kind() == VarKind.ARRAY) {
          add.accept(() -> new Problem(Where.graph(), "variable '" + name + "' (ARRAY) is produced by no op: DL4J cannot compute"
              + " it (docs/GRAPH.md §5.5); give it back the op that computes it, or delete it and what reads it"));
        }
        continue;
      }
      if (v.array() != null) {
        add.accept(() -> new Problem(Where.param(v.name()), "the output of " + op.label() + "; DL4J computes it, it cannot"
            + " hold an array (docs/GRAPH.md §5.5); delete this file, or write the array under a name no op produces"));
      } else if (v.kind() != VarKind.ARRAY) {
        add.accept(() -> new Problem(Where.graph(), "variable '" + name + "' (" + v.kind() + ") is the output of " + op.label()
            + ": DL4J computes it, so it is of kind ARRAY (docs/GRAPH.md §5.5)"));
      }
      int k = op.outputs().indexOf(v.name());
      DType declared = k >= 0 && k < op.outputTypes().size() ? DType.fromCode(op.outputTypes().get(k)) : null;
      if (declared != null && v.dtype() != null && v.dtype() != declared) {
        add.accept(() -> new Problem(Where.graph(), "variable '" + name + "' is declared " + v.dtype() + " but " + op.label()
            + " declares its output " + k + " " + declared + " (outputTypes): DL4J allocates the one and computes the"
            + " other, and the op fails (docs/GRAPH.md §5.5); declare both the same type"));
      }
    }
    for (String loss : losses) {
      Variable v = tag.variable(loss);
      if (v != null && v.kind() != VarKind.ARRAY) {
        add.accept(() -> new Problem(Where.graph(), "lossVariables names '" + GraphJsonReader.cut(loss) + "', of kind " + v.kind()
            + ": DL4J marks only ARRAY variables (the outputs of ops) as losses and does not load the graph"
            + " (docs/GRAPH.md §5.5); name an op's output"));
      }
    }
  }
}
