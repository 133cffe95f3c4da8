package org.modelfs.interop;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The bytes {@link OracleRun} writes: seeded element bytes of a dtype (little-endian, values a
 * model could hold), and {@code .npy} and {@code .safetensors} files made by hand as their specs
 * lay them out (NumPy's format 1.0 header; safetensors' 8-byte header length and JSON header).
 */
final class OracleFiles {
  private OracleFiles() {}

  private static final Map<String, String> NPY = Map.of("FLOAT", "<f4", "DOUBLE", "<f8", "HALF", "<f2",
      "INT", "<i4", "LONG", "<i8", "SHORT", "<i2", "BYTE", "|i1", "UBYTE", "|u1", "BOOL", "|b1");
  private static final Map<String, String> ST = Map.of("FLOAT", "F32", "DOUBLE", "F64", "HALF", "F16",
      "BFLOAT16", "BF16", "INT", "I32", "LONG", "I64", "SHORT", "I16", "BYTE", "I8", "UBYTE", "U8", "BOOL", "BOOL");

  static int width(String dtype) {
    return switch (dtype) {
      case "DOUBLE", "LONG", "UINT64" -> 8;
      case "FLOAT", "INT", "UINT32" -> 4;
      case "HALF", "BFLOAT16", "SHORT", "UINT16" -> 2;
      default -> 1;
    };
  }

  static long count(long[] shape) {
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    return n;
  }

  /** {@code n} elements of {@code dtype}, little-endian, values in [-1, 1) (integers in [-3, 3], BOOL 0/1). */
  static byte[] elements(String dtype, long n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int w = width(dtype);
    ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(n * w)).order(ByteOrder.LITTLE_ENDIAN);
    for (long i = 0; i < n; i++) {
      double d = r.nextDouble() * 2 - 1;
      switch (dtype) {
        case "FLOAT" -> b.putFloat((float) d);
        case "DOUBLE" -> b.putDouble(d);
        case "HALF" -> b.putShort(half((float) d));
        case "BFLOAT16" -> b.putShort((short) (Float.floatToIntBits((float) d) >>> 16));
        case "LONG", "UINT64" -> b.putLong(r.nextInt(7) - 3);
        case "INT", "UINT32" -> b.putInt(r.nextInt(7) - 3);
        case "SHORT", "UINT16" -> b.putShort((short) (r.nextInt(7) - 3));
        case "BOOL", "UBYTE" -> b.put((byte) r.nextInt(2));
        default -> b.put((byte) (r.nextInt(7) - 3));
      }
    }
    return b.array();
  }

  /** IEEE half of a value in [-1, 1) (truncated mantissa). */
  private static short half(float f) {
    int bits = Float.floatToIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int exp = ((bits >>> 23) & 0xff) - 127 + 15;
    if (exp <= 0) {
      return (short) sign;
    }
    return (short) (sign | (exp << 10) | ((bits >>> 13) & 0x3ff));
  }

  /** A NumPy format 1.0 file of one C-order array. */
  static byte[] npy(String dtype, long[] shape, long seed) {
    StringBuilder dims = new StringBuilder();
    for (long d : shape) {
      dims.append(d).append(", ");
    }
    String shapeText = shape.length == 1 ? "(" + shape[0] + ",)"
        : "(" + (shape.length == 0 ? "" : dims.substring(0, dims.length() - 2)) + ")";
    String header = "{'descr': '" + NPY.getOrDefault(dtype, "<f4") + "', 'fortran_order': False, 'shape': " + shapeText + ", }";
    int total = 10 + header.length() + 1;
    int pad = (64 - total % 64) % 64;
    header = header + " ".repeat(pad) + "\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x93);
    out.writeBytes("NUMPY".getBytes(StandardCharsets.US_ASCII));
    out.write(1);
    out.write(0);
    out.write(header.length() & 0xff);
    out.write(header.length() >>> 8);
    out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(elements(dtype, count(shape), seed));
    return out.toByteArray();
  }

  /** A safetensors file of one tensor {@code name}. */
  static byte[] safetensors(String name, String dtype, long[] shape, long seed) {
    byte[] data = elements(dtype, count(shape), seed);
    StringBuilder dims = new StringBuilder();
    for (int i = 0; i < shape.length; i++) {
      dims.append(i == 0 ? "" : ",").append(shape[i]);
    }
    String header = "{\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\":{\"dtype\":\""
        + ST.getOrDefault(dtype, "F32") + "\",\"shape\":[" + dims + "],\"data_offsets\":[0," + data.length + "]}}";
    byte[] h = header.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(8 + h.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(h.length).put(h).put(data);
    return b.array();
  }

  /** {@code "4,8"} → {@code [4, 8]}; {@code ""} → a scalar. */
  static long[] shape(String s) {
    if (s.isEmpty() || s.equals("-")) {
      return new long[0];
    }
    String[] t = s.split(",");
    long[] out = new long[t.length];
    for (int i = 0; i < t.length; i++) {
      out[i] = Long.parseLong(t[i].trim());
    }
    return out;
  }
}
