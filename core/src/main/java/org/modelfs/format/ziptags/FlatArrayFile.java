package org.modelfs.format.ziptags;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.ArrayDecoder;
import org.modelfs.format.fb.FbBuffer;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.model.ArrayStreams;
import org.modelfs.io.ByteSource;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.ArrayData;
import org.modelfs.model.GraphRef.Convention;

/**
 * One array as a {@code params/<i>.fb} or {@code updater/<i>.fb} file: a FlatBuffer whose root
 * is a {@code FlatArray} in the SDNB convention (shape = dimensions, byteOrder slot = c/f
 * ordering, elements little-endian in {@code buffer}). We lay it out by hand so the header comes
 * first and the elements start 64-byte aligned at the end: streamable, and mappable in place
 * from a STORED entry.
 */
final class FlatArrayFile {
  /** Alignment of the element bytes within the file. */
  static final int ALIGN = GraphWriter.BLOB_ALIGN;
  /** A FlatBuffer vector length is 32 bits, and Java readers index buffers with ints. */
  static final long MAX_BYTES = GraphWriter.MAX_FLATBUFFER - 4096;

  private FlatArrayFile() {}

  /** The header bytes for {@code a}; its elements follow directly. */
  static byte[] header(ArrayData a) {
    long[] shape = a.shape();
    boolean data = !a.empty();
    // [0] root uoffset, [4] vtable (4 fields), [16] table, [36] shape vector, then buffer vector
    int shapeLen = 36;
    int afterShape = shapeLen + 4 + 8 * shape.length;
    int bufLen = data ? alignUp(afterShape + 4, ALIGN) - 4 : afterShape;
    int size = data ? bufLen + 4 : afterShape;
    ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, 16);
    b.putShort(4, (short) 12); // vtable bytes
    b.putShort(6, (short) 14); // table bytes
    b.putShort(8, (short) 4); // shape
    b.putShort(10, (short) (data ? 8 : 0)); // buffer
    b.putShort(12, (short) 12); // dtype
    b.putShort(14, (short) 13); // byteOrder = ordering
    b.putInt(16, 16 - 4); // table → vtable
    b.putInt(20, shapeLen - 20);
    if (data) {
      b.putInt(24, bufLen - 24);
    }
    b.put(28, (byte) a.dtype().code());
    b.put(29, (byte) (a.order() == 'f' ? 1 : 0));
    b.putInt(shapeLen, shape.length);
    for (int i = 0; i < shape.length; i++) {
      b.putLong(shapeLen + 4 + 8 * i, shape[i]);
    }
    if (data) {
      b.putInt(bufLen, Math.toIntExact(a.length()));
    }
    return b.array();
  }

  /** Bytes of the whole file for {@code a}. */
  static long size(ArrayData a) {
    return header(a).length + (a.empty() ? 0 : a.length());
  }

  /** Writes the file for {@code a}: header, then its elements little-endian. */
  static void write(ArrayData a, CountingOutput out) throws IOException {
    out.write(header(a));
    if (!a.empty()) {
      ArrayStreams.copyLittleEndian(a, out);
    }
  }

  /** Reads the file in {@code src}: the array it holds, pointing into {@code src}. */
  static ArrayData read(ByteSource src, String file) throws IOException {
    long size = src.size();
    if (size < 8 || size > GraphWriter.MAX_FLATBUFFER) {
      throw new ModelFormatException(file, "FlatArray file", 0, "size " + size + " is not that of a FlatArray FlatBuffer");
    }
    FbBuffer buf = new FbBuffer(src, 0, size, file);
    ArrayData a = ArrayDecoder.inline(buf.root("FlatArray"), Convention.SDNB);
    if (a == null) {
      throw new ModelFormatException(file, "FlatArray", 0, "an appended-array stub; a zip-tags array file holds its elements itself");
    }
    return a;
  }

  private static int alignUp(int v, int a) {
    return (v + a - 1) / a * a;
  }
}
