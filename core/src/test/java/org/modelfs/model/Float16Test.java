package org.modelfs.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The HALF and BFLOAT16 codec: known bit patterns both ways, rounding ties to even, round trips. */
class Float16Test {
  private static final double TWO_M24 = Math.scalb(1.0, -24);

  @ParameterizedTest(name = "half {0} = {1}")
  @CsvSource({
    "0x0000, 0.0",
    "0x8000, -0.0",
    "0x3C00, 1.0",
    "0xBC00, -1.0",
    "0x3800, 0.5",
    "0x4000, 2.0",
    "0xC000, -2.0",
    "0x3555, 0.333251953125",
    "0x2E66, 0.0999755859375",
    "0x7BFF, 65504.0",
    "0xFBFF, -65504.0",
    "0x0400, 6.103515625E-5",         // 2^-14, the smallest normal
    "0x03FF, 6.097555160522461E-5",   // 2^-14 - 2^-24, the largest subnormal
    "0x0001, 5.960464477539063E-8",   // 2^-24, the smallest subnormal
    "0x8001, -5.960464477539063E-8",
    "0x7C00, Infinity",
    "0xFC00, -Infinity",
  })
  void halfBitPatterns(String hex, double value) {
    short h = (short) Integer.parseInt(hex.substring(2), 16);
    assertEquals(value, Float16.halfToFloat(h), 0.0);
    assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(Float16.halfToFloat(h)), "sign of zero");
    assertEquals(h, Float16.toHalf(value));
    assertEquals(h, Float16.toHalf((float) value));
  }

  @ParameterizedTest(name = "toHalf({0}) = {1}")
  @CsvSource({
    "65519.99, 0x7BFF",               // below the midpoint of 65504 and 65536
    "65520.0, 0x7C00",                // the midpoint: ties to even, which is infinity
    "1e6, 0x7C00",
    "-1e6, 0xFC00",
    "1.7976931348623157E308, 0x7C00",
    "4.9E-324, 0x0000",               // the smallest double
    "0.1, 0x2E66",
    "1.00048828125, 0x3C00",          // 1 + 2^-11: a tie, to even (down)
    "1.00146484375, 0x3C02",          // 1 + 3*2^-11: a tie, to even (up)
    "1.0004882812500002, 0x3C01",     // just above the tie: up (a float in between would round down)
    "2049.0, 0x6800",                 // a tie between 2048 and 2050, to even
    "2051.0, 0x6802",
  })
  void halfRounding(double value, String hex) {
    assertEquals((short) Integer.parseInt(hex.substring(2), 16), Float16.toHalf(value));
  }

  @Test
  void halfSubnormalRounding() {
    assertEquals((short) 0x0000, Float16.toHalf(TWO_M24 / 2), "half the smallest subnormal: a tie, to 0");
    assertEquals((short) 0x8000, Float16.toHalf(-TWO_M24 / 2), "negative: -0");
    assertEquals((short) 0x0001, Float16.toHalf(TWO_M24 / 2 * 1.000001));
    assertEquals((short) 0x0002, Float16.toHalf(TWO_M24 * 1.5), "a tie between 1 and 2 units, to even");
    assertEquals((short) 0x0400, Float16.toHalf(Math.scalb(1.0, -14) - TWO_M24 / 2), "carry into the first normal");
    assertEquals((short) 0x03FF, Float16.toHalf(Math.scalb(1.0, -14) - TWO_M24 * 0.75));
  }

  @Test
  void nanStaysNaN() {
    assertTrue(Float.isNaN(Float16.halfToFloat((short) 0x7E00)));
    assertTrue(Float.isNaN(Float16.halfToFloat((short) 0x7C01)));
    assertTrue(Float.isNaN(Float16.bfloat16ToFloat((short) 0x7FC0)));
    for (double nan : new double[] {Double.NaN, Float.intBitsToFloat(0x7F800001), -Double.NaN}) {
      short h = Float16.toHalf(nan);
      assertEquals(0x7C00, h & 0x7C00, "exponent all ones");
      assertTrue((h & 0x3FF) != 0 && (h & 0x200) != 0, "quiet NaN: " + Integer.toHexString(h));
      short b = Float16.toBfloat16(nan);
      assertEquals(0x7F80, b & 0x7F80);
      assertTrue((b & 0x40) != 0, "quiet NaN: " + Integer.toHexString(b));
    }
  }

  @ParameterizedTest(name = "bfloat16 {0} = {1}")
  @CsvSource({
    "0x0000, 0.0",
    "0x8000, -0.0",
    "0x3F80, 1.0",
    "0xBF80, -1.0",
    "0x4000, 2.0",
    "0x3DCD, 0.10009765625",
    "0x7F7F, 3.3895313892515355E38",  // the largest finite
    "0x0080, 1.1754943508222875E-38", // 2^-126, the smallest normal
    "0x0001, 9.183549615799121E-41",  // 2^-133, the smallest subnormal
    "0x7F80, Infinity",
    "0xFF80, -Infinity",
  })
  void bfloat16BitPatterns(String hex, double value) {
    short b = (short) Integer.parseInt(hex.substring(2), 16);
    assertEquals(value, Float16.bfloat16ToFloat(b), 0.0);
    assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(Float16.bfloat16ToFloat(b)));
    assertEquals(b, Float16.toBfloat16(value));
  }

  @ParameterizedTest(name = "toBfloat16({0}) = {1}")
  @CsvSource({
    "0.1, 0x3DCD",
    "1.00390625, 0x3F80",             // 1 + 2^-8: a tie, to even (down)
    "1.01171875, 0x3F82",             // 1 + 3*2^-8: a tie, to even (up)
    "3.4028234663852886E38, 0x7F80",  // Float.MAX_VALUE rounds to infinity
    "3.3961e38, 0x7F7F",
    "3.3962e38, 0x7F80",
    "1e300, 0x7F80",
  })
  void bfloat16Rounding(double value, String hex) {
    assertEquals((short) Integer.parseInt(hex.substring(2), 16), Float16.toBfloat16(value));
  }

  @Test
  void everyPatternRoundTrips() {
    for (int i = 0; i < 0x10000; i++) {
      short s = (short) i;
      float h = Float16.halfToFloat(s);
      if (!Float.isNaN(h)) {
        assertEquals(s, Float16.toHalf(h), () -> Integer.toHexString(s));
      }
      float b = Float16.bfloat16ToFloat(s);
      if (!Float.isNaN(b)) {
        assertEquals(s, Float16.toBfloat16(b), () -> Integer.toHexString(s));
      }
    }
  }

  @Test
  void bfloat16AgreesWithTheFloatBitTrick() {
    Random r = new Random(7);
    for (int n = 0; n < 1_000_000; n++) {
      int bits = r.nextInt();
      float f = Float.intBitsToFloat(bits);
      if (Float.isNaN(f)) {
        continue;
      }
      short expected = (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16); // round to nearest even
      assertEquals(expected, Float16.toBfloat16(f), () -> Integer.toHexString(bits));
    }
  }

  @Test
  void halfIsTheNearest() {
    Random r = new Random(11);
    for (int n = 0; n < 200_000; n++) {
      double v = (r.nextDouble() * 2 - 1) * Math.scalb(1.0, r.nextInt(34) - 26);
      short h = Float16.toHalf(v);
      double got = Float16.halfToFloat(h);
      double err = Math.abs(got - v);
      for (int d : new int[] {-1, 1}) {
        int neighbour = (h & 0x7FFF) + d;
        if (neighbour < 0 || neighbour > 0x7BFF) {
          continue;
        }
        double other = Float16.halfToFloat((short) (neighbour | (h & 0x8000)));
        assertTrue(err <= Math.abs(other - v), () -> v + " → " + got + ", but " + other + " is nearer");
      }
    }
  }
}
