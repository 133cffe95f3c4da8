package org.modelfs.format.unified;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.format.BudgetExceededException;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.ArrayDecoder;
import org.modelfs.format.fb.FbBuffer;
import org.modelfs.format.fb.FbTable;
import org.modelfs.format.fb.FbVector;
import org.modelfs.format.fb.Slots;
import org.modelfs.format.fb.gen.FlatArray;
import org.modelfs.io.ByteSource;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;

/**
 * The index at the end of an ARRAYS section (docs/FORMATS.md §13.5): a FlatBuffer
 * {@code ArraysSection} of {@code container.fbs} whose {@code ArrayEntry} tables we extend with
 * slots 2–6 (updater key, chunk size, and each chunk's offset, stored length and CRC-32C). The
 * entry's {@code FlatArray} carries type, dimensions and order in the SDNB convention and the
 * raw length in {@code totalBufferSize}; it never holds bytes.
 */
final class ArrayIndex {
  static final int SECTION_ARRAYS = 0;
  static final int ENTRY_NAME = 0;
  static final int ENTRY_ARRAY = 1;
  static final int ENTRY_UPDATER_KEY = 2;
  static final int ENTRY_CHUNK_SIZE = 3;
  static final int ENTRY_OFFSETS = 4;
  static final int ENTRY_LENGTHS = 5;
  static final int ENTRY_CRCS = 6;

  private ArrayIndex() {}

  /**
   * One array of the section.
   *
   * @param name the variable, or the parameter an updater state belongs to
   * @param updaterKey the updater state key ({@code M}, {@code V}, …), or {@code null} for a variable
   * @param raw the array's bytes (little-endian elements, or the UTF8 layout of docs/FORMATS.md §3.8)
   * @param chunkSize raw bytes per chunk (every chunk but the last)
   * @param offsets absolute file offset of each chunk as stored
   * @param lengths stored bytes of each chunk
   * @param crcs CRC-32C of each chunk's stored bytes
   */
  record Entry(String name, String updaterKey, DType dtype, long[] shape, char order, long raw, long chunkSize,
      long[] offsets, long[] lengths, int[] crcs) {
    /** Number of chunks: raw / chunk size, rounded up. */
    int chunks() {
      return offsets.length;
    }

    /** Raw bytes of chunk {@code i}. */
    long rawChunk(int i) {
      return i < offsets.length - 1 ? chunkSize : raw - chunkSize * (offsets.length - 1);
    }

    String what() {
      return updaterKey == null ? "array '" + name + "'" : "updater state '" + name + "/" + updaterKey + "'";
    }
  }

  /** The index FlatBuffer of {@code entries}, with {@code stored} arrays also as SDNB-style appended ranges. */
  static byte[] write(List<Entry> entries, boolean stored) {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int[] offs = new int[entries.size()];
    for (int i = 0; i < offs.length; i++) {
      Entry e = entries.get(i);
      int name = b.createString(e.name());
      int key = e.updaterKey() == null ? 0 : b.createString(e.updaterKey());
      int shape = FlatArray.createShapeVector(b, e.shape());
      FlatArray.startFlatArray(b);
      FlatArray.addShape(b, shape);
      FlatArray.addDtype(b, (byte) e.dtype().code());
      FlatArray.addByteOrder(b, (byte) (e.order() == 'f' ? 1 : 0));
      FlatArray.addTotalBufferSize(b, e.raw());
      if (stored && e.raw() > 0) {
        FlatArray.addAppendedDataOffset(b, e.offsets()[0]);
        FlatArray.addAppendedDataLength(b, e.raw());
      }
      int array = FlatArray.endFlatArray(b);
      int offsets = longs(b, e.offsets());
      int lengths = longs(b, e.lengths());
      b.startVector(4, e.crcs().length, 4);
      for (int k = e.crcs().length - 1; k >= 0; k--) {
        b.addInt(e.crcs()[k]);
      }
      int crcs = b.endVector();
      b.startTable(7);
      b.addLong(ENTRY_CHUNK_SIZE, e.chunkSize(), 0);
      b.addOffset(ENTRY_NAME, name, 0);
      b.addOffset(ENTRY_ARRAY, array, 0);
      b.addOffset(ENTRY_UPDATER_KEY, key, 0);
      b.addOffset(ENTRY_OFFSETS, offsets, 0);
      b.addOffset(ENTRY_LENGTHS, lengths, 0);
      b.addOffset(ENTRY_CRCS, crcs, 0);
      offs[i] = b.endTable();
    }
    b.startVector(4, offs.length, 4);
    for (int i = offs.length - 1; i >= 0; i--) {
      b.addOffset(offs[i]);
    }
    int vec = b.endVector();
    b.startTable(1);
    b.addOffset(SECTION_ARRAYS, vec, 0);
    b.finish(b.endTable());
    return b.sizedByteArray();
  }

