package org.modelfs.model;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/** Arithmetic on array shapes, with overflow checks. */
public final class Shapes {
  /** ND4J's maximum rank; every reader refuses a longer shape. */
  public static final int MAX_RANK = 32;

  private Shapes() {}

  /**
   * The product of the dimensions; 1 for {@code []}; 0 when a dimension is 0 (whatever the others
   * multiply to); -1 on overflow or a negative dimension.
   */
  public static long elementCount(long[] shape) {
    long n = 1;
    boolean zero = false;
    for (long d : shape) {
      if (d < 0) {
        return -1;
      }
      zero |= d == 0;
    }
    if (zero) {
      return 0;
    }
    for (long d : shape) {
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

  /**
   * Why {@code shape} of {@code width}-byte elements has no byte length, in the user's words, or
   * {@code null} when it has one: every reader, writer and exchange format says it this way
   * (never "needs -1 bytes").
   */
  public static String sizeProblem(long[] shape, int width) {
    for (long d : shape) {
      if (d < 0) {
        return "shape " + Arrays.toString(shape) + " has a negative dimension (" + d + ")";
      }
    }
    return byteLength(shape, width) < 0
        ? "shape " + Arrays.toString(shape) + " × " + width + " bytes is 2^63 bytes or more" : null;
  }

  /**
   * {@code "FLOAT[2, 3] needs 24"} (bytes) for messages that compare an array's bytes with its
   * shape; where the shape has no byte length, {@code "FLOAT "} and {@link #sizeProblem}.
   */
  public static String needs(Object dtype, long[] shape, int width) {
    String p = sizeProblem(shape, width);
    return p != null ? dtype + " " + p : dtype + Arrays.toString(shape) + " needs " + byteLength(shape, width);
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

  /** At most this many distinct shapes are shared; others are copied. */
  private static final int MAX_SHARED = 4096;
  private static final ConcurrentHashMap<Key, long[]> SHARED = new ConcurrentHashMap<>();

  /**
   * A copy of {@code shape} that may be shared: a model's arrays have few distinct shapes, so the
   * index holds each once (docs/PERFORMANCE.md, "bytes per array"). The caller must never change
   * the result — {@link ArrayData} and {@link Variable} hand out copies.
   */
  static long[] shared(long[] shape) {
    long[] s = SHARED.get(new Key(shape));
    if (s != null) {
      return s;
    }
    long[] copy = shape.clone();
    if (SHARED.size() < MAX_SHARED) {
      long[] was = SHARED.putIfAbsent(new Key(copy), copy);
      return was != null ? was : copy;
    }
    return copy;
  }

  private record Key(long[] shape) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(k.shape, shape);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(shape);
    }
  }
}
