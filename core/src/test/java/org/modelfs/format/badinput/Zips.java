package org.modelfs.format.badinput;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/**
 * Builds hostile zips with commons-compress and patches their headers: entry methods and sizes
 * (in both the local header and the central directory), names, and the end record.
 */
final class Zips {
  private Zips() {}

  /** Writes the content of one entry (may stream gigabytes without holding them). */
  @FunctionalInterface
  interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  /** One entry to write. {@code unix}: mark it as made on Unix so '\' stays a plain character. */
  record Item(String name, int method, Body body, boolean unix) {
    static Item stored(String name, byte[] content) {
      return new Item(name, ZipArchiveEntry.STORED, o -> o.write(content), false);
    }

    static Item deflated(String name, byte[] content) {
      return new Item(name, ZipArchiveEntry.DEFLATED, o -> o.write(content), false);
    }
  }

  /** Writes a zip of {@code items} to {@code out} (no Zip64, fast deflate level). */
  static Path write(Path out, List<Item> items) throws IOException {
    try (SeekableByteChannel ch = Files.newByteChannel(out, StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        ZipArchiveOutputStream zos = new ZipArchiveOutputStream(ch)) {
      zos.setUseZip64(Zip64Mode.Never);
      zos.setLevel(Deflater.BEST_SPEED);
      for (Item it : items) {
        ZipArchiveEntry ze = new ZipArchiveEntry(it.name());
        if (it.unix()) {
          ze.setUnixMode(0100644);
        }
        ze.setMethod(it.method());
        if (it.method() == ZipArchiveEntry.STORED) {
          // STORED needs size and CRC up front: compute them by running the body once.
          CRC32 crc = new CRC32();
          long[] size = {0};
          it.body().writeTo(new OutputStream() {
            @Override
            public void write(int b) {
              crc.update(b);
              size[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) {
              crc.update(b, off, len);
              size[0] += len;
            }
          });
          ze.setSize(size[0]);
          ze.setCompressedSize(size[0]);
          ze.setCrc(crc.getValue());
        }
        zos.putArchiveEntry(ze);
        it.body().writeTo(new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            zos.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            zos.write(b, off, len);
          }
        });
        zos.closeArchiveEntry();
      }
      zos.finish();
    }
    return out;
  }

  // ---- structure of a written zip --------------------------------------------------------------

  /** Where one entry's headers are. */
  record Info(String name, int cd, int lfh, int method, long csize, long usize, int data) {}

  static int eocd(byte[] z) {
    for (int i = z.length - 22; i >= 0; i--) {
      if (u32(z, i) == 0x06054b50L) {
        return i;
      }
    }
    throw new IllegalStateException("no end of central directory record");
  }

  static int cdOffset(byte[] z) {
    return (int) u32(z, eocd(z) + 16);
  }

  /** The entries in central-directory order. */
  static List<Info> entries(byte[] z) {
    int e = eocd(z);
    int n = u16(z, e + 10);
    int p = (int) u32(z, e + 16);
    List<Info> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int nameLen = u16(z, p + 28);
      int extraLen = u16(z, p + 30);
      int commentLen = u16(z, p + 32);
      int lfh = (int) lfhOffset(z, p, nameLen, extraLen);
      String name = new String(z, p + 46, nameLen, StandardCharsets.UTF_8);
      int data = lfh + 30 + u16(z, lfh + 26) + u16(z, lfh + 28);
      out.add(new Info(name, p, lfh, u16(z, p + 10), u32(z, p + 20), u32(z, p + 24), data));
      p += 46 + nameLen + extraLen + commentLen;
    }
    return out;
  }

  /**
   * The local header offset of the central directory record at {@code p}; when the 32-bit field
   * says "see Zip64" (0xFFFFFFFF), the value from the Zip64 extra field (id 1), whose 8-byte
   * fields are: uncompressed size, compressed size, offset — each only if its 32-bit field is
   * 0xFFFFFFFF.
   */
  private static long lfhOffset(byte[] z, int p, int nameLen, int extraLen) {
    long off = u32(z, p + 42);
    if (off != 0xFFFFFFFFL) {
      return off;
    }
    int at = p + 46 + nameLen;
    for (int q = at; q + 4 <= at + extraLen; ) {
      int id = u16(z, q);
      int size = u16(z, q + 2);
      if (id == 1) {
        int k = q + 4;
        if (u32(z, p + 24) == 0xFFFFFFFFL) {
          k += 8;
        }
        if (u32(z, p + 20) == 0xFFFFFFFFL) {
          k += 8;
        }
        return ByteBuffer.wrap(z, k, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
      }
      q += 4 + size;
    }
    throw new IllegalStateException("Zip64 offset without a Zip64 extra field");
  }

  static Info entry(byte[] z, String name) {
    return entries(z).stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
  }

  /** Sets the compression method in both headers. */
  static byte[] setMethod(byte[] z, Info e, int method) {
    byte[] out = z.clone();
    putU16(out, e.lfh() + 8, method);
    putU16(out, e.cd() + 10, method);
    return out;
  }

  /** Sets the general-purpose flags in both headers. */
  static byte[] orFlags(byte[] z, Info e, int flags) {
    byte[] out = z.clone();
    putU16(out, e.lfh() + 6, u16(out, e.lfh() + 6) | flags);
    putU16(out, e.cd() + 8, u16(out, e.cd() + 8) | flags);
    return out;
  }

  /** Sets compressed and uncompressed sizes in both headers (u32). */
  static byte[] setSizes(byte[] z, Info e, long csize, long usize) {
    byte[] out = z.clone();
    putU32(out, e.lfh() + 18, csize);
    putU32(out, e.lfh() + 22, usize);
    putU32(out, e.cd() + 20, csize);
    putU32(out, e.cd() + 24, usize);
    return out;
  }

  static long u32(byte[] b, int p) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(p) & 0xffffffffL;
  }

  static int u16(byte[] b, int p) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getShort(p) & 0xffff;
  }

  static void putU32(byte[] b, int p, long v) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(p, (int) v);
  }

  static void putU16(byte[] b, int p, int v) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(p, (short) v);
  }
}
