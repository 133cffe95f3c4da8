package org.modelfs.format.fb;

import org.modelfs.format.ModelFormatException;

/**
 * One FlatBuffers table inside an {@link FbBuffer}: slot lookup through its vtable, with absent
 * slots answered by the caller's default. Accessors name the field in any error they raise.
 */
public final class FbTable {
  private final FbBuffer buf;
  private final long pos;
  private final long vtable;
  private final int vtLen;
  private final int tableLen;
  private final String what;

  FbTable(FbBuffer buf, long pos, long vtable, int vtLen, int tableLen, String what) {
    this.buf = buf;
    this.pos = pos;
    this.vtable = vtable;
    this.vtLen = vtLen;
    this.tableLen = tableLen;
    this.what = what;
  }

  /** The buffer this table is in. */
  public FbBuffer buffer() {
    return buf;
  }

  /** Position of the table in its buffer. */
  public long position() {
    return pos;
  }

  /** Absolute offset of the table in the source, for messages. */
  public long absolutePosition() {
    return buf.base() + pos;
  }

  /** Name of this table for messages, e.g. {@code FlatGraph.variables[3]}. */
  public String what() {
    return what;
  }

  /**
   * Bytes of the table itself and of its vtable: at least what a copy of it takes in a builder
   * (a copy keeps at most these slots, each as wide as here).
   */
  long inlineSize() {
    return (long) tableLen + vtLen;
  }

  /** Number of slots the vtable describes (slots beyond are absent). */
  public int slotCount() {
    return (vtLen - 4) / 2;
  }

  /** Position of slot {@code slot}'s field, or -1 when absent. */
  long field(int slot, int width) throws ModelFormatException {
    if (slot >= slotCount()) {
      return -1;
    }
    int off = buf.getShort(vtable + 4 + 2L * slot) & 0xffff;
    if (off == 0) {
      return -1;
    }
    if (off + width > tableLen) {
      throw buf.error(vtable + 4 + 2L * slot, what + " vtable", "field " + slot + " lies outside its table");
    }
    return pos + off;
  }

  public boolean has(int slot) throws ModelFormatException {
    return field(slot, 1) >= 0;
  }

  public byte getByte(int slot, byte def) throws ModelFormatException {
    long f = field(slot, 1);
    return f < 0 ? def : buf.getByte(f);
  }

  public boolean getBool(int slot, boolean def) throws ModelFormatException {
    long f = field(slot, 1);
    return f < 0 ? def : buf.getByte(f) != 0;
  }

  public int getInt(int slot, int def) throws ModelFormatException {
    long f = field(slot, 4);
    return f < 0 ? def : buf.getInt(f);
  }

  public long getLong(int slot, long def) throws ModelFormatException {
    long f = field(slot, 8);
    return f < 0 ? def : buf.getLong(f);
  }

  public String getString(int slot, String name) throws ModelFormatException {
    long f = field(slot, 4);
    if (f < 0) {
      return null;
    }
    return buf.string(f, what + "." + name);
  }

  /** Buffer position of the string in {@code slot} (where its uoffset points), or -1 when absent. */
  long stringPosition(int slot, String name) throws ModelFormatException {
    long f = field(slot, 4);
    return f < 0 ? -1 : buf.deref(f, what + "." + name);
  }

  public FbTable getTable(int slot, String name) throws ModelFormatException {
    long f = field(slot, 4);
    if (f < 0) {
      return null;
    }
    String w = what + "." + name;
    return buf.table(buf.deref(f, w), w);
  }

  /** A vector field with elements of {@code elemSize} bytes (4 for tables/strings). */
  public FbVector getVector(int slot, String name, int elemSize) throws ModelFormatException {
    long f = field(slot, 4);
    if (f < 0) {
      return null;
    }
    String w = what + "." + name;
    long v = buf.deref(f, w);
    buf.check(v, 4, w);
    long len = buf.getUInt(v);
    if (len > (buf.size() - v - 4) / elemSize) {
      throw buf.error(v, w, "vector of " + len + " elements exceeds the buffer");
    }
    return new FbVector(buf, v + 4, (int) len, elemSize, w);
  }
}
