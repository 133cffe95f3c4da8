package org.modelfs.format.sdnb;

import static java.io.ObjectStreamConstants.STREAM_MAGIC;
import static java.io.ObjectStreamConstants.STREAM_VERSION;
import static java.io.ObjectStreamConstants.TC_BLOCKDATA;
import static java.io.ObjectStreamConstants.TC_BLOCKDATALONG;
import static java.io.ObjectStreamConstants.TC_CLASSDESC;
import static java.io.ObjectStreamConstants.TC_ENDBLOCKDATA;
import static java.io.ObjectStreamConstants.TC_LONGSTRING;
import static java.io.ObjectStreamConstants.TC_NULL;
import static java.io.ObjectStreamConstants.TC_OBJECT;
import static java.io.ObjectStreamConstants.TC_PROXYCLASSDESC;
import static java.io.ObjectStreamConstants.TC_REFERENCE;
import static java.io.ObjectStreamConstants.TC_STRING;
import static java.io.ObjectStreamConstants.baseWireHandle;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.sdnb.Manifest.Entry;

/**
 * Restricted Java Object Serialization parser for a {@link Manifest}: understands exactly the
 * grammar of a {@code (Linked)HashMap<String, Pair<Long,Long>>} stream, including the JDK's
 * handle numbering and back-references, and refuses everything else with a {@link
 * ModelFormatException} naming the absolute offset. It never instantiates classes from the stream.
 */
final class ManifestParser {
  private static final String STRUCTURE = "SDNB manifest";
  /** Fewest bytes one map entry can take: a 3-byte empty string and a 5-byte reference. */
  private static final int MIN_ENTRY_BYTES = 3 + 5;
  /** New class descriptors nest only through superclasses: (Linked)HashMap, Long/Number. */
  private static final int MAX_NEW_DESC_DEPTH = 2;

  /** Handle-table placeholder for the map, which nothing may reference. */
  private static final Object MAP = new Object();
  /** Handle-table placeholder for a class descriptor or Pair whose body is still being read. */
  private static final Object INCOMPLETE = new Object();

  /** A deserialized {@code Pair<Long,Long>}. */
  private record PairValue(long key, long value) {}

  private final ByteBuffer buf;
  private final int start;
  private final int limit;
  private final String file;
  private final long fileOffset;
  /** Objects by handle - baseWireHandle: ManifestClass, String, Long, PairValue or a marker. */
  private final List<Object> handles = new ArrayList<>();

  private int pos;
  private String structure = STRUCTURE;
  /** Unread bytes of the current block-data segment inside HashMap's custom data. */
  private int blockRemaining;

  private ManifestParser(ByteBuffer bytes, String file, long fileOffset) {
    this.buf = bytes;
    this.start = bytes.position();
    this.limit = bytes.limit();
    this.file = file;
    this.fileOffset = fileOffset;
    this.pos = start;
  }

  static List<Entry> parse(ByteBuffer bytes, String file, long fileOffset)
      throws ModelFormatException {
    return new ManifestParser(bytes, file, fileOffset).stream();
  }

  private List<Entry> stream() throws ModelFormatException {
    int at = pos;
    int magic = u16();
    int version = u16();
    if (magic != (STREAM_MAGIC & 0xFFFF) || version != STREAM_VERSION) {
      throw fail(at, String.format(
          "not a Java serialization stream: header %04X %04X, expected ACED 0005", magic, version));
    }
    List<Entry> entries = map();
    if (pos != limit) {
      throw fail(pos, (limit - pos) + " trailing bytes after the manifest map");
    }
    return entries;
  }

  // ---- objects -------------------------------------------------------------------------------

  private List<Entry> map() throws ModelFormatException {
    int at = pos;
    expectTag(TC_OBJECT, "the manifest map (TC_OBJECT)");
    ManifestClass cls = classDesc(0);
    if (cls != ManifestClass.LINKED_HASH_MAP && cls != ManifestClass.HASH_MAP) {
      throw fail(at, "the manifest root is " + name(cls) + ", expected java.util.LinkedHashMap");
    }
    handles.add(MAP);
    List<Entry> entries = hashMapData();
    if (cls == ManifestClass.LINKED_HASH_MAP) {
      int flagAt = pos;
      int accessOrder = u8();
      if (accessOrder > 1) {
        throw fail(flagAt, "LinkedHashMap.accessOrder is " + accessOrder + ", not a boolean");
      }
    }
    return entries;
  }

