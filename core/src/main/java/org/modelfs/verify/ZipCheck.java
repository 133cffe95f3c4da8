package org.modelfs.verify;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;
import java.util.zip.CRC32;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.zip.ZipIo;
import org.modelfs.format.ziptags.ZipTagsReader;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;

/**
 * The CRC-32 of every entry of a zip model (SDZ, zip-tags), recomputed over its bytes — read in
 * place for STORED entries, inflated (never past the declared size) for DEFLATED ones — and
 * compared with the central directory, and with the local header where that holds one. The
 * readers never look at CRCs: a STORED entry is read in place, so a flipped byte in an array is
 * found only here.
 */
final class ZipCheck implements Closeable {
  private final String file;
  private final ByteSource src;
  private final ZipFile zip;
  private final List<Checked> entries;

  /** An entry whose bounds the zip plumbing accepted. */
  private record Checked(ZipArchiveEntry ze, ZipIo.Entry entry) {}

  private ZipCheck(String file, ByteSource src, ZipFile zip, List<Checked> entries) {
    this.file = file;
    this.src = src;
    this.zip = zip;
    this.entries = entries;
  }

  /**
   * Reads the central directory of {@code path}; what cannot be read (too many entries, an
   * unreadable directory, an entry whose data lies outside the file) goes to {@code out}, and
   * such entries are not checked.
   */
  static ZipCheck open(Path path, List<Problem> out) throws IOException {
    ChannelSource src = ChannelSource.open(path);
    String file = src.name();
    ZipFile zf = null;
    List<Checked> entries = new ArrayList<>();
    try {
      ZipIo.checkEntryCount(src, file, ZipTagsReader.MAX_ENTRIES, "a zip model");
      zf = ZipIo.open(path, file);
      long size = src.size();
      for (ZipArchiveEntry ze : Collections.list(zf.getEntriesInPhysicalOrder())) {
        if (ze.isDirectory()) {
          continue;
        }
        try {
          entries.add(new Checked(ze, ZipIo.bounds(ze, file, size)));
        } catch (ModelFormatException e) {
          out.add(Problem.of(file + "!" + ze.getName(), e));
        }
      }
    } catch (ModelFormatException e) {
      out.add(Problem.of(e));
      entries.clear();
    } catch (IOException | RuntimeException e) {
      if (zf != null) {
        zf.close();
      }
      src.close();
      throw e;
    }
    return new ZipCheck(file, src, zf, entries);
  }

  /** The uncompressed bytes {@link #run} reads. */
  long total() {
    long sum = 0;
    for (Checked c : entries) {
      sum += c.entry().size();
    }
    return sum;
  }

  /** Checks every entry; problems go to {@code out}, bytes read to {@code progress}. */
  void run(List<Problem> out, LongConsumer progress) {
    ByteBuffer buf = ByteBuffer.allocateDirect(ArrayCheck.CHUNK);
    byte[] bytes = new byte[64 * 1024];
    for (Checked c : entries) {
      ZipIo.Entry e = c.entry();
      String where = file + "!" + e.name();
      CRC32 crc = new CRC32();
      long n = 0;
      String failed = null;
      if (e.stored()) {
        while (n < e.size()) {
          buf.clear().limit((int) Math.min(buf.capacity(), e.size() - n));
          int r;
          try {
            r = src.read(buf, e.dataOffset() + n);
          } catch (IOException ex) {
            failed = "reading byte " + n + " of the entry failed: " + ex.getMessage() + " (data at offset " + e.dataOffset() + ")";
            break;
          }
          if (r < 0) {
            failed = "the file ends after " + n + " of the entry's " + e.size() + " bytes (data at offset " + e.dataOffset() + ")";
            break;
          }
          buf.flip();
          crc.update(buf);
          n += r;
          progress.accept(r);
        }
      } else {
        try (InputStream in = zip.getInputStream(c.ze())) {
          int r;
          while ((r = in.read(bytes)) > 0) {
            if (n + r > e.size()) {
              failed = "inflates to more than its declared " + e.size() + " bytes (data at offset " + e.dataOffset() + ")";
              break;
            }
            crc.update(bytes, 0, r);
            n += r;
            progress.accept(r);
          }
          if (failed == null && n != e.size()) {
            failed = "inflates to " + n + " bytes, but declares " + e.size() + " (data at offset " + e.dataOffset() + ")";
          }
        } catch (IOException | RuntimeException ex) {
          failed = "cannot be inflated after " + n + " bytes: " + ex.getMessage() + " (data at offset " + e.dataOffset() + ")";
        }
      }
      if (failed != null) {
        out.add(new Problem(where, failed));
        continue;
      }
      long central = c.ze().getCrc();
      if (crc.getValue() != central) {
        out.add(new Problem(where, String.format(Locale.ROOT,
            "CRC-32 of its %d bytes is %08x, but the central directory says %08x (data at offset %d)",
            n, crc.getValue(), central, e.dataOffset())));
      }
      String local;
      try {
        local = localHeader(c.ze(), central);
      } catch (IOException ex) {
        local = "the local header cannot be read: " + ex.getMessage();
      }
      if (local != null) {
        out.add(new Problem(where, local));
      }
    }
  }

  /**
   * The local header's CRC-32 where it holds one (no data descriptor, general-purpose bit 3
   * clear) and it differs from the central directory's; {@code null} otherwise.
   */
  private String localHeader(ZipArchiveEntry ze, long central) throws IOException {
    long at = ze.getLocalHeaderOffset();
    ByteBuffer h = ByteBuffer.allocate(30).order(ByteOrder.LITTLE_ENDIAN);
    if (at < 0 || at > src.size() - 30) {
      return null;
    }
    src.readFully(h, at);
    if (h.getInt(0) != 0x04034b50 || (h.getShort(6) & 0x8) != 0) {
      return null;
    }
    long local = h.getInt(14) & 0xFFFFFFFFL;
    return local == central ? null : String.format(Locale.ROOT,
        "the local header says CRC-32 %08x, the central directory %08x (local header at offset %d)", local, central, at);
  }

  @Override
  public void close() throws IOException {
    try {
      if (zip != null) {
        zip.close();
      }
    } finally {
      src.close();
    }
  }
}
