package org.modelfs.format.badinput;

import static org.modelfs.format.badinput.BadInput.i32le;
import static org.modelfs.format.badinput.BadInput.prefix;
import static org.modelfs.format.badinput.BadInput.putI32be;
import static org.modelfs.format.badinput.BadInput.putI32le;
import static org.modelfs.format.badinput.BadInput.putI64be;
import static org.modelfs.format.badinput.BadInput.putI64le;
import static org.modelfs.format.badinput.BadInput.replaceAll;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.modelfs.format.badinput.BadInput.Fb;
import org.modelfs.format.badinput.Samples.Entry;
import org.modelfs.format.badinput.Samples.Sdnb;

/**
 * The catalogue of broken SDNB files (docs/FORMATS.md §5), built from a valid one: header fields,
 * manifest entries, the manifest's Java-serialization bytes, the metadata FlatGraph, and
 * truncation at every structure boundary. Shared by the SDNB and SDZ tests.
 */
final class SdnbCorruptions {
  private SdnbCorruptions() {}

  /** A named broken file. */
  record Bad(String name, byte[] bytes) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Bad bad(List<Bad> out, String name, byte[] bytes) {
    Bad b = new Bad(name, bytes);
    out.add(b);
    return b;
  }

  private static byte[] patch(byte[] original, UnaryOperator<byte[]> p) {
    return p.apply(original.clone());
  }

  // ---- header ----------------------------------------------------------------------------------

  /** The 32-byte header (docs/FORMATS.md §5.1): magic, manifest offset/length, metadata offset. */
  static List<Bad> header(Sdnb s) {
    byte[] f = s.bytes();
    long size = f.length;
    List<Bad> out = new ArrayList<>();
    bad(out, "magic SDNC", patch(f, b -> { b[3] = 'C'; return b; }));
    bad(out, "magic in lower case", patch(f, b -> { b[0] = 's'; b[1] = 'd'; b[2] = 'n'; b[3] = 'b'; return b; }));
    bad(out, "magic zeroed", patch(f, b -> { b[0] = b[1] = b[2] = b[3] = 0; return b; }));
    for (long v : new long[] {0, 31, -1, -32, Long.MIN_VALUE, Long.MAX_VALUE, size + 1, size}) {
      bad(out, "manifestOffset " + v, patch(f, b -> putI64be(b, 8, v)));
    }
    for (long v : new long[] {-1, Long.MIN_VALUE, Long.MAX_VALUE, size - s.manifestOffset() + 1, 1L << 31,
        (1L << 31) + s.manifestLength(), 0, s.manifestLength() - 1, 3}) {
      bad(out, "manifestLength " + v, patch(f, b -> putI64be(b, 16, v)));
    }
    for (long v : new long[] {0, 31, 33, 64, -1, -32, Long.MAX_VALUE, Long.MIN_VALUE, 32L << 32}) {
      bad(out, "metadataOffset " + v, patch(f, b -> putI64be(b, 24, v)));
    }
    bad(out, "manifest range moved into the FlatBuffer", patch(f, b -> {
      putI64be(b, 8, 40);
      return putI64be(b, 16, size - 40);
    }));
    bad(out, "manifest range moved onto the header", patch(f, b -> putI64be(b, 8, 0)));
    bad(out, "manifest offset and length both past EOF", patch(f, b -> {
      putI64be(b, 8, size + 10);
      return putI64be(b, 16, 10);
    }));
    bad(out, "offset + length overflows", patch(f, b -> {
      putI64be(b, 8, 40);
      return putI64be(b, 16, Long.MAX_VALUE - 20);
    }));
    return out;
  }

  /** Every prefix of the header: 0..32 bytes. */
  static List<Bad> headerPrefixes(Sdnb s) {
    List<Bad> out = new ArrayList<>();
    for (int n = 0; n <= 32; n++) {
      bad(out, "cut to " + n + " bytes (header)", prefix(s.bytes(), n));
    }
    return out;
  }

