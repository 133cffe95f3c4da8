package org.modelfs.format.unified;

import java.nio.charset.StandardCharsets;

/**
 * Every constant of the container format (docs/FORMATS.md §13): the preamble, the section frame,
 * the section types and compressions, chunk sizes and alignment. One place knows them; the
 * reader and the writer only use them.
 */
public final class ContainerLayout {
  /** The 14 ASCII bytes a container starts with (the ADR's "12-byte" magic is 14 characters long). */
  public static final byte[] MAGIC = "SAMEDIFF_MODEL".getBytes(StandardCharsets.US_ASCII);
  /** The only container version there is. */
  public static final int VERSION = 1;
  /** Offset of the version (a little-endian u32): after the magic and two zero bytes. */
  public static final int VERSION_OFFSET = 16;
  /** Size of the preamble: magic, 2 zero bytes, version, 12 zero bytes; the first frame follows. */
  public static final int PREAMBLE = 32;
  /** Size of a section frame header. */
  public static final int FRAME = 24;
  /** Size of the CRC-32C after a section's data. */
  public static final int CRC = 4;
  /** Frames start at multiples of this. */
  public static final int FRAME_ALIGN = 8;
  /** Stored (uncompressed) chunks start at file offsets that are multiples of this. */
  public static final int DATA_ALIGN = 64;
  /** Flag bit: a CRC-32C of the section follows its data. */
  public static final int FLAG_CRC = 1;

  /** Raw bytes per chunk of a stored array: the unit of its CRC-32C (every chunk but the last). */
  public static final long STORED_CHUNK = 64L << 20;
  /** Raw bytes per chunk of a deflated array: the unit of compression and of random access. */
  public static final int DEFLATE_CHUNK = 256 << 10;
  /** The largest chunk a reader accepts: stored chunks are never held in memory, deflated ones are. */
  public static final long MAX_STORED_CHUNK = 1L << 30;
  /** The largest deflated chunk (raw bytes) a reader inflates into the heap. */
  public static final int MAX_DEFLATE_CHUNK = 16 << 20;
  /** The largest section a reader brings into the heap (header, metadata, shard info, array index). */
  public static final long MAX_HEAP_SECTION = 256L << 20;
  /** Budget of a compressed section brought into the heap: raw ≤ this × stored + 1 MiB. */
  public static final long INFLATE_FACTOR = 64;

  private ContainerLayout() {}

  /** The section types, with the codes of DL4J's {@code container.fbs} {@code SectionType}. */
  public enum SectionType {
    HEADER, METADATA, GRAPH, ARRAYS, SHARD_INFO;

    /** The byte in a frame. */
    public int code() {
      return ordinal();
    }

    /** The type of a code, or {@code null}. */
    public static SectionType of(int code) {
      return code >= 0 && code < values().length ? values()[code] : null;
    }

    /** Whether sections of this type belong to one tag (the frame names it). */
    public boolean perTag() {
      return this == METADATA || this == GRAPH || this == ARRAYS;
    }
  }

  /** Compressions, with the codes of {@code container.fbs} {@code CompressionType}. */
  public enum Compression {
    NONE, DEFLATE, ZSTD;

    /** The byte in a frame. */
    public int code() {
      return ordinal();
    }

    /** The compression of a code, or {@code null}. */
    public static Compression of(int code) {
      return code >= 0 && code < values().length ? values()[code] : null;
    }
  }

  /** {@code x} rounded up to a multiple of {@code a}. */
  public static long align(long x, long a) {
    return (x + a - 1) / a * a;
  }
}
