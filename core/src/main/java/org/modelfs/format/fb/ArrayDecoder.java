package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.*;

import org.modelfs.format.ModelFormatException;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayData.Storage;
import org.modelfs.model.DType;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.Shapes;

/**
 * Turns a {@code FlatArray} table into an {@link ArrayData} that points at its bytes, without
 * reading them: the legacy format-A meaning (shapeInfo, big-endian) or the SDNB one (dims,
 * little-endian, c/f in the byteOrder slot), per docs/FORMATS.md §4.3 and §5.4. The bytes may be
 * inline, in chunks or (legacy) appended to the file ({@link ArrayBytes}, §10); a legacy UTF8
 * buffer in the older layout is presented in the M2.1 one ({@link Utf8Layout}, §3.8).
 */
public final class ArrayDecoder {
  /** ND4J's maximum rank. */
  public static final int MAX_RANK = Shapes.MAX_RANK;

  private ArrayDecoder() {}

  /** What a FlatArray says before any bytes are attached (SDNB appended stubs stop here). */
  public record Header(DType dtype, long[] shape, char order, boolean empty, FbVector buffer) {}

  /** Decodes a FlatArray of the given convention; {@code null} buffer means "appended stub". */
  public static Header header(FbTable arr, Convention convention) throws ModelFormatException {
    String what = arr.what();
    int code = arr.getByte(A_DTYPE, (byte) 0) & 0xff;
    DType dtype = DType.fromCode(code);
    if (dtype == null) {
      throw arr.buffer().error(arr.position(), what + ".dtype", "unknown data type code " + code);
    }
    if (arr.getBool(A_IS_EXTERNAL, false) || arr.has(A_EXTERNAL_FILENAME)) {
      throw arr.buffer().error(arr.position(), what,
          "external array storage (isExternal/externalDataFilename: no layout was ever specified,"
              + " docs/FORMATS.md §10) is not supported");
    }
    FbVector shapeVec = arr.getVector(A_SHAPE, "shape", 8);
    FbVector buffer = arr.getVector(A_BUFFER, "buffer", 1);
    return convention == Convention.LEGACY
        ? legacy(arr, dtype, shapeVec, buffer)
        : sdnb(arr, dtype, shapeVec, buffer);
  }

  private static Header legacy(FbTable arr, DType dtype, FbVector si, FbVector buffer)
      throws ModelFormatException {
    String what = arr.what() + ".shape";
    if (si == null || si.length() < 1) {
      throw arr.buffer().error(arr.position(), what, "legacy array without shapeInfo");
    }
    long rank = si.getLong(0);
    if (rank < 0 || rank > MAX_RANK) {
      throw arr.buffer().error(si.absoluteDataOffset() - arr.buffer().base(), what, "rank " + rank + " out of range");
    }
    int r = (int) rank;
    if (si.length() < 2 * r + 4) {
      throw arr.buffer().error(si.absoluteDataOffset() - arr.buffer().base(), what,
          "shapeInfo has " + si.length() + " entries, " + (2 * r + 4) + " needed for rank " + r);
    }
    long[] shape = new long[r];
    for (int i = 0; i < r; i++) {
      shape[i] = si.getLong(1 + i);
      if (shape[i] < 0) {
        throw arr.buffer().error(si.absoluteDataOffset() - arr.buffer().base(), what, "negative dimension " + shape[i]);
      }
    }
    long extras = si.getLong(2 * r + 1);
    long orderCode = si.getLong(2 * r + 3);
    char order = orderCode == 102 ? 'f' : 'c';
    boolean empty = (extras & 8) != 0;
    if (empty && r == 0) {
      // M2.1 decodes every empty rank-0 legacy array as Nd4j.empty() = an empty FLOAT,
      // whatever dtype the file records; we show what DL4J reads.
      dtype = DType.FLOAT;
    }
    return new Header(dtype, shape, order, empty, buffer);
  }

