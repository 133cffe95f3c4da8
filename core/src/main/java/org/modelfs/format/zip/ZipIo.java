package org.modelfs.format.zip;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;
import org.modelfs.io.SourceChannel;

/**
 * The zip plumbing both zip formats (SDZ and zip-tags) share: opening the central directory,
 * checking that an entry's data lies inside the file and cannot be a zip bomb, and inflating or
 * reading an entry no further than it declares. Entry-name rules belong to each format.
 */
public final class ZipIo {
  /** Deflate cannot expand data by more than about 1032:1; a larger declared ratio is a lie. */
  public static final long MAX_DEFLATE_RATIO = 1032;

  private ZipIo() {}

  /** One entry whose data range and sizes have been checked. */
  public record Entry(String name, int method, long dataOffset, long compressedSize, long size) {
    /** True if the entry's bytes are in the zip as they are (readable and mappable in place). */
    public boolean stored() {
      return method == ZipArchiveEntry.STORED;
    }
  }

  /** Opens the central directory of {@code zip}; {@code file} names it in messages. */
  public static ZipFile open(Path zip, String file) throws IOException {
    return open(Files.newByteChannel(zip, StandardOpenOption.READ), file);
  }

  /**
   * Opens the central directory of the zip {@code src} (read through a channel view of it: the
   * source's own reads, no second channel on its file); {@code file} names it in messages.
   * Closing the {@code ZipFile} leaves {@code src} open.
   */
  public static ZipFile open(ByteSource src, String file) throws IOException {
    return open(new SourceChannel(src), file);
  }

  private static ZipFile open(SeekableByteChannel ch, String file) throws IOException {
    try {
      return ZipFile.builder().setSeekableByteChannel(ch).setUseUnicodeExtraFields(false).get();
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw new ModelFormatException(file, "ZIP central directory", 0, "unreadable zip: " + messages(e), e);
    }
  }

  /**
   * The distinct messages of {@code e} and its causes, joined: commons-compress wraps the one that
   * names the entry ("data for x overlaps with central directory") in a generic one.
   */
  private static String messages(Throwable e) {
    List<String> out = new ArrayList<>();
    for (Throwable t = e; t != null && out.size() < 8; t = t.getCause()) {
      String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
      if (!out.contains(m)) {
        out.add(m);
      }
    }
    return String.join(": ", out);
  }

