package org.modelfs.format.fb;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.modelfs.format.BudgetExceededException;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * A FlatBuffer that lives in a byte range of a {@link ByteSource}, read through a small cache of
 * 4 KiB pages so that navigating tables never pulls array data into the heap. Every access is
 * bounds-checked and fails with a {@link ModelFormatException} naming the absolute offset.
 */
public final class FbBuffer {
  private static final int PAGE = 4096;
  private static final int MAX_PAGES = 1024;
  /** Most pages read ahead at once (64 KiB). */
  private static final int READ_AHEAD = 16;

  private final ByteSource source;
  private final long base;
  private final long size;
  private final String file;
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * The page cache: page {@code i} lives in slot {@code i % slots.length} (one slot per page
   * of a small buffer, at most {@code MAX_PAGES}: 4 MiB are held). Slots are read and written
   * without a lock on purpose: a {@link Page} is immutable (its bytes are filled before it is
   * made), so a thread sees some complete page or none and checks its index; two threads may
   * read one page twice.
   */
  private final Page[] slots;

  /**
   * @param source the bytes
   * @param base absolute offset of the buffer's first byte
   * @param size byte length of the buffer
   * @param file name used in error messages
   */
  public FbBuffer(ByteSource source, long base, long size, String file) {
    this.source = source;
    this.base = base;
    this.size = size;
    this.file = file;
    this.slots = new Page[(int) Math.max(1, Math.min(MAX_PAGES, (size + PAGE - 1) / PAGE))];
  }

  /** The source this buffer is in. */
  public ByteSource source() {
    return source;
  }

  /** The file name used in error messages. */
  public String file() {
    return file;
  }

  /** Absolute offset of the buffer in its source. */
  public long base() {
    return base;
  }

  /** Byte length of the buffer. */
  public long size() {
    return size;
  }

  /** The root table (the uoffset at byte 0). */
  public FbTable root(String what) throws ModelFormatException {
    check(0, 4, what + " root offset");
    long rootPos = getUInt(0);
    return table(rootPos, what);
  }

  /** A table at buffer position {@code pos}. */
  FbTable table(long pos, String what) throws ModelFormatException {
    check(pos, 4, what);
    int soff = getInt(pos);
    long vt = pos - soff;
    check(vt, 4, what + " vtable");
    int vtLen = getShort(vt) & 0xffff;
    int tableLen = getShort(vt + 2) & 0xffff;
    if (vtLen < 4 || (vtLen & 1) != 0) {
      throw error(vt, what + " vtable", "bad vtable length " + vtLen);
    }
    check(vt, vtLen, what + " vtable");
    check(pos, Math.max(tableLen, 4), what);
    return new FbTable(this, pos, vt, vtLen, tableLen, what);
  }

  /** Follows the uoffset stored at {@code pos}; returns the target position. */
  long deref(long pos, String what) throws ModelFormatException {
    check(pos, 4, what);
    long target = pos + getUInt(pos);
    if (target >= size) {
      throw error(pos, what, "offset points past the end of the buffer (" + (base + target) + ")");
    }
    return target;
  }

  /** Throws unless {@code [pos, pos + len)} lies inside the buffer. */
  void check(long pos, long len, String what) throws ModelFormatException {
    if (pos < 0 || len < 0 || pos > size || len > size - pos) {
      throw error(Math.max(pos, 0), what, len + " bytes needed but the buffer ends at " + (base + size));
    }
  }

  ModelFormatException error(long pos, String what, String problem) {
    return new ModelFormatException(file, what, base + pos, problem);
  }

  /** A refusal of a structure at buffer position {@code pos} that would cost more than the file's budget. */
  BudgetExceededException overBudget(long pos, String what, String problem) {
    return new BudgetExceededException(file, what, base + pos, problem);
  }

  byte getByte(long pos) throws ModelFormatException {
    return page(pos)[(int) (pos % PAGE)];
  }

  int getShort(long pos) throws ModelFormatException {
    int in = (int) (pos % PAGE);
    byte[] p = page(pos);
    if (in + 2 <= p.length) {
      return (short) SHORT.get(p, in);
    }
    return (short) ((getByte(pos) & 0xff) | (getByte(pos + 1) & 0xff) << 8);
  }

  int getInt(long pos) throws ModelFormatException {
    int in = (int) (pos % PAGE);
    byte[] p = page(pos);
    if (in + 4 <= p.length) {
      return (int) INT.get(p, in);
    }
    return (getShort(pos) & 0xffff) | (getShort(pos + 2) << 16);
  }

