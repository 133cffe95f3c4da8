package org.modelfs.format.sdz;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.DeflateWorkers;
import org.modelfs.io.ParallelDeflater;

/**
 * Writes a zip of DEFLATED entries (docs/FORMATS.md §7.3) into a seekable channel: each entry's
 * data compressed on every core by {@link ParallelDeflater} (one valid DEFLATE stream per entry),
 * or copied as it is when the part is {@link SdzFormat.PreDeflated}; the CRC-32 and the
 * compressed size are patched into the local header once the data is written (no data
 * descriptor). Zip64 where a size, an offset or the entry count needs it: a local header whose
 * entry might reach 4 GiB compressed (bounded from its uncompressed size before writing) carries
 * a Zip64 extra field with both sizes; the central directory escapes exactly the fields that
 * need it; the end gets a Zip64 end record and locator when the directory's place, size or
 * count needs them. Given the same parts, level and time, the bytes are the same whatever the
 * threads.
 */
final class DeflatedZipWriter {
  private static final int LOCAL_HEADER = 30;
  private static final int CENTRAL_HEADER = 46;
  private static final int FLAG_UTF8 = 0x0800;
  private static final int DEFLATED = 8;
  private static final int VERSION_DEFLATE = 20;
  private static final int VERSION_ZIP64 = 45;
  private static final int ZIP64_EXTRA_ID = 0x0001;
  /** A 32-bit field holding this (or more) is escaped to the Zip64 extra field. */
  static final long ZIP64_MAGIC = 0xFFFFFFFFL;
  private static final int ZIP64_COUNT = 0xFFFF;

  private DeflatedZipWriter() {}

  /** Where one entry went and what it holds. */
  private record Written(byte[] name, long headerOffset, long crc, long compressedSize, long size) {}

  /** Writes {@code parts} at {@code level} (1–9, -1: 6) on the shared workers, dated now. */
  static void write(List<SdzFormat.Part> parts, SeekableByteChannel ch, int level, String what) throws IOException {
    write(parts, ch, level, what, StoredZipWriter.dosTime(LocalDateTime.now()), DeflateWorkers.shared(), ZIP64_MAGIC);
  }