  private static int longs(FlatBufferBuilder b, long[] v) {
    b.startVector(8, v.length, 8);
    for (int k = v.length - 1; k >= 0; k--) {
      b.addLong(v[k]);
    }
    return b.endVector();
  }

  /**
   * Reads and checks the index at {@code [start, start + length)} of {@code src}: every entry's
   * type, shape, raw length, and a chunk table that fits it. Where chunks lie is checked by the
   * caller, which knows the section.
   *
   * @param deflated whether chunks are deflated (else stored, contiguous, raw = stored)
   */
  static List<Entry> read(ByteSource src, long start, long length, boolean deflated) throws ModelFormatException {
    String file = src.name();
    FbBuffer buf = new FbBuffer(src, start, length, file);
    FbTable root = buf.root("ArraysSection");
    FbVector arrays = root.getVector(SECTION_ARRAYS, "arrays", 4);
    int n = arrays == null ? 0 : arrays.length();
    List<Entry> out = new ArrayList<>(Math.min(n, 1 << 16));
    Budget budget = new Budget(file, length);
    for (int i = 0; i < n; i++) {
      FbTable t = arrays.getTable(i);
      long at = t.absolutePosition();
      budget.charge(stringBytes(t, ENTRY_NAME) + stringBytes(t, ENTRY_UPDATER_KEY) + 16, at, "ArrayEntry " + i);
      String name = t.getString(ENTRY_NAME, "variable_name");
      if (name == null) {
        throw new ModelFormatException(file, "ArrayEntry " + i, at, "has no variable_name");
      }
      String key = t.getString(ENTRY_UPDATER_KEY, "updater_key");
      String what = "ArrayEntry " + i + " ('" + name + (key == null ? "" : "/" + key) + "')";
      FbTable a = t.getTable(ENTRY_ARRAY, "array");
      if (a == null) {
        throw new ModelFormatException(file, what, at, "has no FlatArray");
      }
      int code = a.getByte(Slots.A_DTYPE, (byte) 0) & 0xff;
      DType dtype = DType.fromCode(code);
      if (dtype == null || (dtype.width() == 0 && dtype != DType.UTF8)) {
        throw new ModelFormatException(file, what + ".dtype", a.absolutePosition(), "data type code " + code
            + " is not a stored array type");
      }
      FbVector dims = a.getVector(Slots.A_SHAPE, "shape", 8);
      long[] shape = dims == null ? new long[0] : dims.longs(ArrayDecoder.MAX_RANK);
      for (long d : shape) {
        if (d < 0) {
          throw new ModelFormatException(file, what + ".shape", a.absolutePosition(), "negative dimension " + d);
        }
      }
      char order = a.getByte(Slots.A_BYTE_ORDER, (byte) 0) == 1 ? 'f' : 'c';
      long raw = a.getLong(Slots.A_TOTAL_BUFFER_SIZE, 0);
      if (a.has(Slots.A_BUFFER) || a.has(Slots.A_BUFFER_CHUNKS) || a.getBool(Slots.A_IS_EXTERNAL, false)) {
        throw new ModelFormatException(file, what, a.absolutePosition(),
            "FlatArray holds bytes of its own; a container's arrays are in its chunks");
      }
      checkLength(file, what, a.absolutePosition(), dtype, shape, raw);
      long chunkSize = t.getLong(ENTRY_CHUNK_SIZE, 0);
      long maxChunk = deflated ? ContainerLayout.MAX_DEFLATE_CHUNK : ContainerLayout.MAX_STORED_CHUNK;
      long chunks = raw == 0 ? 0 : chunkSize < 1 || chunkSize > maxChunk ? -1 : (raw + chunkSize - 1) / chunkSize;
      if (chunks < 0) {
        throw new ModelFormatException(file, what + ".chunk_size", at, "chunk size " + chunkSize + " outside [1, "
            + maxChunk + "] for " + (deflated ? "deflated" : "stored") + " chunks");
      }
      FbVector ov = t.getVector(ENTRY_OFFSETS, "chunk_offsets", 8);
      FbVector lv = t.getVector(ENTRY_LENGTHS, "chunk_lengths", 8);
      FbVector cv = t.getVector(ENTRY_CRCS, "chunk_crcs", 4);
      int no = ov == null ? 0 : ov.length();
      int nl = lv == null ? 0 : lv.length();
      int nc = cv == null ? 0 : cv.length();
      if (no != chunks || nl != chunks || nc != chunks) {
        throw new ModelFormatException(file, what, at, raw + " bytes in chunks of " + chunkSize + " make " + chunks
            + " chunks, but the entry lists " + no + " offsets, " + nl + " lengths and " + nc + " CRCs");
      }
      // each chunk takes 20 bytes of an honest index: tables that share one chunk table, or one
      // name, cannot make the reader hold more than the index is
      budget.charge(20 * chunks, at, what + " chunk table");
      long[] offsets = new long[no];
      long[] lengths = new long[nl];
      int[] crcs = new int[nc];
      for (int k = 0; k < chunks; k++) {
        offsets[k] = ov.getLong(k);
        lengths[k] = lv.getLong(k);
        crcs[k] = cv.getInt(k);
      }
      Entry e = new Entry(name, key, dtype, shape, order, raw, chunkSize, offsets, lengths, crcs);
      for (int k = 0; k < chunks; k++) {
        long r = e.rawChunk(k);
        long max = deflated ? r + r / 64 + 64 : r;
        if (lengths[k] < (deflated ? 1 : r) || lengths[k] > max) {
          throw new ModelFormatException(file, what + " chunk " + k, at, "stored length " + lengths[k] + " for "
              + r + " raw bytes (" + (deflated ? "a deflated chunk takes 1 to " + max : "a stored chunk takes exactly " + r) + ")");
        }
        if (!deflated && k > 0 && offsets[k] != offsets[k - 1] + lengths[k - 1]) {
          throw new ModelFormatException(file, what + " chunk " + k, at, "starts at " + offsets[k]
              + ", not right after chunk " + (k - 1) + " (" + (offsets[k - 1] + lengths[k - 1])
              + "): a stored array's chunks are contiguous");
        }
      }
      if (!deflated && raw > 0 && a.has(Slots.A_APPENDED_OFFSET) && (a.getLong(Slots.A_APPENDED_OFFSET, 0) != offsets[0]
          || a.getLong(Slots.A_APPENDED_LENGTH, 0) != raw)) {
        throw new ModelFormatException(file, what, a.absolutePosition(), "appendedDataOffset/Length ("
            + a.getLong(Slots.A_APPENDED_OFFSET, 0) + ", " + a.getLong(Slots.A_APPENDED_LENGTH, 0)
            + ") disagree with the chunk table (" + offsets[0] + ", " + raw + ")");
      }
      out.add(e);
    }
    return out;
  }