  long getUInt(long pos) throws ModelFormatException {
    return getInt(pos) & 0xffffffffL;
  }

  long getLong(long pos) throws ModelFormatException {
    int in = (int) (pos % PAGE);
    byte[] p = page(pos);
    if (in + 8 <= p.length) {
      return (long) LONG.get(p, in);
    }
    return (getInt(pos) & 0xffffffffL) | ((long) getInt(pos + 4) << 32);
  }

  /** Reads {@code len} bytes at {@code pos} into a new array (callers bound {@code len}). */
  byte[] getBytes(long pos, int len, String what) throws ModelFormatException {
    check(pos, len, what);
    byte[] out = new byte[len];
    for (int i = 0; i < len; ) {
      long p = pos + i;
      byte[] pg = page(p);
      int inPage = (int) (p % PAGE);
      int n = Math.min(len - i, PAGE - inPage);
      System.arraycopy(pg, inPage, out, i, n);
      i += n;
    }
    return out;
  }

  /** The string whose uoffset is stored at {@code fieldPos}. */
  String string(long fieldPos, String what) throws ModelFormatException {
    long s = deref(fieldPos, what);
    check(s, 4, what);
    long len = getUInt(s);
    if (len > size - s - 4) {
      throw error(s, what, "string length " + len + " exceeds the buffer");
    }
    return getUtf8(s + 4, (int) len, what);
  }

  /** Decodes UTF-8 at {@code pos}, rejecting malformed bytes. */
  String getUtf8(long pos, int len, String what) throws ModelFormatException {
    byte[] b = getBytes(pos, len, what);
    if (ascii(b)) {
      return new String(b, StandardCharsets.ISO_8859_1); // the same characters, without a decoder
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      throw error(pos, what, "malformed UTF-8");
    }
  }

  private static boolean ascii(byte[] b) {
    for (byte x : b) {
      if (x < 0) {
        return false;
      }
    }
    return true;
  }

  /** The page holding buffer position {@code pos}, from the cache or read now. */
  private byte[] page(long pos) throws ModelFormatException {
    if (pos < 0 || pos >= size) {
      throw error(Math.max(pos, 0), "FlatBuffer", "read past the end of the buffer (" + (base + size) + ")");
    }
    long index = pos / PAGE;
    Page p = slots[(int) (index % slots.length)];
    return p != null && p.index == index ? p.bytes : load(index);
  }

  /** A page that was read: immutable once made. */
  private record Page(long index, byte[] bytes) {}

  private boolean cached(long index) {
    Page p = index < 0 ? null : slots[(int) (index % slots.length)];
    return p != null && p.index == index;
  }

  /**
   * Reads page {@code index} into the cache — with read-ahead when the pages just before it
   * (or just after it: FlatBuffers are built back to front) are cached: as many more pages in
   * that direction as the run already cached, at most {@link #READ_AHEAD}. A walk over tables
   * laid out one after another then costs one read per 64 KiB instead of one per page, while
   * scattered lookups (tables between large arrays) read their pages only: what is read ahead
   * is never more than what that run has read already.
   */
  private byte[] load(long index) throws ModelFormatException {
    long last = (size - 1) / PAGE;
    int behind = 0;
    while (behind < READ_AHEAD && cached(index - 1 - behind)) {
      behind++;
    }
    int after = 0;
    while (behind == 0 && after < READ_AHEAD && index + 1 + after <= last && cached(index + 1 + after)) {
      after++;
    }
    long first = behind == 0 ? Math.max(0, index - after) : index;
    long end = behind == 0 ? index : Math.min(last, index + behind);
    long start = first * PAGE;
    int len = (int) (Math.min(size, (end + 1) * PAGE) - start);
    ByteBuffer bb = ByteBuffer.allocate(len);
    try {
      source.readFully(bb, base + start);
    } catch (IOException e) {
      throw new ModelFormatException(file, "FlatBuffer", base + start, "cannot read: " + e.getMessage(), e);
    }
    byte[] all = bb.array();
    byte[] wanted = null;
    for (long k = first; k <= end; k++) {
      int from = (int) ((k - first) * PAGE);
      byte[] page = first == end ? all : Arrays.copyOfRange(all, from, Math.min(len, from + PAGE));
      slots[(int) (k % slots.length)] = new Page(k, page);
      if (k == index) {
        wanted = page;
      }
    }
    return wanted;
  }
}
