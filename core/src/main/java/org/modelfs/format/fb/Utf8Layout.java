package org.modelfs.format.fb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.ArrayBytes.Located;

/**
 * Which layout a legacy (fb) UTF8 buffer is in (docs/FORMATS.md §3.8), told from at most 24 of
 * its bytes: the M2.1 layout (first little-endian offset 0) is kept as it is; the older one (a
 * big-endian count equal to the element count, first big-endian offset 0, last equal to the
 * string bytes that follow) is presented in the M2.1 layout by a {@link LegacyUtf8Source}; a
 * buffer in neither opens, but reading it fails ({@link RefusedSource}).
 */
final class Utf8Layout {
  private Utf8Layout() {}

  /**
   * The bytes to show for a legacy UTF8 array of {@code n} strings stored at {@code at} (whose
   * length already holds {@code n + 1} offsets).
   */
  static Located present(Located at, long n, String file) throws ModelFormatException {
    long first = read(at, 0, file, ByteOrder.LITTLE_ENDIAN);
    if (first == 0) {
      return at;
    }
    long header = 8 + 8 * (n + 1); // n + 1 <= length / 8: no overflow
    String problem;
    if (at.length() < header) {
      problem = "its first offset is " + first + ", not 0 (M2.1 layout), and its " + at.length()
          + " bytes cannot hold the count and " + (n + 1) + " offsets of the older layout";
    } else {
      long count = Long.reverseBytes(first);
      long off0 = count == n ? read(at, 8, file, ByteOrder.BIG_ENDIAN) : -1;
      long offN = off0 == 0 ? read(at, 8 + 8 * n, file, ByteOrder.BIG_ENDIAN) : -1;
      if (count == n && off0 == 0 && offN == at.length() - header) {
        return new Located(new LegacyUtf8Source(at.source(), file, at.offset(), n, at.length()), 0, at.length() - 8);
      }
      problem = "its first offset is " + first + ", not 0 (M2.1 layout), and it is not the older layout either"
          + (count != n ? " (big-endian count " + count + ", but the shape holds " + n + " strings)"
              : off0 != 0 ? " (first big-endian offset " + off0 + ", not 0)"
              : " (last big-endian offset " + offN + ", but " + (at.length() - header) + " string bytes follow)");
    }
    return new Located(new RefusedSource(at.source().name(), at.length(), file, "FlatArray.buffer (UTF8)",
        at.offset(), "a UTF8 buffer in no layout DL4J reads: " + problem + " (docs/FORMATS.md §3.8)"), 0, at.length());
  }

  private static long read(Located at, long pos, String file, ByteOrder order) throws ModelFormatException {
    ByteBuffer b = ByteBuffer.allocate(8).order(order);
    try {
      at.source().readFully(b, at.offset() + pos);
    } catch (ModelFormatException e) {
      throw e;
    } catch (IOException e) {
      throw new ModelFormatException(file, "FlatArray.buffer (UTF8)", at.offset() + pos, "unreadable: " + e.getMessage());
    }
    return b.getLong(0);
  }
}
