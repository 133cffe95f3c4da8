package org.modelfs.format.fb;

import org.modelfs.format.ModelFormatException;

/**
 * A FlatBuffers vector whose bounds were checked when it was found: element access by index for
 * scalars, strings and tables, and the absolute position of its data for byte vectors.
 */
public final class FbVector {
  private final FbBuffer buf;
  private final long data;
  private final int length;
  private final int elemSize;
  private final String what;

  FbVector(FbBuffer buf, long data, int length, int elemSize, String what) {
    this.buf = buf;
    this.data = data;
    this.length = length;
    this.elemSize = elemSize;
    this.what = what;
  }

  /** Buffer position of the vector (its length prefix): what identifies a shared vector. */
  public long position() {
    return data - 4;
  }

  /** Name of this vector for messages, e.g. {@code FlatNode.extraInteger}. */
  public String what() {
    return what;
  }

  /** Buffer position of string element {@code i} (where its uoffset points). */
  long stringPosition(int i) throws ModelFormatException {
    return buf.deref(data + 4L * i, what + "[" + i + "]");
  }

  public int length() {
    return length;
  }

  /** Absolute offset of element 0 in the source (for byte vectors holding array data). */
  public long absoluteDataOffset() {
    return buf.base() + data;
  }

  /** Size of the data in bytes. */
  public long byteLength() {
    return (long) length * elemSize;
  }

  public byte getByte(int i) throws ModelFormatException {
    return buf.getByte(data + (long) i * elemSize);
  }

  public int getInt(int i) throws ModelFormatException {
    return buf.getInt(data + (long) i * elemSize);
  }

  public long getLong(int i) throws ModelFormatException {
    return buf.getLong(data + (long) i * elemSize);
  }

  public double getDouble(int i) throws ModelFormatException {
    return Double.longBitsToDouble(getLong(i));
  }

  public long[] longs(int max) throws ModelFormatException {
    if (length > max) {
      throw buf.error(data - 4, what, length + " elements, at most " + max + " expected");
    }
    long[] out = new long[length];
    for (int i = 0; i < length; i++) {
      out[i] = getLong(i);
    }
    return out;
  }

  /** The raw bytes of a byte vector (callers bound the size first). */
  public byte[] bytes() throws ModelFormatException {
    return buf.getBytes(data, (int) byteLength(), what);
  }

  public String getString(int i) throws ModelFormatException {
    return buf.string(data + 4L * i, what + "[" + i + "]");
  }

  public FbTable getTable(int i) throws ModelFormatException {
    String w = what + "[" + i + "]";
    return buf.table(buf.deref(data + 4L * i, w), w);
  }

  /** All string elements. */
  public String[] strings() throws ModelFormatException {
    String[] out = new String[length];
    for (int i = 0; i < length; i++) {
      out[i] = getString(i);
    }
    return out;
  }
}