  /** HashMap's fields, then its writeObject data: block (capacity, size), entries, end marker. */
  private List<Entry> hashMapData() throws ModelFormatException {
    int at = pos;
    float loadFactor = Float.intBitsToFloat(s32());
    if (!(loadFactor > 0)) {
      throw fail(at, "illegal HashMap load factor " + loadFactor);
    }
    s32(); // threshold: recomputed by HashMap itself, ignored like the JDK does
    blockRemaining = 0;
    blockInt(); // bucket count: ignored like the JDK does
    int sizeAt = pos;
    int size = blockInt();
    long available = limit - pos - blockRemaining;
    if (size < 0 || size > available / MIN_ENTRY_BYTES) {
      throw fail(sizeAt, "declared map size " + size + " is impossible with " + available
          + " bytes left");
    }
    List<Entry> entries = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < size; i++) {
      structure = STRUCTURE + " entry " + i + " name";
      endOfBlockData();
      int keyAt = pos;
      String name = string("a String map key");
      if (!names.add(name)) {
        throw fail(keyAt, "duplicate name \"" + abbreviate(name) + "\"");
      }
      structure = STRUCTURE + " entry " + i + " (\"" + abbreviate(name) + "\") value";
      endOfBlockData();
      PairValue pair = pair();
      entries.add(new Entry(name, pair.key(), pair.value()));
    }
    structure = STRUCTURE;
    if (blockRemaining > 0) {
      throw fail(pos, blockRemaining + " unread bytes of HashMap block data after the entries");
    }
    expectTag(TC_ENDBLOCKDATA, "the end of the HashMap data (TC_ENDBLOCKDATA)");
    return List.copyOf(entries);
  }

  private PairValue pair() throws ModelFormatException {
    int at = pos;
    int tag = u8();
    if (tag == TC_REFERENCE) {
      return reference(at, PairValue.class, "a Pair");
    }
    if (tag != TC_OBJECT) {
      throw unexpected(at, tag, "a Pair (TC_OBJECT)");
    }
    ManifestClass cls = classDesc(0);
    if (cls != ManifestClass.PAIR) {
      throw fail(at, "the value is " + name(cls) + ", expected " + ManifestClass.PAIR.className());
    }
    int handle = reserveHandle();
    String outer = structure;
    structure = outer + " Pair.key";
    long key = longObject();
    structure = outer + " Pair.value";
    long value = longObject();
    structure = outer;
    PairValue pair = new PairValue(key, value);
    handles.set(handle, pair);
    return pair;
  }

  private long longObject() throws ModelFormatException {
    int at = pos;
    int tag = u8();
    if (tag == TC_REFERENCE) {
      return reference(at, Long.class, "a Long");
    }
    if (tag != TC_OBJECT) {
      throw unexpected(at, tag, "a Long (TC_OBJECT)");
    }
    ManifestClass cls = classDesc(0);
    if (cls != ManifestClass.LONG) {
      throw fail(at, "found " + name(cls) + ", expected java.lang.Long");
    }
    int handle = reserveHandle();
    long value = s64();
    handles.set(handle, value);
    return value;
  }

  /** A map key or field type name: TC_STRING, TC_LONGSTRING or a reference to a string. */
  private String string(String what) throws ModelFormatException {
    int at = pos;
    int tag = u8();
    long length;
    if (tag == TC_REFERENCE) {
      return reference(at, String.class, what);
    } else if (tag == TC_STRING) {
      length = u16();
    } else if (tag == TC_LONGSTRING) {
      length = s64();
    } else {
      throw unexpected(at, tag, what);
    }
    String s = modifiedUtf8(at, length);
    handles.add(s);
    return s;
  }

  // ---- class descriptors ---------------------------------------------------------------------

  /** A class descriptor: one of the allowed classes, validated in full, or null for TC_NULL. */
  private ManifestClass classDesc(int depth) throws ModelFormatException {
    int at = pos;
    int tag = u8();
    if (tag == TC_NULL) {
      return null;
    } else if (tag == TC_REFERENCE) {
      return reference(at, ManifestClass.class, "a class descriptor");
    } else if (tag == TC_PROXYCLASSDESC) {
      throw fail(at, "proxy class descriptor (TC_PROXYCLASSDESC 0x7D) is not allowed");
    } else if (tag != TC_CLASSDESC) {
      throw unexpected(at, tag, "a class descriptor");
    }
    if (depth >= MAX_NEW_DESC_DEPTH) {
      throw fail(at, "class descriptors nested too deeply");
    }
    int handle = reserveHandle();
    int nameAt = pos;
    String className = modifiedUtf8(nameAt, u16());
    ManifestClass cls = ManifestClass.byName(className);
    if (cls == null) {
      throw fail(nameAt, "class \"" + abbreviate(className) + "\" is not allowed in a manifest");
    }
    int suidAt = pos;
    long suid = s64();
    if (suid != cls.serialVersionUid()) {
      throw fail(suidAt, "serialVersionUID " + suid + " of " + className + ", expected "
          + cls.serialVersionUid());
    }
    int flagsAt = pos;
    int flags = u8();
    if (flags != cls.flags()) {
      throw fail(flagsAt, String.format("class flags 0x%02X of %s, expected 0x%02X",
          flags, className, cls.flags()));
    }
    fields(cls);
    int annotationAt = pos;
    int end = u8();
    if (end != TC_ENDBLOCKDATA) {
      throw unexpected(annotationAt, end, "the end of " + className + "'s class annotation");
    }
    int superAt = pos;
    ManifestClass superClass = classDesc(depth + 1);
    if (superClass != cls.superClass()) {
      throw fail(superAt, "superclass of " + className + " is " + name(superClass)
          + ", expected " + name(cls.superClass()));
    }
    handles.set(handle, cls);
    return cls;
  }

  private void fields(ManifestClass cls) throws ModelFormatException {
    int countAt = pos;
    int count = u16();
    if (count != cls.fields().size()) {
      throw fail(countAt, cls.className() + " declares " + count + " fields, expected "
          + cls.fields().size());
    }
    for (ManifestClass.Field expected : cls.fields()) {
      int at = pos;
      char typeCode = (char) u8();
      String name = modifiedUtf8(pos, u16());
      String type = expected.type() != null && typeCode == expected.typeCode()
          ? string("a field type string") : null;
      ManifestClass.Field actual = new ManifestClass.Field(typeCode, name, type);
      if (!actual.equals(expected)) {
        throw fail(at, "field \"" + abbreviate(actual.toString()) + "\" of " + cls.className()
            + ", expected \"" + expected + "\"");
      }
    }
  }

  // ---- handles -------------------------------------------------------------------------------

  private int reserveHandle() {
    handles.add(INCOMPLETE);
    return handles.size() - 1;
  }

  /** Reads the handle after a TC_REFERENCE tag at {@code at}; the target must be a {@code type}. */
  private <T> T reference(int at, Class<T> type, String what) throws ModelFormatException {
    long handle = s32() & 0xFFFFFFFFL;
    long index = handle - baseWireHandle;
    if (index < 0 || index >= handles.size()) {
      throw fail(at, String.format("back-reference to unknown handle 0x%X", handle));
    }
    Object target = handles.get((int) index);
    if (!type.isInstance(target)) {
      throw fail(at, String.format("back-reference 0x%X is %s, expected %s",
          handle, describe(target), what));
    }
    return type.cast(target);
  }

  private static String describe(Object target) {
    if (target == MAP) {
      return "the map itself";
    } else if (target == INCOMPLETE) {
      return "an object still being read";
    } else if (target instanceof ManifestClass c) {
      return "the class descriptor of " + c.className();
    } else if (target instanceof String) {
      return "a String";
    } else if (target instanceof Long) {
      return "a Long";
    }
    return "a Pair";
  }

  // ---- block data ----------------------------------------------------------------------------

  /** An int from HashMap's block data, which may be split over several block-data segments. */
  private int blockInt() throws ModelFormatException {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      while (blockRemaining == 0) {
        blockHeader();
      }
      blockRemaining--;
      v = (v << 8) | u8();
    }
    return v;
  }

  /** Reads a TC_BLOCKDATA or TC_BLOCKDATALONG header into {@link #blockRemaining}. */
  private void blockHeader() throws ModelFormatException {
    int at = pos;
    int tag = u8();
    int length;
    if (tag == TC_BLOCKDATA) {
      length = u8();
    } else if (tag == TC_BLOCKDATALONG) {
      length = s32();
    } else {
      throw unexpected(at, tag, "HashMap block data (capacity and size)");
    }
    if (length < 0 || length > limit - pos) {
      throw fail(at, "block data length " + length + " exceeds the " + (limit - pos)
          + " bytes left");
    }
    blockRemaining = length;
  }


  private void endOfBlockData() throws ModelFormatException {
    if (blockRemaining > 0) {
      throw fail(pos, blockRemaining + " bytes of block data where an object was expected");
    }
  }

  // ---- primitives ----------------------------------------------------------------------------

  private void expectTag(int expected, String what) throws ModelFormatException {
    int at = pos;
    int tag = u8();
    if (tag != expected) {
      throw unexpected(at, tag, what);
    }
  }

  private void need(int n) throws ModelFormatException {
    if (limit - pos < n) {
      throw fail(pos, "truncated: " + n + " bytes needed, " + (limit - pos) + " left");
    }
  }

  private int u8() throws ModelFormatException {
    need(1);
    return buf.get(pos++) & 0xFF;
  }

  private int u16() throws ModelFormatException {
    need(2);
    int v = ((buf.get(pos) & 0xFF) << 8) | (buf.get(pos + 1) & 0xFF);
    pos += 2;
    return v;
  }

  private int s32() throws ModelFormatException {
    return (u16() << 16) | u16();
  }

  private long s64() throws ModelFormatException {
    return ((long) s32() << 32) | (s32() & 0xFFFFFFFFL);
  }

  /**
   * Decodes {@code length} bytes of modified UTF-8 (length field at {@code at}). Only the
   * canonical encoding the JDK writes is accepted: raw NUL bytes, overlong forms other than C0 80,
   * and 4-byte sequences are refused.
   */
  private String modifiedUtf8(int at, long length) throws ModelFormatException {
    if (length < 0 || length > limit - pos) {
      throw fail(at, "declared string length " + length + " exceeds the " + (limit - pos)
          + " bytes left");
    }
    int end = pos + (int) length;
    char[] chars = new char[(int) length];
    int n = 0;
    while (pos < end) {
      int byteAt = pos;
      int b = buf.get(pos++) & 0xFF;
      int c;
      if (b >= 0x01 && b <= 0x7F) {
        c = b;
      } else if ((b & 0xE0) == 0xC0) {
        c = ((b & 0x1F) << 6) | continuation(byteAt, end);
        if (c < 0x80 && c != 0) {
          throw fail(byteAt, "overlong modified UTF-8 sequence");
        }
      } else if ((b & 0xF0) == 0xE0) {
        c = ((b & 0x0F) << 12) | (continuation(byteAt, end) << 6) | continuation(byteAt, end);
        if (c < 0x800) {
          throw fail(byteAt, "overlong modified UTF-8 sequence");
        }
      } else {
        throw fail(byteAt, String.format("invalid modified UTF-8 byte 0x%02X", b));
      }
      chars[n++] = (char) c;
    }
    return new String(chars, 0, n);
  }

  private int continuation(int seqAt, int end) throws ModelFormatException {
    if (pos >= end) {
      throw fail(seqAt, "modified UTF-8 sequence cut off by the end of the string");
    }
    int b = buf.get(pos) & 0xFF;
    if ((b & 0xC0) != 0x80) {
      throw fail(pos, String.format("invalid modified UTF-8 continuation byte 0x%02X", b));
    }
    pos++;
    return b & 0x3F;
  }

  // ---- errors --------------------------------------------------------------------------------

  private ModelFormatException fail(int at, String problem) {
    return new ModelFormatException(file, structure, fileOffset + (at - start), problem);
  }

  private ModelFormatException unexpected(int at, int tag, String what) {
    return fail(at, "expected " + what + ", found " + tagName(tag));
  }

  private static String tagName(int tag) {
    String[] names = {
      "TC_NULL", "TC_REFERENCE", "TC_CLASSDESC", "TC_OBJECT", "TC_STRING", "TC_ARRAY", "TC_CLASS",
      "TC_BLOCKDATA", "TC_ENDBLOCKDATA", "TC_RESET", "TC_BLOCKDATALONG", "TC_EXCEPTION",
      "TC_LONGSTRING", "TC_PROXYCLASSDESC", "TC_ENUM"
    };
    int i = tag - TC_NULL;
    return i >= 0 && i < names.length
        ? String.format("%s (0x%02X)", names[i], tag)
        : String.format("byte 0x%02X", tag);
  }

  private static String name(ManifestClass cls) {
    return cls == null ? "null" : cls.className();
  }

  /** Keeps hostile names from flooding error messages. */
  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}
