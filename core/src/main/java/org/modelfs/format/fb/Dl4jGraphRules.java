package org.modelfs.format.fb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.TrainingJson;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;
import org.modelfs.model.Where;

/**
 * What DL4J 1.0.0-M2.1's loader and executor make of a tag, where that differs from what ModelFS
 * shows (docs/GRAPH.md §5): one owner, run by every commit before anything is written ({@code
 * container.ModelWriter}, for every route and format), by a graph.json write, and by {@code
 * modelfs verify} for a model any tool made. Each rule:
 *
 * <ol>
 *   <li>op names are unique (DL4J keeps one op per name);
 *   <li>no variable is named like an op it is not an output of (DL4J makes it that op's output);
 *   <li>no variable is an output of two ops;
 *   <li>every op input is a variable the graph has (inputs are wired by id);
 *   <li>no cycle of ops through no {@code merge} ({@link GraphCycles});
 *   <li>an op's output is ARRAY, holds no array and is declared its op's output type; an ARRAY
 *       variable is an op's output; a loss variable is ARRAY ({@link ComputedVariables});
 *   <li>a VARIABLE or CONSTANT's declared dtype and shape are its array's (an empty array excepted);
 *   <li>a training configuration DL4J's {@code TrainingConfig.fromJson} reads, and updater state only
 *       with one whose updater keeps exactly those keys (docs/FORMATS.md §3.9).
 * </ol>
 *
 * Reads the graph's tables and the index (dtype, shape) of arrays, never their bytes.
 */
public final class Dl4jGraphRules {
  /** The most name, output and input problems reported for one graph (a message stays readable). */
  static final int MAX_REPORTED = 20;

  private Dl4jGraphRules() {}

  /**
   * One rule's finding.
   *
   * @param where where in the tag: a parameter, {@code graph}, {@code training.json}, the updater
   *     (state of one parameter)
   * @param reason what DL4J would do, in the user's words, and what to change
   */
  public record Problem(Where where, String reason) {
    @Override
    public String toString() {
      return where + ": " + reason;
    }
  }

  /**
   * Every rule's problems for {@code tag}.
   *
   * @param loadedByDl4j whether the format is one DL4J loads (updater state is held to training.json)
   * @param file the file name for errors in the graph
   * @throws ModelFormatException if the graph cannot be read (or is over its budget)
   */
  public static List<Problem> problems(Tag tag, boolean loadedByDl4j, String file) throws ModelFormatException {
    List<Problem> out = structure(tag, file);
    out.addAll(training(tag, loadedByDl4j));
    return out;
  }

  /** Rules 1–7: the graph's wiring and its declarations against the arrays (what every commit checks). */
  public static List<Problem> structure(Tag tag, String file) throws ModelFormatException {
    List<Problem> out = graphProblems(tag, file);
    declarations(tag, out);
    return out;
  }

  /**
   * Rule 8 alone (a mount's commit checks it; whole-model writes outside a mount do not yet: test
   * models without a training configuration are written so).
   */
  public static List<Problem> training(Tag tag, boolean loadedByDl4j) {
    List<Problem> out = new ArrayList<>();
    updater(tag, loadedByDl4j, out);
    return out;
  }

