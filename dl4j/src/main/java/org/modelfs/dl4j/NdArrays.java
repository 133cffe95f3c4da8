package org.modelfs.dl4j;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import org.bytedeco.javacpp.BytePointer;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.DType;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.shape.Shape;
import org.nd4j.linalg.factory.Nd4j;

/**
 * ND4J arrays to ModelFS {@link ArrayData} and back, through the arrays' off-heap memory: no array
 * passes through the heap whole. UTF-8 and empty arrays are not handled here: they have no plain
 * element buffer, and the bridge leaves them inline in the graph, where DL4J writes and reads them
 * itself.
 */
final class NdArrays {
  private static final boolean NATIVE_BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

  private NdArrays() {}

  /** True when {@link #data} cannot carry {@code arr}: the bridge leaves it in the graph. */
  static boolean inline(INDArray arr) {
    return arr.isEmpty() || arr.dataType() == DataType.UTF8;
  }

  /**
   * {@code arr} as a stored array whose bytes are read from ND4J's memory when written. A view or
   * an array that shares a larger buffer is first copied (off-heap) to one of its own.
   */
  static ArrayData data(String name, INDArray arr) throws IOException {
    DType t = DType.fromName(arr.dataType().name());
    if (t == null || t.width() == 0) {
      throw new IOException(name + ": ND4J data type " + arr.dataType() + " has no ModelFS array type");
    }
    INDArray own = contiguous(arr);
    long bytes = own.length() * t.width();
    return new ArrayData(t, own.shape(), own.ordering(), false, new OffHeapSource(name, own, bytes), 0, bytes,
        NATIVE_BIG_ENDIAN, ArrayData.Storage.RAW);
  }

  /**
   * {@code arr} when its elements lie densely in its buffer in its own order from
   * {@code arr.offset()} (a whole buffer, or a dense view such as Adam's {@code M} and {@code V}
   * inside the updater's state array), else a copy of it in a buffer of its own (off-heap).
   */
  static INDArray contiguous(INDArray arr) {
    return dense(arr) ? arr : arr.dup(arr.ordering());
  }

  /** True when {@code arr}'s elements are the {@code arr.length()} elements of its buffer from its offset. */
  static boolean dense(INDArray arr) {
    // default strides: the elements are one dense run in arr's order, from its offset
    return Shape.hasDefaultStridesForShape(arr) && arr.offset() + arr.length() <= arr.data().length();
  }

  /** A new off-heap ND4J array holding {@code a}'s elements, copied once from its container. */
  static INDArray array(String name, ArrayData a) throws IOException {
    DataType dt;
    try {
      dt = DataType.valueOf(a.dtype().nd4jName());
    } catch (IllegalArgumentException e) {
      throw new IOException(name + ": data type " + a.dtype() + " has no ND4J equivalent", e);
    }
    INDArray arr = Nd4j.createUninitialized(dt, a.shape(), a.order());
    long bytes = arr.length() * a.dtype().width();
    if (bytes != a.length()) {
      throw new IOException(name + ": stored array of " + a.length() + " bytes, but " + a.dtype() + " "
          + Arrays.toString(a.shape()) + " needs " + bytes);
    }
    NativeWriter out = new NativeWriter(new BytePointer(arr.data().addressPointer()), bytes);
    if (NATIVE_BIG_ENDIAN) {
      ArrayStreams.copyBigEndian(a, out);
    } else {
      ArrayStreams.copyLittleEndian(a, out);
    }
    if (out.written != bytes) {
      throw new IOException(name + ": read " + out.written + " of " + bytes + " bytes of its array");
    }
    return arr;
  }

  /** Writes into native memory, in pieces of at most {@link OffHeapSource#MAX_VIEW}. */
  private static final class NativeWriter implements WritableByteChannel {
    private final BytePointer base;
    private final long size;
    long written;

    NativeWriter(BytePointer base, long size) {
      this.base = base;
      this.size = size;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      int n = src.remaining();
      if (n == 0) {
        return 0;
      }
      if (written + n > size) {
        throw new IOException("array data longer than its shape: " + (written + n) + " > " + size + " bytes");
      }
      BytePointer p = new BytePointer(base);
      p.position(written).limit(written + n);
      p.asByteBuffer().put(src);
      written += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {
      // the memory is the array's
    }
  }
}
