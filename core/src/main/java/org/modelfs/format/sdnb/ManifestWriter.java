package org.modelfs.format.sdnb;

import static java.io.ObjectStreamConstants.STREAM_MAGIC;
import static java.io.ObjectStreamConstants.STREAM_VERSION;
import static java.io.ObjectStreamConstants.TC_BLOCKDATA;
import static java.io.ObjectStreamConstants.TC_CLASSDESC;
import static java.io.ObjectStreamConstants.TC_ENDBLOCKDATA;
import static java.io.ObjectStreamConstants.TC_LONGSTRING;
import static java.io.ObjectStreamConstants.TC_NULL;
import static java.io.ObjectStreamConstants.TC_OBJECT;
import static java.io.ObjectStreamConstants.TC_REFERENCE;
import static java.io.ObjectStreamConstants.TC_STRING;
import static java.io.ObjectStreamConstants.baseWireHandle;

import java.io.ByteArrayOutputStream;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.sdnb.Manifest.Entry;

/**
 * Writes a {@link Manifest} as the JDK's {@code ObjectOutputStream} serializes a {@code
 * LinkedHashMap} of {@code Pair<Long,Long>}: same handles, back-references, cached small {@code
 * Long}s and {@code HashMap} sizing. Names are taken to be distinct objects from the interned
 * field type string {@code "Ljava/lang/Object;"}, as names read from a file always are.
 */
final class ManifestWriter {
  private static final float LOAD_FACTOR = 0.75f;
  private static final int DEFAULT_CAPACITY = 16;
  private static final int MAXIMUM_CAPACITY = 1 << 30;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final Map<ManifestClass, Integer> classHandles = new EnumMap<>(ManifestClass.class);
  private final Map<String, Integer> typeStringHandles = new HashMap<>();
  /** Handles of {@code Long.valueOf} cache instances (-128..127), which are shared objects. */
  private final Map<Long, Integer> cachedLongHandles = new HashMap<>();

  private int nextHandle = baseWireHandle;

  private ManifestWriter() {}

  static byte[] write(List<Entry> entries) {
    Set<String> names = new HashSet<>();
    for (Entry e : entries) {
      if (!names.add(e.name())) {
        throw new IllegalArgumentException("duplicate manifest name: " + e.name());
      }
    }
    ManifestWriter w = new ManifestWriter();
    w.u16(STREAM_MAGIC);
    w.u16(STREAM_VERSION);
    w.map(entries);
    return w.out.toByteArray();
  }

  private void map(List<Entry> entries) {
    int size = entries.size();
    u8(TC_OBJECT);
    classDesc(ManifestClass.LINKED_HASH_MAP);
    nextHandle++; // the map itself
    // HashMap.writeObject: defaultWriteObject, then block data (capacity, size), then entries
    HashMapSizing sizing = HashMapSizing.after(size);
    u32(Float.floatToIntBits(LOAD_FACTOR));
    u32(sizing.threshold());
    u8(TC_BLOCKDATA);
    u8(8);
    u32(sizing.capacity());
    u32(size);
    for (Entry e : entries) {
      string(e.name());
      u8(TC_OBJECT);
      classDesc(ManifestClass.PAIR);
      nextHandle++; // the Pair
      longObject(e.offset());
      longObject(e.length());
    }
    u8(TC_ENDBLOCKDATA);
    u8(0); // LinkedHashMap.accessOrder = false
  }

  /** The {@code HashMap.threshold} field and the bucket count its writeObject records. */
  private record HashMapSizing(int threshold, int capacity) {
    /**
     * The sizing after {@code size} distinct puts into a new default-sized map (mirrors {@code
     * HashMap.resize}; an empty map has threshold 0 and records the default capacity 16).
     */
    static HashMapSizing after(int size) {
      if (size == 0) {
        return new HashMapSizing(0, DEFAULT_CAPACITY);
      }
      int capacity = DEFAULT_CAPACITY;
      int threshold = (int) (DEFAULT_CAPACITY * LOAD_FACTOR);
      while (size > threshold) {
        if (capacity >= MAXIMUM_CAPACITY) {
          return new HashMapSizing(Integer.MAX_VALUE, capacity);
        }
        capacity <<= 1;
        threshold = capacity < MAXIMUM_CAPACITY ? threshold << 1 : (int) (capacity * LOAD_FACTOR);
      }
      return new HashMapSizing(threshold, capacity);
    }
  }

  private void classDesc(ManifestClass c) {
    if (c == null) {
      u8(TC_NULL);
      return;
    }
    Integer handle = classHandles.get(c);
    if (handle != null) {
      u8(TC_REFERENCE);
      u32(handle);
      return;
    }
    u8(TC_CLASSDESC);
    classHandles.put(c, nextHandle++);
    utf(c.className());
    u64(c.serialVersionUid());
    u8(c.flags());
    u16(c.fields().size());
    for (ManifestClass.Field f : c.fields()) {
      u8(f.typeCode());
      utf(f.name());
      if (f.type() != null) {
        typeString(f.type());
      }
    }
    u8(TC_ENDBLOCKDATA); // no class annotations
    classDesc(c.superClass());
  }

  private void typeString(String type) {
    Integer handle = typeStringHandles.get(type);
    if (handle != null) {
      u8(TC_REFERENCE);
      u32(handle);
    } else {
      typeStringHandles.put(type, nextHandle);
      string(type);
    }
  }

  private void longObject(long value) {
    boolean cached = value >= -128 && value <= 127;
    Integer handle = cached ? cachedLongHandles.get(value) : null;
    if (handle != null) {
      u8(TC_REFERENCE);
      u32(handle);
      return;
    }
    u8(TC_OBJECT);
    classDesc(ManifestClass.LONG);
    if (cached) {
      cachedLongHandles.put(value, nextHandle);
    }
    nextHandle++;
    u64(value);
  }

  /** A new string object: TC_STRING, or TC_LONGSTRING when its encoding exceeds 65535 bytes. */
  private void string(String s) {
    long length = utfLength(s);
    if (length <= 0xFFFF) {
      u8(TC_STRING);
      u16((int) length);
    } else {
      u8(TC_LONGSTRING);
      u64(length);
    }
    utfBytes(s);
    nextHandle++;
  }

  /** {@code DataOutput.writeUTF}: u16 length and modified UTF-8, no handle. */
  private void utf(String s) {
    u16((int) utfLength(s));
    utfBytes(s);
  }

  /** Length of the modified UTF-8 encoding of {@code s}. */
  private static long utfLength(String s) {
    long length = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      length += c >= 0x01 && c <= 0x7F ? 1 : c <= 0x7FF ? 2 : 3;
    }
    return length;
  }

  /** Modified UTF-8: NUL as C0 80, every other char (each surrogate too) in 1 to 3 bytes. */
  private void utfBytes(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x01 && c <= 0x7F) {
        u8(c);
      } else if (c <= 0x7FF) {
        u8(0xC0 | (c >> 6));
        u8(0x80 | (c & 0x3F));
      } else {
        u8(0xE0 | (c >> 12));
        u8(0x80 | ((c >> 6) & 0x3F));
        u8(0x80 | (c & 0x3F));
      }
    }
  }

  private void u8(int v) {
    out.write(v);
  }

  private void u16(int v) {
    out.write(v >>> 8);
    out.write(v);
  }

  private void u32(int v) {
    u16(v >>> 16);
    u16(v);
  }

  private void u64(long v) {
    u32((int) (v >>> 32));
    u32((int) v);
  }
}