  /**
   * Truncation at every structure boundary (and one byte either side): header end, FlatBuffer
   * end, each blob's start, middle and end, manifest start, manifest end − 1.
   */
  static List<Bad> truncations(Sdnb s) {
    TreeSet<Integer> at = new TreeSet<>();
    int[] bounds = {32, s.firstBlob(), s.mOff(), s.mEnd() - 1};
    for (int b : bounds) {
      at.add(b - 1);
      at.add(b);
      at.add(b + 1);
    }
    for (Entry e : s.entries()) {
      int start = Math.toIntExact(e.offset());
      int end = Math.toIntExact(e.offset() + e.length());
      for (int b : new int[] {start - 1, start, start + 1, start + (end - start) / 2, end - 1, end, end + 1}) {
        at.add(b);
      }
    }
    // the manifest's own structure: its stream header, first class descriptor, last bytes
    for (int d : new int[] {2, 4, 5, 30, 60, 100}) {
      at.add(s.mOff() + d);
    }
    at.add(s.mEnd() - 2);
    List<Bad> out = new ArrayList<>();
    for (int n : at) {
      if (n >= 0 && n < s.bytes().length) {
        bad(out, "cut to " + n + " of " + s.bytes().length + " bytes", prefix(s.bytes(), n));
      }
    }
    return out;
  }

  // ---- manifest entries -----------------------------------------------------------------------

  /** Manifests with hostile entries; {@code s} must have appended blobs {@code w1}, {@code w2}. */
  static List<Bad> manifestEntries(Sdnb s) {
    Entry w1 = s.entry("w1");
    Entry w2 = s.entry("w2");
    long size = s.bytes().length;
    long mOff = s.manifestOffset();
    List<Bad> out = new ArrayList<>();
    bad(out, "blob runs past the manifest", s.withManifest(List.of(w1, at(w2, mOff - 16))));
    bad(out, "blob starts at the manifest", s.withManifest(List.of(w1, at(w2, mOff))));
    bad(out, "blob past EOF", s.withManifest(List.of(w1, at(w2, size + 100))));
    bad(out, "blob at Long.MAX_VALUE", s.withManifest(List.of(w1, at(w2, Long.MAX_VALUE))));
    bad(out, "blob length Long.MAX_VALUE", s.withManifest(List.of(w1, len(w2, Long.MAX_VALUE))));
    bad(out, "blob length -1", s.withManifest(List.of(w1, len(w2, -1))));
    bad(out, "blob length Long.MIN_VALUE", s.withManifest(List.of(w1, len(w2, Long.MIN_VALUE))));
    bad(out, "blob offset -1", s.withManifest(List.of(w1, at(w2, -1))));
    bad(out, "blob offset Long.MIN_VALUE", s.withManifest(List.of(w1, at(w2, Long.MIN_VALUE))));
    bad(out, "blob offset 0 (the header)", s.withManifest(List.of(w1, at(w2, 0))));
    bad(out, "blob offset 16 (inside the header)", s.withManifest(List.of(w1, at(w2, 16))));
    bad(out, "blob offset 40 (inside the FlatBuffer)", s.withManifest(List.of(w1, at(w2, 40))));
    bad(out, "only blob starts inside the FlatBuffer (8-byte metadata region)", s.withManifest(List.of(at(w2, 40))));
    bad(out, "blob overlapping another blob", s.withManifest(List.of(w1, at(w2, w1.offset() + 100))));
    bad(out, "two blobs at the same offset", s.withManifest(List.of(w1, at(w2, w1.offset()))));
    bad(out, "entry names an unknown variable", s.withManifest(List.of(w1, new Entry("nope", w2.offset(), w2.length()))));
    bad(out, "entry names the empty string", s.withManifest(List.of(w1, new Entry("", w2.offset(), w2.length()))));
    bad(out, "entry for a variable stored inline", s.withManifest(List.of(w1, w2, new Entry("b", mOff, 0))));
    bad(out, "entry for a placeholder (shape -1)", s.withManifest(List.of(w1, w2, new Entry("x", mOff, 0))));
    bad(out, "blob length 4 bytes short of the shape", s.withManifest(List.of(w1, len(w2, w2.length() - 4))));
    bad(out, "blob length 4 bytes over the shape", s.withManifest(List.of(len(w1, w1.length() + 4), w2)));
    bad(out, "blob length 0 for a non-empty shape", s.withManifest(List.of(w1, len(w2, 0))));
    bad(out, "blob length 1 for a non-empty shape", s.withManifest(List.of(w1, len(w2, 1))));
    bad(out, "appended array without manifest entry", s.withManifest(List.of(w1)));
    bad(out, "empty manifest", s.withManifest(List.of()));
    bad(out, "duplicate entry", s.withManifest(List.of(w1, w2, w1)));
    bad(out, "duplicate name, other range", s.withManifest(List.of(w1, w2, new Entry("w1", w2.offset(), w1.length()))));
    return out;
  }

