package org.modelfs.cli;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import org.modelfs.model.DType;
import org.modelfs.model.Float16;

/**
 * Element access for the streaming commands ({@code avg}, {@code diff}): the elements of a
 * little-endian chunk as raw bits or as doubles, and reading a chunk of an array file in full.
 */
final class Elements {
  /** Elements per chunk: 1 MiB of FLOAT, whatever the type, so buffers stay small. */
  static final int CHUNK = 1 << 18;

  private Elements() {}

  /** A little-endian buffer for one chunk of {@code t} elements. */
  static ByteBuffer chunkBuffer(DType t) {
    return ByteBuffer.allocate(CHUNK * Math.max(t.width(), 1)).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The raw bits of element {@code i} of a buffer of {@code width}-byte elements. */
  static long bits(ByteBuffer b, int width, int i) {
    return switch (width) {
      case 1 -> b.get(i) & 0xFFL;
      case 2 -> b.getShort(2 * i) & 0xFFFFL;
      case 4 -> b.getInt(4 * i) & 0xFFFFFFFFL;
      default -> b.getLong(8 * i);
    };
  }

  /** Element {@code i} of a buffer of floating-point {@code t} elements, as a double (exact). */
  static double get(ByteBuffer b, DType t, int i) {
    return switch (t) {
      case DOUBLE -> b.getDouble(8 * i);
      case FLOAT -> b.getFloat(4 * i);
      case HALF -> Float16.halfToFloat(b.getShort(2 * i));
      case BFLOAT16 -> Float16.bfloat16ToFloat(b.getShort(2 * i));
      default -> throw new IllegalArgumentException(t + " is not a floating-point type");
    };
  }

  /** Stores {@code v} rounded (to nearest, ties to even) as floating-point {@code t} element {@code i}. */
  static void put(ByteBuffer b, DType t, int i, double v) {
    switch (t) {
      case DOUBLE -> b.putDouble(8 * i, v);
      case FLOAT -> b.putFloat(4 * i, (float) v);
      case HALF -> b.putShort(2 * i, Float16.toHalf(v));
      case BFLOAT16 -> b.putShort(2 * i, Float16.toBfloat16(v));
      default -> throw new IllegalArgumentException(t + " is not a floating-point type");
    }
  }

  /**
   * Reads the next {@code bytes} bytes of {@code ch} into {@code buf} (cleared first, flipped
   * after); a file that ends early is an {@link EOFException} naming {@code path}.
   */
  static void readFully(SeekableByteChannel ch, ByteBuffer buf, int bytes, Path path) throws IOException {
    buf.clear().limit(bytes);
    while (buf.hasRemaining()) {
      if (ch.read(buf) < 0) {
        throw new EOFException(path + ": ended after " + (ch.position()) + " bytes, the array needs more");
      }
    }
    buf.flip();
  }
}