  /** Rules 1–6, those of the graph's wiring ({@code tag}'s variables as they are now). */
  public static List<Problem> graphProblems(Tag tag, String file) throws ModelFormatException {
    List<Problem> out = new ArrayList<>();
    int[] more = {0}; // beyond MAX_REPORTED: counted, no message made
    Consumer<Supplier<Problem>> add = p -> {
      if (out.size() < MAX_REPORTED) {
        out.add(p.get());
      } else {
        more[0]++;
      }
    };
    List<LoadedGraph.Op> ops = LoadedGraph.ops(tag, file);
    Map<String, LoadedGraph.Op> byName = new HashMap<>();
    Map<String, LoadedGraph.Op> producer = new HashMap<>();
    for (LoadedGraph.Op op : ops) {
      LoadedGraph.Op twin = op.named() ? byName.putIfAbsent(op.name(), op) : null;
      if (twin != null && twin.table() != op.table()) { // one table listed twice is one op: DL4J sets it again
        add.accept(() -> new Problem(Where.graph(), twin.label() + " and " + op.label() + " have one name: DL4J keeps one op"
            + " per name (docs/GRAPH.md §1.7), the first would be lost; rename one"));
      }
      Variable same = op.named() ? tag.variable(op.name()) : null;
      if (same != null && !op.outputs().contains(op.name())) {
        add.accept(() -> new Problem(at(same), (same.kind().holdsArray() ? "" : "variable '" + GraphJsonReader.cut(same.name())
            + "': ") + "a variable named like " + op.label() + " that does not produce it: DL4J would make it"
            + " that op's output (docs/GRAPH.md §1.7); rename the variable or the op"));
      }
      for (String o : op.outputs()) {
        LoadedGraph.Op first = producer.putIfAbsent(o, op);
        if (first != null && first.table() != op.table()) {
          add.accept(() -> new Problem(Where.graph(), "variable '" + GraphJsonReader.cut(o) + "' is an output of " + first.label()
              + " and of " + op.label() + ": a variable has one producing op (docs/GRAPH.md §5.1); rename one output"));
        }
      }
      for (int k = 0, d = 0; k < op.inputs().size(); k++) {
        if (op.inputs().get(k) == null) {
          int[] id = op.danglingIds().get(d++);
          int input = k;
          add.accept(() -> new Problem(Where.graph(), op.label() + " input " + input + " is the id (" + id[0] + ", " + id[1]
              + "), which no variable has: DL4J wires inputs by id and cannot load the graph (docs/FORMATS.md §3.10)"));
        }
      }
    }
    ComputedVariables.check(tag, producer, LoadedGraph.losses(tag, file), add);
    if (more[0] > 0) {
      out.add(new Problem(Where.graph(), "and " + more[0] + " more problems of these kinds"));
    }
    for (List<LoadedGraph.Op> cycle : GraphCycles.find(ops)) {
      StringBuilder path = new StringBuilder();
      for (int i = 0; i < cycle.size(); i++) {
        if (cycle.size() > 12 && i == 6) { // a long cycle: its ends, and how many ops between
          path.append(" → … ").append(cycle.size() - 12).append(" more ops …");
          i = cycle.size() - 6;
        }
        path.append(path.length() == 0 ? "" : " → ").append(cycle.get(i).label());
      }
      out.add(new Problem(Where.graph(), "a cycle of ops through no merge: " + path + ": each waits for the other, so DL4J computes"
          + " none of their outputs (docs/GRAPH.md §5.2); only a loop through a merge op (a TF while loop) can run"));
    }
    return out;
  }

  /**
   * Rule 7: DL4J computes with a VARIABLE's or CONSTANT's array, while graph.json shows its
   * declaration, and the container and zip-tags readers refuse the two disagreeing (an SDNB
   * reader takes the declaration as the array's shape). An empty array is exempt: DL4J writes
   * some so (a Reshape's shape constant declared INT over an empty FLOAT array).
   */
  private static void declarations(Tag tag, List<Problem> out) {
    for (Variable v : tag.variables()) {
      ArrayData a = v.array();
      if (a == null || a.empty() || !v.kind().holdsArray()) {
        continue;
      }
      boolean dtype = v.dtype() != null && v.dtype() != a.dtype();
      boolean shape = v.shape() != null && !Arrays.equals(v.shape(), a.shape());
      if (dtype || shape) {
        out.add(new Problem(at(v), "the graph declares " + (v.dtype() != null ? v.dtype() : a.dtype())
            + Arrays.toString(v.shape() != null ? v.shape() : a.shape()) + " but the array is " + a.dtype()
            + Arrays.toString(a.shape()) + ": DL4J computes with the array, graph.json would show the declaration"
            + " (docs/GRAPH.md §5.3); write a graph that declares the array's type and shape, or an array of the declared ones"));
      }
    }
  }

  /**
   * Rule 8 (docs/FORMATS.md §3.9): training.json as DL4J reads it, and updater state only through
   * the updater it is for.
   */
  private static void updater(Tag tag, boolean loadedByDl4j, List<Problem> out) {
    TrainingJson.Check training = tag.trainingConfig() == null ? null : TrainingJson.check(tag.trainingConfig());
    if (training != null && !training.problems().isEmpty()) {
      training.problems().forEach(pr -> out.add(new Problem(Where.training(), pr)));
      return;
    }
    if (tag.updater().isEmpty() || !loadedByDl4j) {
      return;
    }
    if (training == null) {
      out.add(new Problem(Where.state(null), "updater state needs a training configuration (training.json):"
          + " DL4J reads updater state only with the training configuration that says which updater it is for"));
    } else if (!training.hasUpdater()) {
      out.add(new Problem(Where.training(), "names no updater, but the tag holds updater state (DL4J needs the updater to load it)"));
    } else if (training.updaterStateKeys() != null) {
      for (UpdaterState u : tag.updater()) {
        if (!training.updaterStateKeys().equals(u.arrays().keySet())) {
          out.add(new Problem(Where.state(u.paramName()), "holds " + new TreeSet<>(u.arrays().keySet())
              + ", but the updater of training.json keeps " + new TreeSet<>(training.updaterStateKeys())
              + " (DL4J refuses to load any other state)"));
        }
      }
    }
  }

  /** Where a variable is shown: {@code params/NAME} for one that holds an array, else {@code graph}. */
  private static Where at(Variable v) {
    return v.kind().holdsArray() ? Where.param(v.name()) : Where.graph();
  }
}
