package org.modelfs.format.fb;

import org.modelfs.format.ModelFormatException;

/**
 * How much may be copied, rendered or materialised out of one FlatGraph: a number of bytes
 * proportional to the FlatGraph's own size (docs/FORMATS.md §12, "Budgets"). FlatBuffers lets
 * tables and vectors be shared — a vector of 20,000 offsets to one table of 20,000 values is a
 * valid 240 KB file — so a walk that unfolds sharing could spend far more than the file holds.
 * Each step {@link #charge}s what it is about to allocate before allocating it; past the budget
 * the file is refused with a {@link ModelFormatException} naming the structure and its offset.
 * One budget serves one walk (one copy, one rendering, one read); not thread-safe.
 */
final class Budget {
  /** Bytes a builder may receive per byte of the source FlatGraph when its tables are copied. */
  static final long COPY_FACTOR = 4;
  /** Bytes charged per element (variable, op, pair, key) that a reader materialises or visits. */
  static final long ELEMENT = 16;
  /** Bytes of elements and strings a reader may materialise per byte of the FlatGraph. */
  static final long READ_FACTOR = 4;
  /** Added to every budget, so that tiny graphs are never refused. */
  static final long ALLOWANCE = 1 << 20;

  private final FbBuffer source;
  private final String purpose;
  private final long limit;
  private long spent;

  private Budget(FbBuffer source, String purpose, long factor) {
    this.source = source;
    this.purpose = purpose;
    this.limit = ALLOWANCE + factor * source.size();
  }

  /** The budget of a copy of {@code source}'s tables into a FlatBufferBuilder. */
  static Budget copy(FbBuffer source) {
    return new Budget(source, "copying it", COPY_FACTOR);
  }

  /** The budget of a walk that materialises or visits {@code source}'s elements. */
  static Budget read(FbBuffer source) {
    return new Budget(source, "reading it", READ_FACTOR);
  }

  /** The most bytes this budget allows. */
  long limit() {
    return limit;
  }

  /** Charges one element of the structure at {@code pos} (a buffer position). */
  void element(long pos, String what) throws ModelFormatException {
    charge(ELEMENT, pos, what);
  }

  /**
   * Charges {@code bytes} about to be spent on the structure {@code what} at buffer position
   * {@code pos}; refuses the file when the budget would be exceeded.
   */
  void charge(long bytes, long pos, String what) throws ModelFormatException {
    if (bytes > limit - spent) {
      throw source.overBudget(pos, what, purpose + " would take more than the " + limit + " bytes allowed for a "
          + source.size() + "-byte FlatGraph (tables or vectors shared many times over?)");
    }
    spent += bytes;
  }
}
