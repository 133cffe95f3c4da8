package org.modelfs.model;

/** Arithmetic on array shapes, with overflow checks. */
public final class Shapes {
  /** ND4J's maximum rank; every reader refuses a longer shape. */
  public static final int MAX_RANK = 32;

  private Shapes() {}

  /** The product of the dimensions; 1 for {@code []}; -1 on overflow or a negative dimension. */
  public static long elementCount(long[] shape) {
    long n = 1;
    for (long d : shape) {
      if (d < 0) {
        return -1;
      }
      try {
        n = Math.multiplyExact(n, d);
      } catch (ArithmeticException e) {
        return -1;
      }
    }
    return n;
  }

  /** {@code elementCount × width}, or -1 on overflow or a negative dimension. */
  public static long byteLength(long[] shape, int width) {
    long n = elementCount(shape);
    if (n < 0) {
      return -1;
    }
    try {
      return Math.multiplyExact(n, width);
    } catch (ArithmeticException e) {
      return -1;
    }
  }

  /** Element strides of a dense array in the given order. */
  public static long[] strides(long[] shape, char order) {
    long[] s = new long[shape.length];
    long acc = 1;
    if (order == 'c') {
      for (int i = shape.length - 1; i >= 0; i--) {
        s[i] = acc;
        acc *= Math.max(shape[i], 1);
      }
    } else {
      for (int i = 0; i < shape.length; i++) {
        s[i] = acc;
        acc *= Math.max(shape[i], 1);
      }
    }
    return s;
  }
}
