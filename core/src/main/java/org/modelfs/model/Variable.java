package org.modelfs.model;

import java.util.Objects;

/**
 * One variable of a tag's graph as the index knows it.
 *
 * @param name the SameDiff variable name (any string)
 * @param kind VARIABLE, CONSTANT, ARRAY, PLACEHOLDER
 * @param dtype declared type (may differ from the array's only in broken files)
 * @param shape declared shape, or {@code null} when the file does not record one
 * @param array the stored array, or {@code null} when the variable holds none
 * @param graphVariable the position of this variable's {@code FlatVariable} in the tag's graph
 *     buffer (for ids and control dependencies when rewriting), or -1 if it has none
 */
public record Variable(
    String name, VarKind kind, DType dtype, long[] shape, ArrayData array, long graphVariable) {

  public Variable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    shape = shape == null ? null : Shapes.shared(shape);
  }

  @Override
  public long[] shape() {
    return shape == null ? null : shape.clone();
  }

  /** The shape to show: the declared one, else the array's, else {@code null}. */
  public long[] effectiveShape() {
    if (shape != null) {
      return shape.clone();
    }
    return array == null ? null : array.shape();
  }

  /** This variable holding another array. */
  public Variable withArray(ArrayData newArray) {
    return new Variable(name, kind, dtype, shape, newArray, graphVariable);
  }
}
