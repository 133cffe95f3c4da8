package org.modelfs.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The classes of disagreement with DL4J that ModelFS knowingly does not check yet, declared once:
 * each with an id, a pattern over the failure text, a pattern over the script (its text: fixture,
 * format and commit lines — the route that reaches it), the reason, and the doc section that says
 * so (docs/GRAPH.md §6). {@link Dl4jOracleInteropTest} prints a failure matching an open class as
 * "known open: …" and counts it; it does not fail the run. A failure matching no open class fails
 * as before; a regression script marked {@code open<TAB>ID<TAB>reason} must still fail with its
 * class (once it passes, the mark must go).
 *
 * <p>The patterns are narrow on purpose: both must match, so a new route to the same DL4J error
 * (an import instead of a graph.json edit, say) is not hidden.
 */
final class OracleOpenClasses {
  private OracleOpenClasses() {}

  /** One open class: a failure is of it when {@code failure} finds in its text and {@code script} in the script's. */
  record Open(String id, Pattern failure, Pattern script, String reason, String doc) {
    boolean matches(String failureText, OracleScript s) {
      return failure.matcher(failureText).find() && script.matcher(s.text()).find();
    }
  }

  private static final String DOC = "docs/GRAPH.md §6";

  /** A graph.json line with an edit {@code op} among its edits (OracleJsonEdits). */
  private static Pattern jsonEdit(String op) {
    return Pattern.compile("(?m)^json\\t(?:[^\\n]*\\t;\\t)?" + op + "\\t");
  }

  static final List<Open> ALL = List.of(
      new Open("shape-inference",
          Pattern.compile("DL4J does not compute every op output: .*(Op \\S+ with name \\S+ failed to execute"
              + "|Op with name \\S+ and op type \\[\\w+\\] execution failed with message (Op validation failed)?$)"),
          jsonEdit("input"),
          "an op input rewired in graph.json to a variable of another shape: DL4J's op validation fails; "
              + "ModelFS does no shape inference", DOC),
      new Open("type-inference",
          Pattern.compile("DL4J does not compute every op output: .*expects all data types to be the same"),
          jsonEdit("dtype"),
          "a placeholder's dtype changed in graph.json: DL4J's op refuses mixed types; "
              + "ModelFS does no type inference", DOC),
      new Open("enum-range",
          Pattern.compile("DL4J cannot load: .*ArrayIndexOutOfBoundsException"),
          jsonEdit("arg"),
          "a named argument outside the enum DL4J reads it as (lossReduce iArg -1): DL4J cannot load; "
              + "ModelFS checks an argument's type, not each op's enum range", DOC),
      new Open("tf-frames",
          Pattern.compile("DL4J does not compute every op output: .*(FrameIter|NoSuchElementException"
              + "|LoopCond input must be|missing \\[.*while/)"),
          Pattern.compile("(?m)^json\\tinput\\twhile/"),
          "TF control-flow ops (Enter, Exit, NextIteration, LoopCond, Switch) rewired in graph.json: "
              + "DL4J's executor cannot place them in frames; ModelFS does not model frames", DOC),
      new Open("array-values",
          Pattern.compile("DL4J does not compute every op output: .*Axis array \\[[^\\]]*\\] contains values above array rank"),
          Pattern.compile("(?m)^cli\\timport\\t@(?:npy|st:[^:\\t]*):(?:INT|LONG|SHORT|BYTE|UBYTE):"),
          "integer values a user imports into an array an op reads as its axes (out of range): "
              + "a commit never reads array bytes (lazy), so it does not check values", DOC),
      new Open("executor-hang",
          Pattern.compile("DL4J output does not return: "),
          Pattern.compile("while"),
          "an edited TF while loop on which DL4J's executor never returns (bounded by -Doracle.outputSeconds)",
          DOC));

  static Optional<Open> byId(String id) {
    return ALL.stream().filter(o -> o.id().equals(id)).findFirst();
  }

  /** The open class a failure is of, if any. */
  static Optional<Open> of(String failure, OracleScript s) {
    return ALL.stream().filter(o -> o.matches(failure, s)).findFirst();
  }

  /** Failures split: those of no open class ({@code unexpected}) and those of one ({@code known}, prefixed by its id). */
  record Split(List<String> unexpected, List<String> known) {}

  static Split split(List<String> failures, OracleScript s) {
    List<String> unexpected = new ArrayList<>();
    List<String> known = new ArrayList<>();
    for (String f : failures) {
      Optional<Open> o = of(f, s);
      if (o.isPresent()) {
        known.add(o.get().id() + ": " + f);
      } else {
        unexpected.add(f);
      }
    }
    return new Split(unexpected, known);
  }
}