  /**
   * Refuses a zip whose central directory holds more than {@code max} records, counting them
   * before any zip library indexes them (which costs memory per record): finds the end record
   * (Zip64 too) and walks the directory's fixed-size headers. A zip without an end record is
   * left for the zip library to refuse. {@code holder} names the format in the message
   * ("an SDZ").
   */
  public static void checkEntryCount(ByteSource src, String file, int max, String holder) throws IOException {
    long size = src.size();
    int tailLen = (int) Math.min(size, 0xFFFF + 22);
    ByteBuffer tail = ByteBuffer.allocate(tailLen).order(ByteOrder.LITTLE_ENDIAN);
    src.readFully(tail, size - tailLen);
    int eocd = -1;
    for (int i = tailLen - 22; i >= 0; i--) {
      if (tail.getInt(i) == 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) {
      return;
    }
    long cdOffset = tail.getInt(eocd + 16) & 0xFFFFFFFFL;
    if (cdOffset == 0xFFFFFFFFL && eocd >= 20 && tail.getInt(eocd - 20) == 0x07064b50) {
      long z64 = tail.getLong(eocd - 20 + 8);
      ByteBuffer rec = ByteBuffer.allocate(56).order(ByteOrder.LITTLE_ENDIAN);
      if (z64 < 0 || z64 > size - 56) {
        return;
      }
      src.readFully(rec, z64);
      if (rec.getInt(0) != 0x06064b50) {
        return;
      }
      cdOffset = rec.getLong(48);
    }
    ByteBuffer head = ByteBuffer.allocate(46).order(ByteOrder.LITTLE_ENDIAN);
    long pos = cdOffset;
    boolean modelEntry = false;
    boolean inDirectory = false;
    int count = 0;
    for (; pos >= 0 && pos <= size - 46; count++) {
      head.clear();
      src.readFully(head, pos);
      if (head.getInt(0) != 0x02014b50) {
        break;
      }
      if (count >= max) {
        throw new ModelFormatException(file, "ZIP central directory", cdOffset, modelEntry
            ? "at least " + (max + 1L) + " entries, more than the " + max + " " + holder + " may hold"
            : NOT_A_MODEL + ": a zip whose first " + (max + 1L) + " entries include no model entry (" + MODEL_ENTRIES
              + "), and more entries than the " + max + " an SDZ or zip-tags file may hold");
      }
      int nameLength = head.getShort(28) & 0xFFFF;
      if (!modelEntry && pos + 46 + nameLength <= size) {
        ByteBuffer name = ByteBuffer.allocate(nameLength);
        src.readFully(name, pos + 46);
        String n = new String(name.array(), StandardCharsets.UTF_8);
        modelEntry = mayHoldModel(n);
        inDirectory |= n.contains("/");
      }
      pos += 46L + nameLength + (head.getShort(30) & 0xFFFF) + (head.getShort(32) & 0xFFFF);
    }
    if (count > 0 && !modelEntry && inDirectory) {
      throw new ModelFormatException(file, "ZIP central directory", cdOffset, NOT_A_MODEL
          + ": a zip without a model entry (" + MODEL_ENTRIES + "), and entries in directories:"
          + " an archive such as a jar, not an SDZ or zip-tags model");
    }
  }

  private static final String NOT_A_MODEL = "not a model file";
  private static final String MODEL_ENTRIES = "model, model.sdnb, a .sdnb shard, tags.txt or <tag>/graph.fb";

  /**
   * Whether a zip entry of this name can hold a model or say where one is: DL4J's SDZ entries
   * ({@code model}, {@code *.sdnb}), a tag list, a zip-tags graph (docs/FORMATS.md §7.1, §8.1).
   * A zip none of whose entries is one, with entries in directories, is no SDZ (whose names are
   * flat) and no zip-tags file: not a model.
   */
  static boolean mayHoldModel(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.equals("model") || n.endsWith(".sdnb") || n.equals("tags.txt") || n.endsWith("/graph.fb");
  }

  /**
   * Checks an entry's method and data range against the file: STORED or DEFLATED only, not
   * encrypted (a STORED entry would otherwise be read as plain bytes), data inside the
   * {@code zipSize}-byte file, a STORED size equal to its compressed size, and no
   * declared inflation beyond what deflate can produce.
   */
  public static Entry bounds(ZipArchiveEntry ze, String file, long zipSize) throws ModelFormatException {
    String name = ze.getName();
    long off = ze.getDataOffset();
    String what = "ZIP entry '" + name + "'";
    int method = ze.getMethod();
    if (method != ZipArchiveEntry.STORED && method != ZipArchiveEntry.DEFLATED) {
      throw new ModelFormatException(file, what, Math.max(off, 0), "compression method " + method + " is not supported (STORED or DEFLATED only)");
    }
    if (ze.getGeneralPurposeBit().usesEncryption() || ze.getGeneralPurposeBit().usesStrongEncryption()) {
      throw new ModelFormatException(file, what, Math.max(off, 0), "is encrypted; encrypted entries are not supported");
    }
    long csize = ze.getCompressedSize();
    long size = ze.getSize();
    if (off < 0 || csize < 0 || size < 0 || off > zipSize || csize > zipSize - off) {
      throw new ModelFormatException(file, what, Math.max(off, 0), "data [" + off + ", +" + csize
          + ") lies outside the " + zipSize + "-byte file");
    }
    if (method == ZipArchiveEntry.STORED && size != csize) {
      throw new ModelFormatException(file, what, off, "STORED entry with size " + size + " != compressed size " + csize);
    }
    if (method == ZipArchiveEntry.DEFLATED && size > csize * MAX_DEFLATE_RATIO + 1024) {
      throw new ModelFormatException(file, what, off, "declares " + size + " bytes from " + csize
          + " compressed bytes, beyond what deflate can produce (a zip bomb)");
    }
    return new Entry(name, method, off, csize, size);
  }

  /**
   * Refuses entries whose data overlap: a central directory that points several entries at the
   * same deflate stream would inflate it once per entry, beyond any ratio bound on the file (the
   * overlapping zip bomb). Empty entries are not compared.
   */
  public static void checkNoOverlap(Collection<Entry> entries, String file) throws ModelFormatException {
    List<Entry> sorted = new ArrayList<>();
    for (Entry e : entries) {
      if (e.compressedSize() > 0) {
        sorted.add(e);
      }
    }
    sorted.sort(Comparator.comparingLong(Entry::dataOffset));
    for (int i = 1; i < sorted.size(); i++) {
      Entry a = sorted.get(i - 1);
      Entry b = sorted.get(i);
      if (b.dataOffset() < a.dataOffset() + a.compressedSize()) {
        throw new ModelFormatException(file, "ZIP entry '" + b.name() + "'", b.dataOffset(), "data overlaps that of entry '"
            + a.name() + "' [" + a.dataOffset() + ", +" + a.compressedSize() + ") (overlapping entries: a zip bomb)");
      }
    }
  }

  /** True if a path-like entry name could escape its directory or name a drive (zip slip). */
  public static boolean unsafeName(String name) {
    if (name.isEmpty() || name.startsWith("/") || name.contains("\\") || name.contains("\0") || name.contains(":")) {
      return true;
    }
    String body = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    for (String seg : body.split("/", -1)) {
      if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Copies the entry's uncompressed bytes to {@code out}, failing when they differ from the
   * declared size (never writing more than it). Returns the number of bytes copied.
   */
  public static long copy(ZipFile zf, ZipArchiveEntry ze, Entry e, String file, WritableByteChannel out)
      throws IOException {
    String what = "ZIP entry '" + e.name() + "'";
    long total = 0;
    try (InputStream in = zf.getInputStream(ze)) {
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        total += n;
        if (total > e.size()) {
          throw new ModelFormatException(file, what, e.dataOffset(), "inflates to more than its declared " + e.size() + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(buf, 0, n);
        while (b.hasRemaining()) {
          out.write(b);
        }
      }
    } catch (ModelFormatException ex) {
      throw ex;
    } catch (IOException | RuntimeException ex) {
      throw new ModelFormatException(file, what, e.dataOffset(), "cannot inflate: " + ex.getMessage(), ex);
    }
    if (total != e.size()) {
      throw new ModelFormatException(file, what, e.dataOffset(), "inflates to " + total + " bytes, but declares " + e.size());
    }
    return total;
  }

  /** Reads a small entry whole (a text file), refusing one that declares more than {@code max} bytes. */
  public static byte[] readSmall(ZipFile zf, ZipArchiveEntry ze, Entry e, String file, int max) throws IOException {
    String what = "ZIP entry '" + e.name() + "'";
    if (e.size() > max) {
      throw new ModelFormatException(file, what, e.dataOffset(), "declares " + e.size() + " bytes; at most " + max + " are allowed here");
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) e.size());
    copy(zf, ze, e, file, Channels.newChannel(bytes));
    return bytes.toByteArray();
  }
}
