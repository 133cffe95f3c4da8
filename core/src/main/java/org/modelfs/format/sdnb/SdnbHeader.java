package org.modelfs.format.sdnb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * The 32-byte big-endian SDNB header (docs/FORMATS.md §5.1): magic, version, manifest offset and
 * length, metadata offset (always 32), checked against the real file size on read.
 */
record SdnbHeader(int version, long manifestOffset, long manifestLength) {
  static final int SIZE = 32;
  static final int METADATA_OFFSET = 32;
  static final byte[] MAGIC = {'S', 'D', 'N', 'B'};

  /** True if the source starts with the SDNB magic. */
  static boolean sniff(ByteSource src) throws IOException {
    if (src.size() < 4) {
      return false;
    }
    ByteBuffer b = ByteBuffer.allocate(4);
    src.readFully(b, 0);
    return Arrays.equals(b.array(), MAGIC);
  }

  static SdnbHeader read(ByteSource src) throws IOException {
    String file = src.name();
    long size = src.size();
    if (size < SIZE) {
      throw new ModelFormatException(file, "SDNB header", 0, "file of " + size + " bytes is shorter than the 32-byte header");
    }
    ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.BIG_ENDIAN);
    src.readFully(b, 0);
    for (int i = 0; i < 4; i++) {
      if (b.get(i) != MAGIC[i]) {
        throw new ModelFormatException(file, "SDNB header", 0, "magic is not 'SDNB'");
      }
    }
    int version = b.getInt(4);
    long mOff = b.getLong(8);
    long mLen = b.getLong(16);
    long metaOff = b.getLong(24);
    if (metaOff != METADATA_OFFSET) {
      throw new ModelFormatException(file, "SDNB header.metadataOffset", 24, "is " + metaOff + ", must be 32");
    }
    if (mOff < SIZE || mOff > size) {
      throw new ModelFormatException(file, "SDNB header.manifestOffset", 8,
          "manifest offset " + mOff + " lies outside the file (32.." + size + ")");
    }
    if (mLen < 0 || mLen > size - mOff) {
      throw new ModelFormatException(file, "SDNB header.manifestLength", 16,
          "manifest length " + mLen + " runs past the end of the file (" + size + " bytes)");
    }
    if (mLen > Integer.MAX_VALUE) {
      throw new ModelFormatException(file, "SDNB header.manifestLength", 16, "manifest of " + mLen + " bytes exceeds 2 GiB");
    }
    return new SdnbHeader(version, mOff, mLen);
  }

  byte[] toBytes() {
    ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.BIG_ENDIAN);
    b.put(MAGIC).putInt(version).putLong(manifestOffset).putLong(manifestLength).putLong(METADATA_OFFSET);
    return b.array();
  }
}