  private static Entry at(Entry e, long offset) {
    return new Entry(e.name(), offset, e.length());
  }

  private static Entry len(Entry e, long length) {
    return new Entry(e.name(), e.offset(), length);
  }

  // ---- manifest bytes -------------------------------------------------------------------------

  /** Hostile Java-serialization content: foreign classes, wrong UIDs, impossible sizes, junk. */
  static List<Bad> manifestBytes(Sdnb s) {
    byte[] f = s.bytes();
    List<Entry> entries = s.entries().isEmpty() ? List.of() : s.entries();
    byte[] m = Samples.manifest(entries);
    List<Bad> out = new ArrayList<>();
    bad(out, "manifest class LinkedHashMaq", s.withManifestBytes(swap(m, "java.util.LinkedHashMap", "java.util.LinkedHashMaq")));
    bad(out, "manifest class java.util.HashSet", s.withManifestBytes(swap(m, "java.util.HashMap", "java.util.HashSet")));
    bad(out, "manifest superclass HashMaq", s.withManifestBytes(swap(m, "java.util.HashMap", "java.util.HashMaq")));
    bad(out, "manifest root class java.util.ConcurrentMap", s.withManifestBytes(swap(m, "java.util.LinkedHashMap", "java.util.ConcurrentMap")));
    if (!entries.isEmpty()) {
      bad(out, "manifest value class Paiq", s.withManifestBytes(swap(m, "org.nd4j.common.primitives.Pair", "org.nd4j.common.primitives.Paiq")));
      bad(out, "manifest value class Lonh", s.withManifestBytes(swap(m, "java.lang.Long", "java.lang.Lonh")));
      bad(out, "manifest Number superclass renamed", s.withManifestBytes(swap(m, "java.lang.Number", "java.lang.Numbex")));
      bad(out, "manifest Pair serialVersionUID 120", s.withManifestBytes(patchAfter(m, "org.nd4j.common.primitives.Pair", b -> b[7] = 120)));
      bad(out, "manifest map size 0x7fffffff", s.withManifestBytes(setMapSize(m, 0x7fffffff)));
      bad(out, "manifest map size -1", s.withManifestBytes(setMapSize(m, -1)));
      bad(out, "manifest map size one more than stored", s.withManifestBytes(setMapSize(m, entries.size() + 1)));
      bad(out, "manifest key string length 0xFFFF", s.withManifestBytes(patchKeyLength(m, entries.get(0).name(), 0xFFFF)));
      bad(out, "manifest back-reference to an unknown handle", s.withManifestBytes(
          swapBytes(m, new byte[] {0x71, 0, 0x7E, 0, 5}, new byte[] {0x71, 0, 0x7E, 0x7F, 5})));
      bad(out, "manifest back-reference to the map itself", s.withManifestBytes(
          swapBytes(m, new byte[] {0x71, 0, 0x7E, 0, 5}, new byte[] {0x71, 0, 0x7E, 0, 2})));
    }
    bad(out, "manifest with trailing junk", s.withManifestBytes(BadInput.concat(m, new byte[] {0x70, 0x70})));
    bad(out, "manifest is TC_NULL", s.withManifestBytes(new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5, 0x70}));
    bad(out, "manifest is a string", s.withManifestBytes(new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5, 0x74, 0, 1, 'x'}));
    bad(out, "manifest is a TC_LONGSTRING of 2^62 bytes", s.withManifestBytes(BadInput.concat(
        new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5, 0x7C}, putI64be(new byte[8], 0, 1L << 62))));
    if (!entries.isEmpty()) {
      bad(out, "manifest key is a TC_LONGSTRING of 2^62 bytes", s.withManifestBytes(longStringKey(m, entries.get(0).name(), 1L << 62)));
      bad(out, "manifest key is a TC_LONGSTRING of -1 bytes", s.withManifestBytes(longStringKey(m, entries.get(0).name(), -1)));
    }
    bad(out, "manifest stream magic ACEE", s.withManifestBytes(patchAt(m, 1, (byte) 0xEE)));
    bad(out, "manifest stream version 6", s.withManifestBytes(patchAt(m, 3, (byte) 6)));
    bad(out, "manifest is zeros", s.withManifestBytes(new byte[m.length]));
    bad(out, "manifest block data long with length 2^31-1", s.withManifestBytes(blockDataLong(m)));
    bad(out, "manifest is a proxy class", s.withManifestBytes(new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5, 0x73, 0x7D, 0, 0, 0, 1}));
    return out;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static byte[] swap(byte[] m, String from, String to) {
    return replaceAll(m, ascii(from), ascii(to));
  }

  private static byte[] swapBytes(byte[] m, byte[] from, byte[] to) {
    return replaceAll(m, from, to);
  }

  private static byte[] patchAt(byte[] m, int at, byte v) {
    byte[] out = m.clone();
    out[at] = v;
    return out;
  }

  /** Applies {@code p} to the 8-byte serialVersionUID that follows the class name. */
  private static byte[] patchAfter(byte[] m, String className, Consumer<byte[]> p) {
    byte[] out = m.clone();
    int at = BadInput.indexOf(out, ascii(className), 0) + className.length();
    byte[] uid = Arrays.copyOfRange(out, at, at + 8);
    p.accept(uid);
    System.arraycopy(uid, 0, out, at, 8);
    return out;
  }

  /** The HashMap block data {@code 77 08 <capacity> <size>}: sets size. */
  private static byte[] setMapSize(byte[] m, int size) {
    byte[] out = m.clone();
    int at = BadInput.indexOf(out, new byte[] {0x77, 0x08}, 0);
    return putI32be(out, at + 6, size);
  }

  /** Replaces the {@code 77 08} block header by a TC_BLOCKDATALONG claiming 2^31-1 bytes. */
  private static byte[] blockDataLong(byte[] m) {
    int at = BadInput.indexOf(m, new byte[] {0x77, 0x08}, 0);
    byte[] head = Arrays.copyOf(m, at);
    byte[] tail = Arrays.copyOfRange(m, at + 2, m.length);
    return BadInput.concat(head, new byte[] {0x7A, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, tail);
  }

  /** Replaces the key's {@code 74 <u16 len>} header by {@code 7C <i64 declared>}. */
  private static byte[] longStringKey(byte[] m, String key, long declared) {
    byte[] name = ascii(key);
    byte[] needle = BadInput.concat(new byte[] {0x74, 0, (byte) name.length}, name);
    int at = BadInput.indexOf(m, needle, 0);
    return BadInput.concat(Arrays.copyOf(m, at), new byte[] {0x7C}, putI64be(new byte[8], 0, declared),
        Arrays.copyOfRange(m, at + 3, m.length));
  }

  private static byte[] patchKeyLength(byte[] m, String key, int len) {
    byte[] name = ascii(key);
    byte[] needle = BadInput.concat(new byte[] {0x74, 0, (byte) name.length}, name);
    int at = BadInput.indexOf(m, needle, 0);
    byte[] out = m.clone();
    out[at + 1] = (byte) (len >> 8);
    out[at + 2] = (byte) len;
    return out;
  }

  // ---- metadata FlatGraph ---------------------------------------------------------------------

  /** Damage inside the metadata FlatGraph of {@code s} (which has variables w1, w2, b). */
  static List<Bad> graph(Sdnb s) {
    byte[] f = s.bytes();
    List<Bad> out = new ArrayList<>();
    bad(out, "FlatGraph root offset past the metadata region", patch(f, b -> putI32le(b, 32, s.firstBlob())));
    bad(out, "FlatGraph root offset 0xFFFFFFFF", patch(f, b -> putI32le(b, 32, -1)));
    bad(out, "FlatGraph root vtable past EOF", patch(f, b -> {
      int root = fb(b).root();
      return putI32le(b, root, root - b.length);
    }));
    bad(out, "variables vector length 0x7fffffff", patch(f, b -> putI32le(b, fb(b).ref(fb(b).root(), 1), 0x7fffffff)));
    bad(out, "w1 FlatVariable shape disagrees with the blob", patch(f, b -> {
      int shape = fb(b).ref(fb(b).variable("w1"), 3);
      return putI64le(b, shape + 4 + 8, 513);
    }));
    bad(out, "w1 FlatVariable shape negative", patch(f, b -> {
      int shape = fb(b).ref(fb(b).variable("w1"), 3);
      return putI64le(b, shape + 4, -512);
    }));
    bad(out, "w1 FlatVariable shape length 0x7fffffff", patch(f, b -> putI32le(b, fb(b).ref(fb(b).variable("w1"), 3), 0x7fffffff)));
    bad(out, "w1 FlatVariable shape of rank 33", patch(f, b -> {
      int shape = fb(b).ref(fb(b).variable("w1"), 3);
      return putI32le(b, shape, 33);
    }));
    bad(out, "w1 FlatVariable dtype 99", patch(f, b -> {
      b[fb(b).field(fb(b).variable("w1"), 2)] = 99;
      return b;
    }));
    bad(out, "w1 FlatVariable dtype UTF8", patch(f, b -> {
      b[fb(b).field(fb(b).variable("w1"), 2)] = 50;
      return b;
    }));
    bad(out, "w1 FlatVariable dtype DOUBLE (blob half the size)", patch(f, b -> {
      b[fb(b).field(fb(b).variable("w1"), 2)] = 6;
      return b;
    }));
    bad(out, "inline array b: buffer 4 bytes short", patch(f, b -> {
      int buf = fb(b).ref(fb(b).ref(fb(b).variable("b"), 4), 1);
      return putI32le(b, buf, i32le(b, buf) - 4);
    }));
    bad(out, "inline array b: buffer length 0x7fffffff", patch(f, b -> {
      int buf = fb(b).ref(fb(b).ref(fb(b).variable("b"), 4), 1);
      return putI32le(b, buf, 0x7fffffff);
    }));
    bad(out, "inline array b: FlatArray shape rank 33", patch(f, b -> {
      int shape = fb(b).ref(fb(b).ref(fb(b).variable("b"), 4), 0);
      return putI32le(b, shape, 33);
    }));
    bad(out, "inline array b: FlatArray shape negative", patch(f, b -> {
      int shape = fb(b).ref(fb(b).ref(fb(b).variable("b"), 4), 0);
      return putI64le(b, shape + 4, -16);
    }));
    bad(out, "metadata keys and values of different lengths", patch(f, b -> {
      int keys = fb(b).ref(fb(b).root(), 9);
      return putI32le(b, keys, i32le(b, keys) - 1);
    }));
    bad(out, "metadata key length past EOF", patch(f, b -> {
      int keys = fb(b).ref(fb(b).root(), 9);
      return putI32le(b, fb(b).element(keys, 0), b.length);
    }));
    return out;
  }

  private static Fb fb(byte[] b) {
    return new Fb(b, 32);
  }
}
