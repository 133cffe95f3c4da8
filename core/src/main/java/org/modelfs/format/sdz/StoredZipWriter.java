package org.modelfs.format.sdz;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.EarlyWriteback;

/**
 * Writes an SDZ of STORED entries straight into a {@link FileChannel}, so that every array goes
 * file to file inside the kernel as in an SDNB commit; each entry's CRC-32 is then computed over
 * the bytes just written (read back from the page cache while {@link EarlyWriteback} has the
 * disk write them) and patched into its local header. The layout is what {@code ZipArchiveOutputStream} writes for an aligned STORED entry: UTF-8 flag,
 * sizes in the local header, a resource-alignment extra field ({@code 0xa11e}) padding the data
 * to 64 bytes, no data descriptor, no Zip64. Zips that would need Zip64 (4 GiB or more, 65,535
 * entries) or a file system without {@code FileChannel} are left to {@code ZipArchiveOutputStream}.
 */
final class StoredZipWriter {
  private static final int LOCAL_HEADER = 30;
  private static final int CENTRAL_HEADER = 46;
  private static final int END_RECORD = 22;
  /** {@code ResourceAlignmentExtraField}: header id, size, then the alignment and padding. */
  private static final int ALIGNMENT_EXTRA_ID = 0xa11e;
  private static final int ALIGNMENT_EXTRA_BASE = 4 + 2;
  private static final int ALIGNMENT = 64;
  private static final int FLAG_UTF8 = 0x0800;
  private static final int VERSION = 10;
  /** Largest offset or size without Zip64. */
  static final long LIMIT = 0xFFFFFFFFL - 1;
  private static final int CRC_CHUNK = 1 << 20;

  private StoredZipWriter() {}

  /** Where one entry went. */
  private record Written(byte[] name, long headerOffset, long dataStart, long size, long crc) {}