  private static Header sdnb(FbTable arr, DType dtype, FbVector dims, FbVector buffer)
      throws ModelFormatException {
    long[] shape = dims == null ? new long[0] : dims.longs(MAX_RANK);
    for (long d : shape) {
      if (d < 0) {
        throw arr.buffer().error(arr.position(), arr.what() + ".shape", "negative dimension " + d);
      }
    }
    char order = arr.getByte(A_BYTE_ORDER, (byte) 0) == 1 ? 'f' : 'c';
    boolean chunked = arr.has(A_BUFFER_CHUNKS);
    boolean hasBytes = chunked || buffer != null && buffer.length() > 0;
    boolean stub = !chunked && (arr.getLong(A_APPENDED_LENGTH, 0) > 0 || arr.getLong(A_TOTAL_BUFFER_SIZE, 0) > 0);
    // DL4J's inline rules (docs/FORMATS.md §5.4): no bytes and no stub = an empty array of that shape.
    boolean empty = !hasBytes && !stub;
    return new Header(dtype, shape, order, empty, hasBytes ? buffer : null);
  }

  /**
   * Decodes an inline FlatArray completely: header plus the location of its bytes, checked
   * against the shape. Returns {@code null} for an SDNB stub (bytes appended elsewhere).
   */
  public static ArrayData inline(FbTable arr, Convention convention) throws ModelFormatException {
    return inline(arr, convention, null);
  }

  /** As {@link #inline(FbTable, Convention)}, charging a chunk index to {@code budget} (may be null). */
  static ArrayData inline(FbTable arr, Convention convention, Budget budget) throws ModelFormatException {
    Header h = header(arr, convention);
    String what = arr.what() + ".buffer";
    if (h.empty()) {
      return new ArrayData(h.dtype(), h.shape(), h.order(), true, arr.buffer().source(), 0, 0, false, Storage.RAW);
    }
    ArrayBytes.Located at = ArrayBytes.locate(arr, h.buffer(), convention, budget);
    if (at == null) {
      if (convention == Convention.SDNB) {
        return null;
      }
      throw arr.buffer().error(arr.position(), what, "array has no data");
    }
    long offset = at.offset();
    long length = at.length();
    // where a fault is reported: the inline bytes, else the FlatArray
    long faultAt = at.source() == arr.buffer().source() ? offset : arr.absolutePosition();
    DType t = h.dtype();
    if (t == DType.UTF8) {
      long n = Shapes.elementCount(h.shape());
      if (n < 0 || n >= length / 8) { // needs (n + 1) int64 offsets; no overflow
        throw arr.buffer().error(faultAt - arr.buffer().base(), what,
            "UTF8 array of " + n + " strings needs (n + 1) 8-byte offsets, but holds only " + length + " bytes");
      }
      if (convention == Convention.LEGACY) {
        at = Utf8Layout.present(at, n, arr.buffer().file());
        offset = at.offset();
        length = at.length();
      }
    } else if (t.width() == 0) {
      throw arr.buffer().error(arr.position(), arr.what() + ".dtype", "data type " + t + " has no fixed width");
    } else {
      long expected = Shapes.byteLength(h.shape(), t.width());
      if (expected != length) {
        throw arr.buffer().error(faultAt - arr.buffer().base(), what,
            "holds " + length + " bytes but " + Shapes.needs(t, h.shape(), t.width()));
      }
    }
    boolean legacy = convention == Convention.LEGACY;
    // Legacy byteOrder: 1 = BE (always, from M2.1); 0 = LE is accepted like DL4J does.
    boolean bigEndian = legacy && arr.getByte(A_BYTE_ORDER, (byte) 0) == 1 && t.legacySwapped();
    return new ArrayData(t, h.shape(), h.order(), false, at.source(), offset, length,
        bigEndian, bigEndian ? Storage.BIG_ENDIAN : Storage.RAW);
  }
}
