package org.modelfs.verify;

import java.util.List;

/**
 * What {@link Verifier#run} found.
 *
 * @param model the model as it was named
 * @param problems every problem, in the order found (container, then each tag oldest first:
 *     parameters, updater state, graph); empty for a sound model
 * @param arrays the number of distinct arrays read (an array several tags share counts once)
 * @param bytes the bytes of those arrays read (zip entries checked for their CRC not counted)
 */
public record Report(String model, List<Problem> problems, long arrays, long bytes) {
  public Report {
    problems = List.copyOf(problems);
  }

  /** True when nothing is wrong. */
  public boolean ok() {
    return problems.isEmpty();
  }
}