  /**
   * Writes {@code parts} as a STORED, aligned zip into {@code ch} (an empty file opened for
   * reading and writing, named {@code what} in messages) and returns true; returns false without
   * writing anything when the zip needs Zip64.
   */
  static boolean write(List<SdzFormat.Part> parts, FileChannel ch, String what) throws IOException {
    if (!fits(parts, LIMIT)) {
      return false;
    }
    int[] dos = dosTime(LocalDateTime.now());
    List<Written> entries = new ArrayList<>();
    List<Written> written;
    // the disk writes while the entries are copied and while their CRCs are read back
    try (EarlyWriteback wb = EarlyWriteback.start(ch, what)) {
      writeEntries(ch, parts, dos, entries);
      written = withCrcs(ch, entries);
      wb.finish();
    }
    long cdStart = ch.position();
    for (Written w : written) {
      writeFully(ch, centralHeader(w, dos));
    }
    long cdSize = ch.position() - cdStart;
    ByteBuffer end = ByteBuffer.allocate(END_RECORD).order(ByteOrder.LITTLE_ENDIAN);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) written.size())
        .putShort((short) written.size()).putInt((int) cdSize).putInt((int) cdStart).putShort((short) 0);
    writeFully(ch, end.flip());
    return true;
  }

  /** Writes each part's local header and data, noting where each went in {@code entries}. */
  private static void writeEntries(FileChannel ch, List<SdzFormat.Part> parts, int[] dos, List<Written> entries)
      throws IOException {
    for (SdzFormat.Part p : parts) {
      byte[] name = p.name().getBytes(StandardCharsets.UTF_8);
      long headerOffset = ch.position();
      long size = p.content().size();
      writeFully(ch, localHeader(name, headerOffset, size, dos));
      long dataStart = ch.position();
      CountingOutput co = new CountingOutput(ch);
      p.content().writeTo(co);
      if (co.position() != size || ch.position() != dataStart + size) {
        throw new IllegalStateException("zip entry " + p.name() + ": wrote " + co.position()
            + " bytes, its size is " + size);
      }
      entries.add(new Written(name, headerOffset, dataStart, size, 0));
    }
  }

  /** Whether every offset and size of the zip stays at or below {@code limit} (no Zip64). */
  static boolean fits(List<SdzFormat.Part> parts, long limit) {
    if (parts.size() >= 0xFFFF) {
      return false;
    }
    long end = 0;
    long central = END_RECORD;
    for (SdzFormat.Part p : parts) {
      int nameLen = p.name().getBytes(StandardCharsets.UTF_8).length;
      long size = p.content().size();
      if (size > limit) {
        return false;
      }
      end += LOCAL_HEADER + nameLen + ALIGNMENT_EXTRA_BASE + ALIGNMENT + size;
      central += CENTRAL_HEADER + nameLen;
    }
    return end + central <= limit;
  }

  private static ByteBuffer localHeader(byte[] name, long offset, long size, int[] dos) {
    long dataAt = offset + LOCAL_HEADER + name.length + ALIGNMENT_EXTRA_BASE;
    int padding = (int) ((ALIGNMENT - dataAt % ALIGNMENT) % ALIGNMENT);
    ByteBuffer b = ByteBuffer.allocate(LOCAL_HEADER + name.length + ALIGNMENT_EXTRA_BASE + padding)
        .order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0x04034b50).putShort((short) VERSION).putShort((short) FLAG_UTF8).putShort((short) 0)
        .putShort((short) dos[0]).putShort((short) dos[1])
        .putInt(0) // CRC-32, patched once the data is written
        .putInt((int) size).putInt((int) size)
        .putShort((short) name.length).putShort((short) (ALIGNMENT_EXTRA_BASE + padding))
        .put(name)
        .putShort((short) ALIGNMENT_EXTRA_ID).putShort((short) (2 + padding)).putShort((short) ALIGNMENT);
    return b.position(b.capacity()).flip(); // the padding is the buffer's zeros
  }

  private static ByteBuffer centralHeader(Written w, int[] dos) {
    ByteBuffer b = ByteBuffer.allocate(CENTRAL_HEADER + w.name().length).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0x02014b50).putShort((short) 20).putShort((short) VERSION).putShort((short) FLAG_UTF8)
        .putShort((short) 0).putShort((short) dos[0]).putShort((short) dos[1])
        .putInt((int) w.crc()).putInt((int) w.size()).putInt((int) w.size())
        .putShort((short) w.name().length).putShort((short) 0).putShort((short) 0)
        .putShort((short) 0).putShort((short) 0).putInt(0).putInt((int) w.headerOffset())
        .put(w.name());
    return b.flip();
  }

  /**
   * The entries with their CRC-32s, computed over the bytes written (read back from the page
   * cache) and patched into their local headers.
   */
  private static List<Written> withCrcs(FileChannel ch, List<Written> entries) throws IOException {
    List<Written> out = new ArrayList<>();
    ByteBuffer buf = ByteBuffer.allocateDirect(CRC_CHUNK);
    for (Written w : entries) {
      long crc = crc(ch, w.dataStart(), w.size(), buf);
      out.add(new Written(w.name(), w.headerOffset(), w.dataStart(), w.size(), crc));
      ByteBuffer c = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) crc);
      while (c.hasRemaining()) {
        ch.write(c, w.headerOffset() + 14 + c.position());
      }
    }
    return out;
  }

  /** The CRC-32 of {@code ch[start, start + size)}, read back through one direct buffer. */
  private static long crc(FileChannel ch, long start, long size, ByteBuffer buf) throws IOException {
    CRC32 crc = new CRC32();
    long done = 0;
    while (done < size) {
      buf.clear().limit((int) Math.min(buf.capacity(), size - done));
      int n = ch.read(buf, start + done);
      if (n <= 0) {
        throw new IOException("zip entry data ended at " + (start + done) + " while computing its CRC");
      }
      crc.update(buf.flip());
      done += n;
    }
    return crc.getValue();
  }

  static void writeFully(WritableByteChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  /** MS-DOS time and date fields of {@code t} (2-second resolution, years from 1980). */
  static int[] dosTime(LocalDateTime t) {
    int year = Math.max(1980, Math.min(2107, t.getYear()));
    int time = (t.getHour() << 11) | (t.getMinute() << 5) | (t.getSecond() / 2);
    int date = ((year - 1980) << 9) | (t.getMonthValue() << 5) | t.getDayOfMonth();
    return new int[] {time, date};
  }
}