  /**
   * Writes {@code parts} as a DEFLATED zip into {@code ch} (empty, named {@code what} in
   * messages), dated {@code dos}.
   *
   * @param zip64At values from which a field is escaped to Zip64 ({@link #ZIP64_MAGIC}; tests
   *     pass less to write every Zip64 structure into a small zip)
   */
  static void write(List<SdzFormat.Part> parts, SeekableByteChannel ch, int level, String what, int[] dos,
      DeflateWorkers workers, long zip64At) throws IOException {
    List<Written> written = new ArrayList<>();
    for (SdzFormat.Part p : parts) {
      written.add(entry(p, ch, level, what, dos, workers, zip64At));
    }
    long cdStart = ch.position();
    for (Written w : written) {
      StoredZipWriter.writeFully(ch, centralHeader(w, dos, zip64At));
    }
    long cdSize = ch.position() - cdStart;
    int count = written.size();
    if (count >= Math.min(ZIP64_COUNT, zip64At) || cdStart >= zip64At || cdSize >= zip64At) {
      long zip64End = ch.position();
      ByteBuffer b = ByteBuffer.allocate(56 + 20).order(ByteOrder.LITTLE_ENDIAN);
      b.putInt(0x06064b50).putLong(44).putShort((short) VERSION_ZIP64).putShort((short) VERSION_ZIP64)
          .putInt(0).putInt(0).putLong(count).putLong(count).putLong(cdSize).putLong(cdStart);
      b.putInt(0x07064b50).putInt(0).putLong(zip64End).putInt(1);
      StoredZipWriter.writeFully(ch, b.flip());
      count = ZIP64_COUNT;
      cdStart = ZIP64_MAGIC;
      cdSize = ZIP64_MAGIC;
    }
    ByteBuffer end = ByteBuffer.allocate(22).order(ByteOrder.LITTLE_ENDIAN);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) count)
        .putShort((short) count).putInt((int) cdSize).putInt((int) cdStart).putShort((short) 0);
    StoredZipWriter.writeFully(ch, end.flip());
  }

  /** One entry: local header, data, then the header's CRC and sizes patched. */
  private static Written entry(SdzFormat.Part p, SeekableByteChannel ch, int level, String what, int[] dos,
      DeflateWorkers workers, long zip64At) throws IOException {
    byte[] name = p.name().getBytes(StandardCharsets.UTF_8);
    long offset = ch.position();
    long size = p.content().size();
    boolean pre = p.content() instanceof SdzFormat.PreDeflated;
    long mostCompressed = pre ? ((SdzFormat.PreDeflated) p.content()).compressedSize() : worstCompressed(size);
    boolean zip64 = size >= zip64At || mostCompressed >= zip64At;
    StoredZipWriter.writeFully(ch, localHeader(name, dos, zip64, size));
    long dataStart = ch.position();
    long crc;
    String entry = what + ": zip entry '" + p.name() + "'";
    if (p.content() instanceof SdzFormat.PreDeflated raw) {
      CountingOutput out = new CountingOutput(ch);
      raw.writeCompressedTo(out);
      if (out.position() != raw.compressedSize()) {
        throw new IllegalStateException(entry + ": copied " + out.position() + " compressed bytes, its size is "
            + raw.compressedSize());
      }
      crc = raw.crc();
    } else {
      try (ParallelDeflater deflater = new ParallelDeflater(ch, level, workers, entry)) {
        CountingOutput in = new CountingOutput(deflater);
        p.content().writeTo(in);
        ParallelDeflater.Result r = deflater.finish();
        if (r.size() != size) {
          throw new IllegalStateException(entry + ": wrote " + r.size() + " bytes, its size is " + size);
        }
        crc = r.crc();
      }
    }
    long end = ch.position();
    long compressed = end - dataStart;
    if (compressed > mostCompressed) {
      throw new IllegalStateException(entry + ": " + compressed + " compressed bytes, more than the bound "
          + mostCompressed + " its header was written for");
    }
    ByteBuffer fix = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc);
    if (zip64) {
      ch.position(offset + 14);
      StoredZipWriter.writeFully(ch, fix.flip());
      fix = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, compressed);
      ch.position(offset + LOCAL_HEADER + name.length + 4 + 8);
    } else {
      fix.putInt((int) compressed).putInt((int) size).flip();
      ch.position(offset + 14);
    }
    StoredZipWriter.writeFully(ch, fix);
    ch.position(end);
    return new Written(name, offset, crc, compressed, size);
  }

  /**
   * The most a {@link ParallelDeflater} stream of {@code size} bytes can take: zlib's bound per
   * block ({@code n + n/4096 + n/16384 + 7}) with the sync flush's empty stored block, rounded up.
   */
  static long worstCompressed(long size) {
    long blocks = size / ParallelDeflater.BLOCK + 1;
    return size + size / 1024 + 64 * blocks;
  }

  /** The local header: CRC and compressed size zero until patched; with Zip64, both sizes in the extra field. */
  private static ByteBuffer localHeader(byte[] name, int[] dos, boolean zip64, long size) {
    int extra = zip64 ? 4 + 16 : 0;
    ByteBuffer b = ByteBuffer.allocate(LOCAL_HEADER + name.length + extra).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0x04034b50).putShort((short) (zip64 ? VERSION_ZIP64 : VERSION_DEFLATE)).putShort((short) FLAG_UTF8)
        .putShort((short) DEFLATED).putShort((short) dos[0]).putShort((short) dos[1])
        .putInt(0) // CRC-32, patched once the data is written
        .putInt(zip64 ? -1 : 0).putInt(zip64 ? -1 : 0) // sizes, patched (here or in the extra field)
        .putShort((short) name.length).putShort((short) extra)
        .put(name);
    if (zip64) {
      b.putShort((short) ZIP64_EXTRA_ID).putShort((short) 16).putLong(size).putLong(0);
    }
    return b.flip();
  }

  /** The central directory header: the fields at or beyond {@code zip64At} escaped to a Zip64 extra field. */
  private static ByteBuffer centralHeader(Written w, int[] dos, long zip64At) {
    boolean bigSize = w.size() >= zip64At;
    boolean bigCompressed = w.compressedSize() >= zip64At;
    boolean bigOffset = w.headerOffset() >= zip64At;
    int extraData = 8 * ((bigSize ? 1 : 0) + (bigCompressed ? 1 : 0) + (bigOffset ? 1 : 0));
    int extra = extraData == 0 ? 0 : 4 + extraData;
    int version = extra == 0 ? VERSION_DEFLATE : VERSION_ZIP64;
    ByteBuffer b = ByteBuffer.allocate(CENTRAL_HEADER + w.name().length + extra).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0x02014b50).putShort((short) version).putShort((short) version).putShort((short) FLAG_UTF8)
        .putShort((short) DEFLATED).putShort((short) dos[0]).putShort((short) dos[1])
        .putInt((int) w.crc())
        .putInt(bigCompressed ? -1 : (int) w.compressedSize()).putInt(bigSize ? -1 : (int) w.size())
        .putShort((short) w.name().length).putShort((short) extra).putShort((short) 0)
        .putShort((short) 0).putShort((short) 0).putInt(0).putInt(bigOffset ? -1 : (int) w.headerOffset())
        .put(w.name());
    if (extra > 0) {
      b.putShort((short) ZIP64_EXTRA_ID).putShort((short) extraData);
      if (bigSize) {
        b.putLong(w.size());
      }
      if (bigCompressed) {
        b.putLong(w.compressedSize());
      }
      if (bigOffset) {
        b.putLong(w.headerOffset());
      }
    }
    return b.flip();
  }
}
