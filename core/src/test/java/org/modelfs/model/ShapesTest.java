package org.modelfs.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Shapes#byteLength} is exact or refuses, and {@link Shapes#sizeProblem} / {@link
 * Shapes#needs} say why in words (never "needs -1"): random shapes against BigInteger.
 */
class ShapesTest {
  @Test
  void byteLengthIsExactOrRefusedAgainstBigInteger() {
    Random r = new Random(1);
    for (int i = 0; i < 20_000; i++) {
      long[] shape = new long[r.nextInt(5)];
      for (int k = 0; k < shape.length; k++) {
        shape[k] = switch (r.nextInt(4)) {
          case 0 -> r.nextInt(3);
          case 1 -> 1L << r.nextInt(63);
          case 2 -> (r.nextLong() >>> 1) >>> r.nextInt(63);
          default -> r.nextInt(100_000);
        };
      }
      int width = 1 << r.nextInt(4);
      BigInteger exact = BigInteger.valueOf(width);
      for (long d : shape) {
        exact = exact.multiply(BigInteger.valueOf(d));
      }
      boolean fits = exact.bitLength() < 64;
      assertEquals(fits ? exact.longValue() : -1, Shapes.byteLength(shape, width), Arrays.toString(shape));
      if (fits) {
        assertNull(Shapes.sizeProblem(shape, width));
      } else {
        assertEquals("shape " + Arrays.toString(shape) + " × " + width + " bytes is 2^63 bytes or more",
            Shapes.sizeProblem(shape, width));
      }
    }
  }

  @Test
  void messagesSayWhatTheShapeNeeds() {
    assertEquals("FLOAT[2, 3] needs 24", Shapes.needs(DType.FLOAT, new long[] {2, 3}, 4));
    assertEquals("FLOAT shape [4611686018427387904, 2] × 4 bytes is 2^63 bytes or more",
        Shapes.needs(DType.FLOAT, new long[] {1L << 62, 2}, 4));
    assertEquals("INT shape [2, -1] has a negative dimension (-1)", Shapes.needs("INT", new long[] {2, -1}, 4));
  }
}
