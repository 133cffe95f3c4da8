package org.modelfs.format.unified;

import static org.modelfs.format.unified.ContainerLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * One section frame of a container (docs/FORMATS.md §13.2): 24 bytes — type, compression, flags,
 * deflate level, tag index, stored length, raw length — then the data, then (flag bit 0) a
 * CRC-32C, then zeros to the next multiple of 8 (checked).
 *
 * @param offset where the frame starts in the file
 * @param type the section type
 * @param compression how the data is compressed (for ARRAYS: how each chunk is)
 * @param flags flag bits ({@link ContainerLayout#FLAG_CRC})
 * @param level the deflate level the writer used (informative)
 * @param tag index of the tag the section belongs to (0 for container-wide sections)
 * @param stored bytes of data as stored
 * @param raw bytes of data once inflated (= stored when not compressed, and for ARRAYS)
 */
public record Frame(long offset, SectionType type, Compression compression, int flags, int level, int tag,
    long stored, long raw) {

  /** First byte of the data. */
  public long dataOffset() {
    return offset + FRAME;
  }

  /** Whether a CRC-32C follows the data. */
  public boolean hasCrc() {
    return (flags & FLAG_CRC) != 0;
  }

  /** Where the CRC is (when {@link #hasCrc}). */
  public long crcOffset() {
    return dataOffset() + stored;
  }

  /** Where the next frame starts. */
  public long end() {
    return align(crcOffset() + (hasCrc() ? CRC : 0), FRAME_ALIGN);
  }

  /** A short description for messages: {@code GRAPH section (tag 0)}. */
  public String what() {
    return type + " section" + (type.perTag() ? " (tag " + tag + ")" : "");
  }

  /** The 24 header bytes. */
  public byte[] header() {
    ByteBuffer b = ByteBuffer.allocate(FRAME).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) type.code()).put((byte) compression.code()).put((byte) flags).put((byte) level);
    b.putInt(tag).putLong(stored).putLong(raw);
    return b.array();
  }

  /**
   * Reads and checks the frame at {@code offset} of a file of {@code size} bytes: known type and
   * compression, no unknown flag, lengths inside the file.
   */
  public static Frame read(ByteSource src, long offset, long size) throws IOException {
    String file = src.name();
    if (size - offset < FRAME) {
      throw new ModelFormatException(file, "container section frame", offset,
          "the file ends " + (size - offset) + " bytes after the frame's start; a frame takes " + FRAME);
    }
    ByteBuffer b = ByteBuffer.allocate(FRAME).order(ByteOrder.LITTLE_ENDIAN);
    src.readFully(b, offset);
    b.flip();
    int t = b.get() & 0xff;
    int c = b.get() & 0xff;
    int flags = b.get() & 0xff;
    int level = b.get() & 0xff;
    int tag = b.getInt();
    long stored = b.getLong();
    long raw = b.getLong();
    SectionType type = SectionType.of(t);
    if (type == null) {
      throw new ModelFormatException(file, "container section frame", offset, "unknown section type " + t
          + " (known: 0 HEADER, 1 METADATA, 2 GRAPH, 3 ARRAYS, 4 SHARD_INFO)");
    }
    String what = type + " section frame";
    Compression comp = Compression.of(c);
    if (comp == null) {
      throw new ModelFormatException(file, what, offset + 1, "unknown compression " + c + " (known: 0 NONE, 1 DEFLATE, 2 ZSTD)");
    }
    if ((flags & ~FLAG_CRC) != 0) {
      throw new ModelFormatException(file, what, offset + 2, "unknown flag bits 0x" + Integer.toHexString(flags));
    }
    if ((flags & FLAG_CRC) == 0) {
      throw new ModelFormatException(file, what, offset + 2,
          "has no CRC-32C; a section without one is refused (docs/FORMATS.md §13.2)");
    }
    if (level > 9) {
      throw new ModelFormatException(file, what, offset + 3, "deflate level " + level + " (0-9)");
    }
    if (tag < 0 || (!type.perTag() && tag != 0)) {
      throw new ModelFormatException(file, what, offset + 4, "tag index " + Integer.toUnsignedString(tag)
          + (type.perTag() ? "" : " on a section that belongs to no tag"));
    }
    long room = size - offset - FRAME - ((flags & FLAG_CRC) != 0 ? CRC : 0);
    if (stored < 0 || stored > room) {
      throw new ModelFormatException(file, what, offset + 8, "data of " + Long.toUnsignedString(stored)
          + " bytes, but only " + Math.max(0, room) + " bytes of the file follow the frame");
    }
    if (raw < 0 || (comp == Compression.NONE || type == SectionType.ARRAYS) && raw != stored) {
      throw new ModelFormatException(file, what, offset + 16, "raw length " + Long.toUnsignedString(raw)
          + " differs from the stored length " + stored + " of data that is not compressed as a whole");
    }
    Frame f = new Frame(offset, type, comp, flags, level, tag, stored, raw);
    f.checkPadding(src, size);
    return f;
  }

  /**
   * The bytes after the data (and CRC) up to the next frame are zeros and lie in the file: else a
   * changed flag bit could turn a CRC into unchecked padding (docs/FORMATS.md §13.2).
   */
  private void checkPadding(ByteSource src, long size) throws IOException {
    long from = crcOffset() + (hasCrc() ? CRC : 0);
    if (end() > size) {
      throw new ModelFormatException(src.name(), what(), from, "the file ends inside the padding to the next "
          + "multiple of " + FRAME_ALIGN + " (" + (end() - size) + " bytes missing)");
    }
    ByteBuffer b = ByteBuffer.allocate((int) (end() - from));
    src.readFully(b, from);
    for (int i = 0; i < b.capacity(); i++) {
      if (b.get(i) != 0) {
        throw new ModelFormatException(src.name(), what(), from + i, "padding byte after the section's "
            + (hasCrc() ? "CRC" : "data (it has no CRC)") + " is not zero");
      }
    }
  }
}
