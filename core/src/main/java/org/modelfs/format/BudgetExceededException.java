package org.modelfs.format;

/**
 * A valid-looking file refused because reading, copying or rendering it would take more memory
 * than its size allows (docs/FORMATS.md §12, "Budgets") — typically FlatBuffer tables shared
 * many times over. Unlike other {@link ModelFormatException}s it says nothing about whether the
 * file is a model: it is one, too expensive to unfold.
 */
public class BudgetExceededException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public BudgetExceededException(String file, String structure, long offset, String problem) {
    super(file, structure, offset, problem);
  }
}
