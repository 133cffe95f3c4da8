package org.modelfs.testing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The values {@link SyntheticModels#floats} generates — element {@code j} of array {@code i} is
 * {@code i + j * 1e-3f} — as little-endian bytes of any byte range, to check reads against.
 */
public final class FloatPattern {
  private FloatPattern() {}

  public static float value(int array, long element) {
    return array + element * 1e-3f;
  }

  /** Bytes {@code [offset, offset + length)} of array {@code array}, little-endian. */
  public static byte[] bytes(int array, long offset, int length) {
    long first = offset / 4;
    long last = (offset + length + 3) / 4;
    ByteBuffer b = ByteBuffer.allocate((int) (last - first) * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (long e = first; e < last; e++) {
      b.putFloat(value(array, e));
    }
    byte[] out = new byte[length];
    System.arraycopy(b.array(), (int) (offset - first * 4), out, 0, length);
    return out;
  }
}
