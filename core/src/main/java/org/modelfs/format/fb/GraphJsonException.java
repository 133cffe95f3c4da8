package org.modelfs.format.fb;

import java.nio.file.FileSystemException;
import java.util.List;

/**
 * A written {@code graph.json} that cannot become the tag's graph (docs/GRAPH.md §3): malformed
 * JSON (with its line and column), or one or more problems, each naming where it is (the op and
 * its argument, the variable, the list) and what was expected. Nothing was changed.
 */
public final class GraphJsonException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  /**
   * @param file the path of the graph.json written
   * @param problems what is wrong, one entry per problem (at least one)
   */
  public GraphJsonException(String file, List<String> problems) {
    super(file, null, reason(problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem, in document order. */
  public List<String> problems() {
    return problems;
  }

  private static String reason(List<String> problems) {
    if (problems.size() == 1) {
      return "graph.json refused, nothing changed: " + problems.get(0);
    }
    StringBuilder sb = new StringBuilder("graph.json refused, nothing changed: " + problems.size() + " problems");
    for (int i = 0; i < problems.size(); i++) {
      sb.append("; (").append(i + 1).append(") ").append(problems.get(i));
    }
    return sb.toString();
  }
}
