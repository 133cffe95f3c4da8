package org.modelfs.dl4j;

import java.nio.ByteBuffer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.modelfs.io.ByteSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The bytes of one ND4J array, read where ND4J keeps them (off-heap, native byte order): each read
 * copies from a view of the native memory straight into the caller's buffer, so a save holds no
 * second copy of the array in the heap, and no view is larger than {@link #MAX_VIEW} (arrays of
 * more than 2 GiB are read in pieces, which {@code DataBuffer.asNio()} cannot).
 */
final class OffHeapSource implements ByteSource {
  /** The largest native view one read makes. */
  static final int MAX_VIEW = 1 << 30;

  private final String name;
  private final INDArray array; // keeps the native memory alive as long as this source is
  private final Pointer base;
  private final long start; // byte offset of the first element in base
  private final long size;

  /**
   * The {@code size} bytes of {@code array}'s buffer from element {@code array.offset()}: its
   * elements when it is {@link NdArrays#dense} (a whole buffer, or a dense window of one such as
   * Adam's {@code M} and {@code V} in the updater's state array).
   */
  OffHeapSource(String name, INDArray array, long size) {
    this.name = name;
    this.array = array;
    this.base = array.data().addressPointer();
    this.start = array.offset() * array.data().getElementSize();
    this.size = size;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public int read(ByteBuffer dst, long position) {
    if (position >= size) {
      return -1;
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    ByteBuffer view = window(position, dst.remaining());
    int n = view.remaining();
    dst.put(view);
    return n;
  }

  @Override
  public ByteBuffer window(long position, int length) {
    long n = Math.min(Math.min(length, MAX_VIEW), size - position);
    BytePointer p = new BytePointer(base);
    p.position(start + position).limit(start + position + n);
    return p.asByteBuffer().asReadOnlyBuffer();
  }

  /** The array read. */
  INDArray array() {
    return array;
  }

  @Override
  public void close() {
    // the array's memory is ND4J's
  }
}
