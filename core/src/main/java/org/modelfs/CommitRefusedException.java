package org.modelfs;

import java.nio.file.FileSystemException;
import java.util.List;

/**
 * A commit that was refused before anything was written: the model is as it was. Each problem
 * names the path in the model and what is wrong with it. From {@link JournaledFileSystem#commit()}
 * the changes stay pending (fix them and commit again, or roll back); from {@code close()} this is
 * the cause of the exception thrown after the changes were discarded.
 */
public final class CommitRefusedException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  /**
   * @param model the model file
   * @param problems what is wrong, one entry per path
   * @param pending whether the changes are still pending (a {@code commit()}) or were discarded
   */
  public CommitRefusedException(String model, List<String> problems, boolean pending) {
    super(model, null, "commit refused, nothing was written" + (pending ? " and the changes are still pending" : "")
        + ": " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** What is wrong, one entry per path of the model. */
  public List<String> problems() {
    return problems;
  }
}
