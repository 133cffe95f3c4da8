package org.modelfs.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.modelfs.model.DType;

/**
 * Compares two array files of one dtype and shape chunk by chunk: how many elements differ
 * and, for floating-point types, the largest absolute difference (in double).
 *
 * @param differing elements whose bits differ (two NaNs count as equal); for UTF8, 0 or 1
 * @param maxAbs the largest |a - b| over elements where neither or both are NaN
 * @param nanMismatches elements that are NaN on one side only
 */
record ArrayDiff(long differing, double maxAbs, long nanMismatches) {

  boolean identical() {
    return differing == 0;
  }

  /** Compares {@code a} and {@code b}, both of type {@code t} and the same element count. */
  static ArrayDiff of(Path a, Path b, DType t) throws IOException {
    long size = Files.size(a);
    if (t.width() == 0) { // UTF8: offsets then bytes; no element-wise view, so only same or not
      return new ArrayDiff(sameBytes(a, b) ? 0 : 1, 0, 0);
    }
    int w = t.width();
    long n = size / w;
    ByteBuffer ba = Elements.chunkBuffer(t);
    ByteBuffer bb = Elements.chunkBuffer(t);
    long differing = 0;
    long nan = 0;
    double max = 0;
    try (SeekableByteChannel ca = Files.newByteChannel(a); SeekableByteChannel cb = Files.newByteChannel(b)) {
      for (long done = 0; done < n; done += Elements.CHUNK) {
        int k = (int) Math.min(Elements.CHUNK, n - done);
        Elements.readFully(ca, ba, k * w, a);
        Elements.readFully(cb, bb, k * w, b);
        for (int i = 0; i < k; i++) {
          if (Elements.bits(ba, w, i) == Elements.bits(bb, w, i)) {
            continue;
          }
          if (!t.isFloatingPoint()) {
            differing++;
            continue;
          }
          double x = Elements.get(ba, t, i);
          double y = Elements.get(bb, t, i);
          if (Double.isNaN(x) && Double.isNaN(y)) {
            continue;
          }
          differing++;
          if (Double.isNaN(x) || Double.isNaN(y)) {
            nan++;
          } else {
            max = Math.max(max, Math.abs(x - y));
          }
        }
      }
    }
    return new ArrayDiff(differing, max, nan);
  }

  /** Whether two files hold the same bytes, read 1 MiB at a time. */
  static boolean sameBytes(Path a, Path b) throws IOException {
    long size = Files.size(a);
    if (size != Files.size(b)) {
      return false;
    }
    ByteBuffer ba = ByteBuffer.allocate(1 << 20);
    ByteBuffer bb = ByteBuffer.allocate(1 << 20);
    try (SeekableByteChannel ca = Files.newByteChannel(a); SeekableByteChannel cb = Files.newByteChannel(b)) {
      for (long done = 0; done < size; done += ba.capacity()) {
        int k = (int) Math.min(ba.capacity(), size - done);
        Elements.readFully(ca, ba, k, a);
        Elements.readFully(cb, bb, k, b);
        if (!ba.equals(bb)) {
          return false;
        }
      }
    }
    return true;
  }
}
