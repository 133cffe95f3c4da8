package org.modelfs.model;


/**
 * The element types a SameDiff array can have: the FlatBuffers {@code DType} byte code, the ND4J
 * {@code DataType} name users see, the element width and the legacy shapeInfo "extras" bits.
 */
public enum DType {
  BOOL(1, "BOOL", 1, 524288L),
  FLOAT8(2, "FLOAT8", 1, 0L),
  HALF(3, "HALF", 2, 4096L),
  FLOAT(5, "FLOAT", 4, 8192L),
  DOUBLE(6, "DOUBLE", 8, 16384L),
  INT8(7, "BYTE", 1, 32768L),
  INT16(8, "SHORT", 2, 65536L),
  INT32(9, "INT", 4, 131072L),
  INT64(10, "LONG", 8, 262144L),
  UINT8(11, "UBYTE", 1, 8388608L + 32768L),
  UINT16(12, "UINT16", 2, 8388608L + 65536L),
  UINT32(13, "UINT32", 4, 8388608L + 131072L),
  UINT64(14, "UINT64", 8, 8388608L + 262144L),
  QINT8(15, "QINT8", 1, 0L),
  QINT16(16, "QINT16", 2, 0L),
  BFLOAT16(17, "BFLOAT16", 2, 2048L),
  UTF8(50, "UTF8", 0, 1048576L);

  /** The type of each code byte ({@code null}: not a type): an array, no boxing per lookup. */
  private static final DType[] BY_CODE = new DType[256];

  static {
    for (DType t : values()) {
      BY_CODE[t.code] = t; // codes are distinct, 1 to 50
    }
  }

  private final int code;
  private final String nd4jName;
  private final int width;
  private final long legacyExtras;

  DType(int code, String nd4jName, int width, long legacyExtras) {
    this.code = code;
    this.nd4jName = nd4jName;
    this.width = width;
    this.legacyExtras = legacyExtras;
  }

  /** The FlatBuffers {@code DType} byte. */
  public int code() {
    return code;
  }

  /** ND4J's {@code DataType} name ({@code FLOAT}, {@code INT}, {@code UBYTE}, …). */
  public String nd4jName() {
    return nd4jName;
  }

  /** Bytes per element; 0 for the variable-length {@link #UTF8}. */
  public int width() {
    return width;
  }

  /**
   * Whether the elements are IEEE-style binary floating point: DOUBLE, FLOAT, HALF (binary16) and
   * BFLOAT16. FLOAT8 is not: ND4J defines no encoding for it.
   */
  public boolean isFloatingPoint() {
    return this == DOUBLE || this == FLOAT || this == HALF || this == BFLOAT16;
  }

  /**
   * Whether legacy (format A) files hold this type's elements byte-swapped to big-endian. DL4J
   * 1.0.0-M2.1 writes BFLOAT16 and UINT16 swapped but reads them back without swapping, so what
   * M2.1 sees is the stored bytes as they are; we read and write those two types unswapped too,
   * which keeps fb → any format → fb byte-identical and shows what DL4J reads.
   */
  public boolean legacySwapped() {
    return width > 1 && this != BFLOAT16 && this != UINT16;
  }

  /** The dtype bits of a legacy (format A) shapeInfo "extras" field; 0 if unknown to M2.1. */
  public long legacyExtras() {
    return legacyExtras;
  }

  /** The type for a FlatBuffers {@code DType} byte, or {@code null} if the byte is not a known type. */
  public static DType fromCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }

  /** The type with this ND4J {@code DataType} name ({@code FLOAT}, …, any case), or {@code null}. */
  public static DType fromName(String name) {
    for (DType t : values()) {
      if (t.nd4jName.equalsIgnoreCase(name)) {
        return t;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return nd4jName;
  }
}
