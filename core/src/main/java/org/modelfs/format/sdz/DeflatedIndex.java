package org.modelfs.format.sdz;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.zip.ZipIo;
import org.modelfs.io.ByteSource;

/**
 * The in-memory budget of a DEFLATED SDNB entry's index (docs/FORMATS.md §12): opening reads the
 * entry's manifest into the heap, and deflate turns a few KB into hundreds of MB of zeros, so
 * the manifest an entry declares may take at most {@value #PER_COMPRESSED_BYTE} bytes per
 * compressed byte of the entry plus 1 MiB — checked on the header before anything more is
 * inflated. (A STORED entry's manifest is bytes of the file itself.)
 */
final class DeflatedIndex {
  /** Manifest bytes allowed per compressed byte of the entry: far above what honest manifests compress by. */
  static final long PER_COMPRESSED_BYTE = 64;
  /** Added to every budget. */
  static final long ALLOWANCE = 1 << 20;
  /** Where the SDNB header keeps the manifest's length (big-endian, docs/FORMATS.md §5.1). */
  private static final int MANIFEST_LENGTH_AT = 16;

  private DeflatedIndex() {}

  /** Refuses the SDNB entry {@code src} (DEFLATED {@code e}) if its manifest would exceed the budget. */
  static void check(ByteSource src, ZipIo.Entry e) throws IOException {
    if (src.size() < MANIFEST_LENGTH_AT + 8) {
      return; // the SDNB reader refuses the short header
    }
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.BIG_ENDIAN);
    src.readFully(b, MANIFEST_LENGTH_AT);
    long declared = b.getLong(0);
    long limit = ALLOWANCE + PER_COMPRESSED_BYTE * e.compressedSize();
    if (declared > limit) {
      throw new ModelFormatException(src.name(), "SDNB header.manifestLength", MANIFEST_LENGTH_AT,
          "declares a manifest of " + declared + " bytes; a DEFLATED entry of " + e.compressedSize()
              + " compressed bytes may hold at most " + limit + " in memory");
    }
  }
}
