package org.modelfs.format.unified;

import static org.modelfs.format.unified.ContainerLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.modelfs.format.BudgetExceededException;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * Reading a section's bytes (docs/FORMATS.md §13.2, §13.6): its CRC-32C checked (over the data, or
 * for ARRAYS the data's index part, then the frame header), small sections brought into the heap
 * within their budget and inflated to exactly the length the frame declares.
 */
final class Sections {
  private static final int BUFFER = 64 << 10;

  private Sections() {}

  /**
   * Checks the section's CRC-32C over the data bytes {@code [from, to)} (absolute) followed by
   * its frame header (data first, so a writer can stream the data before it knows the lengths
   * the header records). Every frame has one ({@link Frame#read} refuses one without).
   */
  static void checkCrc(ByteSource src, Frame f, long from, long to) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(BUFFER, Math.max(1, to - from)));
    for (long p = from; p < to; ) {
      buf.clear().limit((int) Math.min(buf.capacity(), to - p));
      src.readFully(buf, p);
      buf.flip();
      p += buf.remaining();
      crc.update(buf);
    }
    crc.update(f.header());
    ByteBuffer stored = ByteBuffer.allocate(CRC).order(ByteOrder.LITTLE_ENDIAN);
    src.readFully(stored, f.crcOffset());
    int want = stored.getInt(0);
    if ((int) crc.getValue() != want) {
      throw new ModelFormatException(src.name(), f.what(), f.crcOffset(), "CRC-32C mismatch: the section says "
          + hex(want) + ", its bytes give " + hex((int) crc.getValue()));
    }
  }

  /**
   * The data of a small section in the heap (the walk has checked its CRC), inflated: at most {@code max} bytes,
   * and a compressed one at most {@link ContainerLayout#INFLATE_FACTOR} times its stored size
   * plus 1 MiB.
   */
  static byte[] heap(ByteSource src, Frame f, long max) throws IOException {
    checkBudget(src, f, max);
    byte[] stored = new byte[(int) f.stored()]; // (its CRC was checked by the reader's walk)
    src.readFully(ByteBuffer.wrap(stored), f.dataOffset());
    return switch (f.compression()) {
      case NONE -> stored;
      case DEFLATE -> inflate(stored, (int) f.raw(), src.name(), f.what(), f.dataOffset());
      case ZSTD -> throw zstd(src.name(), f.what(), f.offset() + 1);
    };
  }

  /**
   * Refuses a section that would take more than {@code max} bytes of memory, or a compressed one
   * that declares more than {@link ContainerLayout#INFLATE_FACTOR} times its stored size plus
   * 1 MiB — before anything is read.
   */
  static void checkBudget(ByteSource src, Frame f, long max) throws BudgetExceededException {
    String file = src.name();
    if (f.stored() > max || f.raw() > max) {
      throw new BudgetExceededException(file, f.what(), f.offset() + 8, "section of " + Math.max(f.stored(), f.raw())
          + " bytes exceeds the " + max + "-byte limit for a section read into memory");
    }
    if (f.compression() != Compression.NONE && f.raw() > INFLATE_FACTOR * f.stored() + (1 << 20)) {
      throw new BudgetExceededException(file, f.what(), f.offset() + 16, "declares " + f.raw()
          + " bytes once inflated from " + f.stored() + " (more than " + INFLATE_FACTOR + " per stored byte + 1 MiB)");
    }
  }

  /** The refusal of a ZSTD section or chunk (docs/FORMATS.md §13.7). */
  static ModelFormatException zstd(String file, String what, long offset) {
    return new ModelFormatException(file, what, offset,
        "is ZSTD-compressed, which ModelFS does not read (docs/FORMATS.md §13.7: NONE and DEFLATE only)");
  }

  /**
   * Inflates raw DEFLATE data ({@code nowrap}) that must make exactly {@code raw} bytes, with no
   * input left over.
   */
  static byte[] inflate(byte[] in, int raw, String file, String what, long offset) throws ModelFormatException {
    byte[] out = new byte[raw];
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(in);
      int n = 0;
      while (n < raw) {
        int k = inf.inflate(out, n, raw - n);
        if (k == 0) {
          if (inf.finished() || inf.needsInput() || inf.needsDictionary()) {
            break;
          }
        }
        n += k;
      }
      if (n < raw) {
        throw new ModelFormatException(file, what, offset, "DEFLATE data ends after " + n + " bytes; "
            + raw + " declared");
      }
      if (!inf.finished()) {
        byte[] probe = new byte[1];
        if (inf.inflate(probe) > 0) {
          throw new ModelFormatException(file, what, offset, "DEFLATE data inflates to more than the " + raw
              + " bytes declared");
        }
        if (!inf.finished()) {
          throw new ModelFormatException(file, what, offset, "DEFLATE stream does not end after the " + raw
              + " bytes declared");
        }
      }
      if (inf.getRemaining() > 0) {
        throw new ModelFormatException(file, what, offset, inf.getRemaining()
            + " stored bytes follow the end of the DEFLATE stream");
      }
      return out;
    } catch (DataFormatException e) {
      throw new ModelFormatException(file, what, offset, "corrupt DEFLATE data: " + e.getMessage(), e);
    } finally {
      inf.end();
    }
  }

  static String hex(int v) {
    return String.format("%08x", v);
  }
}