  private static void checkLength(String file, String what, long at, DType dtype, long[] shape, long raw)
      throws ModelFormatException {
    if (raw < 0) {
      throw new ModelFormatException(file, what + ".totalBufferSize", at, "negative length " + raw);
    }
    if (raw == 0) {
      return; // empty
    }
    if (dtype == DType.UTF8) {
      long n = Shapes.elementCount(shape);
      if (n < 0 || n >= raw / 8) {
        throw new ModelFormatException(file, what + ".totalBufferSize", at, "UTF8 array of " + n
            + " strings needs (n + 1) 8-byte offsets, but holds only " + raw + " bytes");
      }
      return;
    }
    long expected = Shapes.byteLength(shape, dtype.width());
    if (expected != raw) {
      throw new ModelFormatException(file, what + ".totalBufferSize", at, "holds " + raw + " bytes but "
          + Shapes.needs(dtype, shape, dtype.width()));
    }
  }


  /** The UTF-8 byte length of the string in {@code slot}, without decoding it (0 when absent). */
  static long stringBytes(FbTable t, int slot) throws ModelFormatException {
    FbVector v = t.getVector(slot, "string", 1);
    return v == null ? 0 : v.length();
  }

  /**
   * What a reader may hold of a table it copies out of {@code size} bytes: never more than those
   * bytes, so tables that share one vector or string many times are refused before they are
   * copied (docs/FORMATS.md §13.10).
   */
  static final class Budget {
    private final String file;
    private final long size;
    private long left;

    Budget(String file, long size) {
      this.file = file;
      this.size = size;
      this.left = size;
    }

    void charge(long bytes, long at, String what) throws BudgetExceededException {
      left -= bytes;
      if (left < 0) {
        throw new BudgetExceededException(file, what, at, "the section's tables would take more"
            + " than its " + size + " bytes (tables sharing one vector or string many times)");
      }
    }
  }
}
