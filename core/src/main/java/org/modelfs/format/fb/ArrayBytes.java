package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.*;

import java.util.Arrays;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;
import org.modelfs.io.PiecedSource;
import org.modelfs.model.GraphRef.Convention;

/**
 * Where a FlatArray's element bytes are (docs/FORMATS.md §10): its inline {@code buffer}, its
 * {@code bufferChunks} (a {@link PiecedSource} over the chunks' data vectors, ordered by
 * {@code index} when the indices are distinct, else in vector order, cut at
 * {@code totalBufferSize}), or — legacy convention only — the file range
 * {@code appendedDataOffset/appendedDataLength}. Nothing is read but the FlatArray's own tables;
 * every count, length and offset is checked against the buffer first.
 */
final class ArrayBytes {
  /** Most chunks one array may have (16 bytes of index each in the heap). */
  static final int MAX_CHUNKS = 1 << 20;

  private ArrayBytes() {}

  /** A byte range of a source: where an array's stored bytes are. */
  record Located(ByteSource source, long offset, long length) {}

  /**
   * Finds the bytes of {@code arr}; {@code null} when it has none of the three (an SDNB appended
   * stub, or a legacy array without data). {@code budget} (may be null) is charged for the
   * chunk index.
   */
  static Located locate(FbTable arr, FbVector buffer, Convention convention, Budget budget)
      throws ModelFormatException {
    boolean inline = buffer != null && buffer.length() > 0;
    boolean chunked = arr.has(A_BUFFER_CHUNKS);
    boolean appended = convention == Convention.LEGACY && appended(arr);
    if ((inline ? 1 : 0) + (chunked ? 1 : 0) + (appended ? 1 : 0) > 1) {
      throw arr.buffer().error(arr.position(), arr.what(),
          "holds its bytes in more than one of buffer, bufferChunks and appendedData; exactly one is allowed");
    }
    if (chunked) {
      return chunks(arr, budget);
    }
    if (appended) {
      return appendedRange(arr);
    }
    return buffer == null ? null : new Located(arr.buffer().source(), buffer.absoluteDataOffset(), buffer.byteLength());
  }

  /** True when a legacy FlatArray says its bytes are in the file image (DL4J: offset > 0 and length > 0). */
  private static boolean appended(FbTable arr) throws ModelFormatException {
    long off = arr.getLong(A_APPENDED_OFFSET, 0);
    long len = arr.getLong(A_APPENDED_LENGTH, 0);
    if (off < 0 || len < 0) {
      throw arr.buffer().error(arr.position(), arr.what() + ".appendedData",
          "negative appendedDataOffset " + off + " or appendedDataLength " + len);
    }
    if ((off > 0) != (len > 0)) {
      throw arr.buffer().error(arr.position(), arr.what() + ".appendedData",
          "appendedDataOffset " + off + " with appendedDataLength " + len + ": both must be positive or both absent");
    }
    return off > 0;
  }

  private static Located appendedRange(FbTable arr) throws ModelFormatException {
    long off = arr.getLong(A_APPENDED_OFFSET, 0);
    long len = arr.getLong(A_APPENDED_LENGTH, 0);
    FbBuffer buf = arr.buffer();
    if (off > buf.size() || len > buf.size() - off) {
      throw buf.error(arr.position(), arr.what() + ".appendedData", "appended range [" + off + ", " + off + " + " + len
          + ") lies outside the " + buf.size() + "-byte file");
    }
    return new Located(buf.source(), buf.base() + off, len);
  }

  private static Located chunks(FbTable arr, Budget budget) throws ModelFormatException {
    FbBuffer buf = arr.buffer();
    FbVector v = arr.getVector(A_BUFFER_CHUNKS, "bufferChunks", 4);
    String what = arr.what() + ".bufferChunks";
    int k = v.length();
    if (k > MAX_CHUNKS) {
      throw buf.error(v.position(), what, k + " chunks, at most " + MAX_CHUNKS + " allowed");
    }
    if (budget != null) {
      budget.charge(40L * k, v.position(), what);
    }
    long[] index = new long[k];
    long[] start = new long[k];
    long[] length = new long[k];
    long[] vector = new long[k];
    for (int i = 0; i < k; i++) {
      FbTable c = v.getTable(i);
      index[i] = c.getLong(0, 0);
      if (index[i] < 0) {
        throw buf.error(c.position(), c.what() + ".index", "negative chunk index " + index[i]);
      }
      FbVector d = c.getVector(1, "data", 1);
      vector[i] = d == null ? -1 : d.position();
      start[i] = d == null ? 0 : d.absoluteDataOffset();
      length[i] = d == null ? 0 : d.byteLength();
    }
    disjoint(buf, v, what, vector, length);
    Integer[] order = new Integer[k];
    for (int i = 0; i < k; i++) {
      order[i] = i;
    }
    long[] sorted = index.clone();
    Arrays.sort(sorted);
    boolean distinct = true;
    for (int i = 1; i < k && distinct; i++) {
      distinct = sorted[i] != sorted[i - 1];
    }
    if (distinct) {
      Arrays.sort(order, (a, b) -> Long.compare(index[a], index[b]));
    }
    long sum = 0;
    for (long l : length) {
      sum += l; // at most MAX_CHUNKS lengths below 2^31 each: no overflow
    }
    long take = sum;
    if (arr.has(A_TOTAL_BUFFER_SIZE)) {
      take = arr.getLong(A_TOTAL_BUFFER_SIZE, 0);
      if (take < 0 || take > sum) {
        throw buf.error(arr.position(), arr.what() + ".totalBufferSize", "totalBufferSize " + take
            + (take < 0 ? " is negative" : " is more than the " + sum + " bytes its " + k + " chunks hold"));
      }
    }
    // only pieces with bytes are kept: disjoint data vectors of at least 5 bytes of file each
    int pieces = 0;
    long[] starts = new long[k];
    long[] lengths = new long[k];
    long left = take;
    for (int i = 0; i < k && left > 0; i++) {
      int c = order[i];
      long n = Math.min(length[c], left);
      if (n > 0) {
        starts[pieces] = start[c];
        lengths[pieces++] = n;
        left -= n;
      }
    }
    starts = Arrays.copyOf(starts, pieces);
    lengths = Arrays.copyOf(lengths, pieces);
    String name = buf.source().name() + " (bufferChunks of the FlatArray at offset " + arr.absolutePosition() + ")";
    return new Located(new PiecedSource(buf.source(), name, starts, lengths), 0, take);
  }

  /**
   * Refuses chunks whose data vectors (length prefix and bytes) overlap or are shared: honest
   * writers give each chunk its own bytes, and shared ones would let a small file declare an
   * array many times its size.
   */
  private static void disjoint(FbBuffer buf, FbVector v, String what, long[] vector, long[] length)
      throws ModelFormatException {
    int k = vector.length;
    Integer[] byPos = new Integer[k];
    for (int i = 0; i < k; i++) {
      byPos[i] = i;
    }
    Arrays.sort(byPos, (a, b) -> Long.compare(vector[a], vector[b]));
    long end = Long.MIN_VALUE;
    for (int j = 0; j < k; j++) {
      int i = byPos[j];
      if (vector[i] < 0) {
        continue;
      }
      if (vector[i] < end) {
        throw buf.error(vector[i], what + "[" + i + "].data",
            "overlaps the data of another chunk of the same array (chunks must not share bytes)");
      }
      end = vector[i] + 4 + length[i];
    }
  }
}
