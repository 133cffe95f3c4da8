package org.modelfs.model;

/** The SameDiff variable types, by their FlatBuffers {@code VarType} byte. */
public enum VarKind {
  VARIABLE,
  CONSTANT,
  ARRAY,
  PLACEHOLDER,
  SEQUENCE;

  /** The {@code VarType} byte. */
  public int code() {
    return ordinal();
  }

  /** Every kind by code (one array: {@code values()} copies its array at each call). */
  private static final VarKind[] KINDS = values();

  /** The kind for a {@code VarType} byte, or {@code null} if unknown. */
  public static VarKind fromCode(int code) {
    return code >= 0 && code < KINDS.length ? KINDS[code] : null;
  }

  /** Whether variables of this kind hold an array that a model file must store. */
  public boolean holdsArray() {
    return this == VARIABLE || this == CONSTANT;
  }
}
