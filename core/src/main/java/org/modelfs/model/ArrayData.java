package org.modelfs.model;

import java.util.Arrays;
import java.util.Objects;
import org.modelfs.io.ByteSource;

/**
 * One stored array: its type, shape and element order, and where its bytes live — a range of a
 * {@link ByteSource} (container file, zip entry, extracted cache, journal), little- or
 * big-endian. Nothing here reads the bytes; see {@link org.modelfs.model.ArrayStreams}.
 *
 * @param dtype element type
 * @param shape dimensions ({@code []} for a scalar or an empty scalar)
 * @param order {@code 'c'} or {@code 'f'}: the order the elements are stored in
 * @param empty true for an ND4J "empty" array (no elements, no bytes), even with shape {@code []}
 * @param source where the bytes are
 * @param offset absolute offset of the first byte in {@code source}
 * @param length stored byte length
 * @param bigEndian true when elements are stored big-endian (legacy format A) and need a swap
 * @param storage how the bytes are held, shown to users as the {@code stored} attribute
 */
public record ArrayData(
    DType dtype,
    long[] shape,
    char order,
    boolean empty,
    ByteSource source,
    long offset,
    long length,
    boolean bigEndian,
    Storage storage) {

  /** How an array's bytes are held in its container. */
  public enum Storage {
    RAW("raw"),
    DEFLATED("deflated"),
    BIG_ENDIAN("big-endian"),
    JOURNAL("journal");

    private final String label;

    Storage(String label) {
      this.label = label;
    }

    /** The value of the {@code stored} attribute. */
    public String label() {
      return label;
    }
  }

  public ArrayData {
    Objects.requireNonNull(dtype, "dtype");
    shape = Shapes.shared(shape);
    if (order != 'c' && order != 'f') {
      throw new IllegalArgumentException("order must be 'c' or 'f': " + order);
    }
  }

  /** Number of elements ({@code 0} when empty, {@code 1} for a scalar). */
  public long elementCount() {
    return empty ? 0 : Shapes.elementCount(shape);
  }

  @Override
  public long[] shape() {
    return shape.clone();
  }

  /** This array with its bytes somewhere else (same type, shape, order). */
  public ArrayData movedTo(ByteSource newSource, long newOffset, boolean newBigEndian, Storage newStorage) {
    return new ArrayData(dtype, shape, order, empty, newSource, newOffset, length, newBigEndian, newStorage);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrayData a
        && dtype == a.dtype
        && Arrays.equals(shape, a.shape)
        && order == a.order
        && empty == a.empty
        && source == a.source
        && offset == a.offset
        && length == a.length
        && bigEndian == a.bigEndian
        && storage == a.storage;
  }

  @Override
  public int hashCode() {
    return Objects.hash(dtype, Arrays.hashCode(shape), order, empty, offset, length);
  }

  @Override
  public String toString() {
    return dtype + Arrays.toString(shape) + order + (empty ? " empty" : "") + " @" + source.name()
        + "+" + offset + " (" + length + " bytes, " + storage.label() + ")";
  }
}
