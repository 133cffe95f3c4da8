package org.modelfs.format.sdnb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.sdnb.Manifest.Entry;
import org.nd4j.common.primitives.Pair;

/**
 * Tests {@link Manifest}: byte identity with the JDK's {@code ObjectOutputStream}, round trips,
 * and refusal of malformed or hostile streams with a {@link ModelFormatException}.
 */
class ManifestTest {
  private static final String FILE = "dir/model-1234.sdnb";

  // ---- tables ----------------------------------------------------------------------------------

  static Stream<Arguments> tables() {
    return Stream.of(
        Arguments.of("empty", List.of()),
        Arguments.of("one entry w", List.of(new Entry("w", 4096, 24))),
        Arguments.of("several", List.of(
            new Entry("in", 4096, 400), new Entry("w1", 4496, 1_048_576),
            new Entry("b1", 1_053_072, 4096), new Entry("out", 1_057_168, 8))),
        Arguments.of("12 entries", numbered(12)),
        Arguments.of("13 entries", numbered(13)),
        Arguments.of("24 entries", numbered(24)),
        Arguments.of("25 entries", numbered(25)),
        Arguments.of("100 entries", numbered(100)),
        Arguments.of("repeated small values", List.of(
            new Entry("a", 32, 0), new Entry("b", 32, 0), new Entry("c", 100, 0),
            new Entry("d", 127, -128), new Entry("e", -128, 127), new Entry("f", 0, 0),
            new Entry("g", 127, 128), new Entry("h", 128, 128))),
        Arguments.of("extreme longs", List.of(
            new Entry("min", Long.MIN_VALUE, Long.MAX_VALUE), new Entry("neg", -1, -129),
            new Entry("big", 1L << 40, (1L << 31) + 7), new Entry("max", Long.MAX_VALUE, -1))),
        Arguments.of("odd names", List.of(
            new Entry("\0", 1, 2), new Entry("a\0b", 3, 4), new Entry("ümlaut", 5, 6),
            new Entry("日本語", 7, 8), new Entry("😀 emoji \uD83E\uDD16", 9, 10),
            new Entry("a/b/c", 11, 12), new Entry("", 13, 14), new Entry("\uD800 lone", 15, 16),
            new Entry("Ljava/lang/Object;", 17, 18))),
        Arguments.of("70000-char name", List.of(
            new Entry("x".repeat(70_000), 4096, 8), new Entry("y", 4104, 8))),
        Arguments.of("65535-byte name", List.of(new Entry("é".repeat(32767) + "z", 1, 1))),
        Arguments.of("65536-byte name", List.of(new Entry("é".repeat(32768), 1, 1))));
  }

  private static List<Entry> numbered(int n) {
    return IntStream.range(0, n)
        .mapToObj(i -> new Entry("layer" + i + "/W", 4096L + 256L * i, 256))
        .toList();
  }

  // ---- writing ---------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @MethodSource("tables")
  void writeIsByteIdenticalToObjectOutputStream(String name, List<Entry> entries)
      throws IOException {
    assertArrayEquals(serialize(realMap(entries)), Manifest.write(entries));
  }

  @Test
  void writeMatchesJdkForEverySizeUpTo200() throws IOException {
    for (int n = 0; n <= 200; n++) {
      List<Entry> entries = numbered(n);
      assertArrayEquals(serialize(realMap(entries)), Manifest.write(entries), "size " + n);
    }
  }

  @Test
  void emptyManifestIs135Bytes() {
    byte[] bytes = Manifest.write(List.of());
    assertEquals(135, bytes.length);
    assertEquals("3F400000" + "00000000" + "7708" + "00000010" + "00000000" + "7800",
        hex(Arrays.copyOfRange(bytes, 115, 135)));
  }

  @Test
  void singleEntryMatchesTheDocumentedBytes() {
    byte[] expected = new Bytes()
        .hex("ACED0005")
        .hex("7372 0017").ascii("java.util.LinkedHashMap")
        .hex("34C04E5C106CC0FB 02 0001 5A 000B").ascii("accessOrder").hex("78")
        .hex("72 0011").ascii("java.util.HashMap").hex("0507DAC1C31660D1 03 0002 46 000A")
        .ascii("loadFactor").hex("49 0009").ascii("threshold").hex("78 70")
        .hex("3F400000 0000000C 77 08 00000010 00000001")
        .hex("74 0001").ascii("w")
        .hex("73 72 001F").ascii("org.nd4j.common.primitives.Pair")
        .hex("0000000000000077 02 0002 4C 0003").ascii("key").hex("74 0012")
        .ascii("Ljava/lang/Object;").hex("4C 0005").ascii("value").hex("71 007E0005 78 70")
        .hex("73 72 000E").ascii("java.lang.Long").hex("3B8BE490CC8F23DF 02 0001 4A 0005")
        .ascii("value").hex("78")
        .hex("72 0010").ascii("java.lang.Number").hex("86AC951D0B94E08B 02 0000 78 70")
        .hex("0000000000001000")
        .hex("73 71 007E0007 0000000000000018")
        .hex("78 00")
        .toArray();
    assertEquals(319, expected.length);
    assertArrayEquals(expected, Manifest.write(List.of(new Entry("w", 4096, 24))));
  }

  @Test
  void writeRefusesDuplicateNames() {
    assertThrows(IllegalArgumentException.class, () -> Manifest.write(
        List.of(new Entry("a", 1, 2), new Entry("b", 3, 4), new Entry("a", 5, 6))));
    assertThrows(NullPointerException.class, () -> new Entry(null, 1, 2));
  }

  // ---- reading well-formed streams -------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @MethodSource("tables")
  void roundTrip(String name, List<Entry> entries) throws IOException {
    assertEquals(entries, read(Manifest.write(entries)));
    assertEquals(entries, read(serialize(realMap(entries))));
  }

  @Test
  void readsPlainHashMapRoot() throws IOException {
    List<Entry> entries = numbered(40);
    HashMap<String, Pair<Long, Long>> map = new HashMap<>(realMap(entries));
    assertEquals(asMap(entries), asMap(read(serialize(map))));
  }

  @Test
  void readsOtherLegalJdkStreams() throws IOException {
    // access-ordered map with a non-default capacity
    LinkedHashMap<String, Pair<Long, Long>> accessOrdered = new LinkedHashMap<>(1000, 0.5f, true);
    accessOrdered.put("a", new Pair<>(1L, 2L));
    assertEquals(List.of(new Entry("a", 1, 2)), read(serialize(accessOrdered)));

    // one Pair instance shared by two keys; one non-cached Long instance used four times
    Long big = 100_000L;
    Pair<Long, Long> shared = new Pair<>(big, big);
    LinkedHashMap<String, Pair<Long, Long>> sharing = new LinkedHashMap<>();
    sharing.put("x", shared);
    sharing.put("y", shared);
    sharing.put("z", new Pair<>(big, big));
    assertEquals(List.of(new Entry("x", big, big), new Entry("y", big, big),
        new Entry("z", big, big)), read(serialize(sharing)));

    // an interned key equal to the field type string: the Pair descriptor back-references it
    LinkedHashMap<String, Pair<Long, Long>> interned = new LinkedHashMap<>();
    interned.put("Ljava/lang/Object;", new Pair<>(5L, 6L));
    byte[] bytes = serialize(interned);
    assertTrue(hex(bytes).contains("4C0003" + hex(ascii("key")) + "71007E0003"));
    assertEquals(List.of(new Entry("Ljava/lang/Object;", 5, 6)), read(bytes));
  }

  @Test
  void readsBlockDataSplitOrLong() throws ModelFormatException {
    byte[] entry = Arrays.copyOfRange(oneEntry(), 133, 319 - 2);
    byte[] split = new Bytes().raw(Arrays.copyOfRange(Manifest.write(List.of()), 0, 123))
        .hex("7703 000000 7705 10 00000001").raw(entry).hex("7800").toArray();
    assertEquals(List.of(new Entry("w", 4096, 24)), read(split));
    byte[] longBlock = new Bytes().raw(Arrays.copyOfRange(Manifest.write(List.of()), 0, 123))
        .hex("7A 00000008 00000010 00000001").raw(entry).hex("7800").toArray();
    assertEquals(List.of(new Entry("w", 4096, 24)), read(longBlock));
  }

  @Test
  void readUsesPositionLimitAndFileOffsetAndKeepsPosition() throws ModelFormatException {
    List<Entry> entries = numbered(3);
    byte[] manifest = Manifest.write(entries);
    ByteBuffer buf = ByteBuffer.allocateDirect(100 + manifest.length + 50);
    buf.position(100);
    buf.put(manifest);
    buf.put(new byte[50]);
    buf.position(100).limit(100 + manifest.length);
    buf.order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(entries, Manifest.read(buf, FILE, 5000));
    assertEquals(100, buf.position());

    buf.limit(100 + manifest.length - 1);
    ModelFormatException e =
        assertThrows(ModelFormatException.class, () -> Manifest.read(buf, FILE, 5000));
    assertTrue(e.offset() >= 5000 && e.offset() <= 5000 + manifest.length - 1, e.getMessage());
    assertTrue(e.getMessage().contains("at offset " + e.offset()), e.getMessage());
  }

  // ---- hostile streams -------------------------------------------------------------------------

  @Test
  void everyTruncationIsRefused() {
    byte[] bytes = threeEntries();
    for (int n = 0; n < bytes.length; n++) {
      ModelFormatException e = assertBad(Arrays.copyOf(bytes, n), null);
      assertTrue(e.offset() >= 0 && e.offset() <= n, n + ": " + e.getMessage());
    }
  }

  @Test
  void refusesWrongMagicOrVersion() {
    byte[] bytes = Manifest.write(List.of());
    bytes[0] = (byte) 0xAD;
    assertBad(bytes, "not a Java serialization stream");
    bytes = Manifest.write(List.of());
    bytes[3] = 4;
    assertBad(bytes, "not a Java serialization stream");
    assertBad(new byte[0], "truncated");
  }

  @Test
  void refusesOtherClasses() throws IOException {
    assertBad(serialize(new ArrayList<>(List.of(1L))), "java.util.ArrayList");
    assertBad(serialize(new TreeMap<>(realMap(numbered(2)))), "java.util.TreeMap");
    LinkedHashMap<String, Object> dateValue = new LinkedHashMap<>();
    dateValue.put("d", new Date(0));
    assertBad(serialize(dateValue), "java.util.Date");
    LinkedHashMap<String, Object> intPair = new LinkedHashMap<>();
    intPair.put("i", new Pair<>(1, 2));
    assertBad(serialize(intPair), "java.lang.Integer");
    LinkedHashMap<Object, Object> longKey = new LinkedHashMap<>();
    longKey.put(1L, new Pair<>(1L, 2L));
    assertBad(serialize(longKey), "expected a String map key");
    assertBad(patch(oneEntry(), "java.util.LinkedHashMap", "java.util.LinkedHashMaq"),
        "java.util.LinkedHashMaq");
    assertBad(patch(oneEntry(), "java.lang.Number", "java.lang.Numbex"), "java.lang.Numbex");
  }

  @Test
  void refusesMismatchedDescriptors() {
    byte[] pairSuid = oneEntry();
    int at = indexOf(pairSuid, ascii("org.nd4j.common.primitives.Pair")) + 31;
    pairSuid[at + 7] = 0x78;
    assertBad(pairSuid, "serialVersionUID 120");

    byte[] longSuid = oneEntry();
    longSuid[indexOf(longSuid, ascii("java.lang.Long")) + 14] ^= 1;
    assertBad(longSuid, "serialVersionUID");

    byte[] longField = oneEntry();
    longField[indexOf(longField, new Bytes().hex("4A0005").ascii("value").toArray())] = 'I';
    assertBad(longField, "field \"I value\" of java.lang.Long");

    assertBad(patch(oneEntry(), "Ljava/lang/Object;", "Ljava/lang/Objecx;"), "Objecx");
    assertBad(patch(oneEntry(), "accessOrder", "accessOrdex"), "accessOrdex");

    byte[] flags = oneEntry();
    flags[indexOf(flags, unhex("0507DAC1C31660D1")) + 8] = 2;
    assertBad(flags, "class flags 0x02 of java.util.HashMap");

    byte[] annotation = oneEntry();
    annotation[indexOf(annotation, ascii("accessOrder")) + 11] = 0x70;
    assertBad(annotation, "class annotation");

    byte[] superclass = oneEntry(); // HashMap's superclass TC_NULL -> reference to LinkedHashMap
    int hm = indexOf(superclass, ascii("threshold")) + 10;
    byte[] patched = new Bytes().raw(Arrays.copyOf(superclass, hm)).hex("71007E0000")
        .raw(Arrays.copyOfRange(superclass, hm + 1, superclass.length)).toArray();
    assertBad(patched, "back-reference 0x7E0000 is an object still being read");

    byte[] noNumber = oneEntry(); // Long's superclass Number -> TC_NULL
    int number = indexOf(noNumber, ascii("java.lang.Number")) - 3;
    int numberEnd = number + 3 + 16 + 8 + 1 + 2 + 2;
    assertBad(new Bytes().raw(Arrays.copyOf(noNumber, number)).hex("70")
        .raw(Arrays.copyOfRange(noNumber, numberEnd, noNumber.length)).toArray(),
        "superclass of java.lang.Long is null, expected java.lang.Number");
  }

  @Test
  void refusesMistypedAndNullEntries() throws IOException {
    LinkedHashMap<String, Object> stringValue = new LinkedHashMap<>();
    stringValue.put("s", new Pair<>(1L, "x"));
    assertBad(serialize(stringValue), "expected a Long (TC_OBJECT), found TC_STRING");

    LinkedHashMap<String, Object> nullLength = new LinkedHashMap<>();
    nullLength.put("n", new Pair<>(1L, null));
    assertBad(serialize(nullLength), "found TC_NULL");

    LinkedHashMap<String, Object> nullValue = new LinkedHashMap<>();
    nullValue.put("v", null);
    nullValue.put("w", new Pair<>(1L, 2L)); // so the size plausibility check passes
    assertBad(serialize(nullValue), "expected a Pair (TC_OBJECT), found TC_NULL");

    LinkedHashMap<String, Object> nullKey = new LinkedHashMap<>();
    nullKey.put(null, new Pair<>(1L, 2L));
    assertBad(serialize(nullKey), "expected a String map key, found TC_NULL");

    LinkedHashMap<String, Object> longValue = new LinkedHashMap<>();
    longValue.put("l", 7L);
    assertBad(serialize(longValue), "expected org.nd4j.common.primitives.Pair");
  }

  @Test
  void refusesBadStringLengths() {
    assertBad(withEntries(1, "7C 7FFFFFFFFFFFFFFF 41"), "declared string length");
    assertBad(withEntries(1, "7C FFFFFFFFFFFFFFFF 41"), "declared string length -1");
    assertBad(withEntries(1, "74 FFFF 41 42"), "declared string length 65535");
    byte[] className = Manifest.write(List.of());
    className[6] = (byte) 0xFF; // LinkedHashMap name length 0x0017 -> 0xFF17
    assertBad(className, "declared string length");
  }

  @Test
  void refusesBadMapSizes() {
    assertBad(stream(Integer.MAX_VALUE, ""), "declared map size 2147483647");
    assertBad(stream(-1, ""), "declared map size -1");
    assertBad(stream(1_000, "740001 41"), "declared map size 1000");
    byte[] one = oneEntry();
    one[132] = 2; // says 2 entries, holds 1
    assertBad(one, null);
  }

  @Test
  void refusesBadReferences() {
    assertBad(withEntries(1, "71 007E1234"), "unknown handle 0x7E1234");
    assertBad(withEntries(1, "71 00000000"), "unknown handle 0x0");
    assertBad(withEntries(1, "71 FFFFFFFF"), "unknown handle 0xFFFFFFFF");
    assertBad(withEntries(1, "71 007E0000"), "class descriptor of java.util.LinkedHashMap");
    assertBad(withEntries(1, "71 007E0002"), "the map itself");
    assertBad(withEntries(1, "740001 41 71 007E0003"), "is a String, expected a Pair");
    // Pair.key referencing the Pair being read, Pair.value referencing a String
    byte[] selfRef = oneEntry();
    int longObj = indexOf(selfRef, ascii("java.lang.Long")) - 4; // the "73 72 000E" of Pair.key
    assertBad(new Bytes().raw(Arrays.copyOf(selfRef, longObj)).hex("71 007E0006")
        .toArray(), "an object still being read, expected a Long");
    assertBad(new Bytes().raw(Arrays.copyOf(selfRef, longObj)).hex("71 007E0003")
        .toArray(), "is a String, expected a Long");
    byte[] descRef = oneEntry(); // Pair desc's type string "71 007E0005" -> class desc handle
    int typeRef = indexOf(descRef, unhex("71007E0005"));
    descRef[typeRef + 4] = 4;
    assertBad(descRef, "expected a field type string");
  }

  @Test
  void refusesTrailingBytes() {
    byte[] bytes = threeEntries();
    assertBad(Arrays.copyOf(bytes, bytes.length + 1), "1 trailing bytes");
    assertBad(new Bytes().raw(bytes).raw(bytes).toArray(), bytes.length + " trailing bytes");
  }

  @Test
  void refusesDuplicateKeys() {
    byte[] bytes = Manifest.write(List.of(new Entry("a", 1, 2), new Entry("b", 3, 4)));
    bytes[indexOf(bytes, unhex("74000162"), 140) + 3] = 'a';
    assertBad(bytes, "duplicate name \"a\"");
  }

  @Test
  void refusesForbiddenTags() {
    assertBad(header("737D 00000000 78 70"), "TC_PROXYCLASSDESC");
    assertBad(withEntries(1, "740001 41 73 7D 00000001 0001 41 78 70"), "TC_PROXYCLASSDESC");
    String[] tags = {"79", "7B", "7E", "75", "76", "77", "78", "7A", "00", "FF"};
    for (String tag : tags) {
      assertBad(header(tag + "72 0000"), "expected the manifest map");
      assertBad(withEntries(1, tag + "72 0000"), "expected a String map key");
      assertBad(withEntries(1, "740001 41" + tag + "72 0000"), "expected a Pair");
    }
    assertBad(withEntries(1, "740001 41 73 7E"), "TC_ENUM (0x7E)");
  }

  @Test
  void refusesDeepNestingWithoutStackOverflow() {
    byte[] pairs = new byte[200_000];
    for (int i = 0; i < pairs.length; i += 2) {
      pairs[i] = 0x73;
      pairs[i + 1] = 0x72;
    }
    assertBad(new Bytes().hex("ACED0005").raw(pairs).toArray(), "is not allowed");
    byte[] objects = new byte[100_000];
    Arrays.fill(objects, (byte) 0x73);
    assertBad(new Bytes().hex("ACED0005").raw(objects).toArray(), "expected a class descriptor");
    assertBad(withEntries(1, "740001 41" + hex(objects)), "expected a class descriptor");
    assertBad(withEntries(1, "740001 41" + hex(pairs)), "is not allowed");

    // a LinkedHashMap descriptor whose superclass is a LinkedHashMap descriptor, 10,000 deep
    byte[] lhmDesc = Arrays.copyOfRange(Manifest.write(List.of()), 5, 57);
    Bytes chain = new Bytes().hex("ACED0005 73");
    for (int i = 0; i < 10_000; i++) {
      chain.raw(lhmDesc);
    }
    assertBad(chain.toArray(), "nested too deeply");
  }

  @Test
  void refusesBadModifiedUtf8() throws ModelFormatException {
    String[] keys = {"740001 80", "740001 C0", "740002 E080", "740004 F09F9880", "740001 00",
        "740002 C181", "740003 E08080", "740002 C041", "740003 E2 82 41"};
    for (String key : keys) {
      assertBad(withEntries(1, key + "7000"), "UTF-8");
    }
    assertEquals("\0", read(stream(1, "740002 C080" + pairHex())).get(0).name());
  }

  @Test
  void refusesBadBlockDataAndMapFields() {
    byte[] empty = Manifest.write(List.of());
    byte[] prefix = Arrays.copyOf(empty, 123);
    byte[] entry = Arrays.copyOfRange(oneEntry(), 133, 319 - 2);
    assertBad(new Bytes().raw(prefix).hex("7709 00000010 00000001 00").raw(entry).hex("7800")
        .toArray(), "1 bytes of block data where an object was expected");
    assertBad(new Bytes().raw(prefix).hex("7708 00000010 00000001").raw(entry)
        .hex("7701 00 7800").toArray(), "expected the end of the HashMap data");
    assertBad(new Bytes().raw(prefix).hex("7A FFFFFFFF").toArray(), "block data length -1");
    assertBad(new Bytes().raw(prefix).hex("7A 7FFFFFFF 00000010 00000000 7800").toArray(),
        "block data length 2147483647");
    assertBad(new Bytes().raw(prefix).hex("73").toArray(), "expected HashMap block data");

    byte[] accessOrder = Manifest.write(List.of());
    accessOrder[134] = 2;
    assertBad(accessOrder, "accessOrder is 2");
    byte[] loadFactor = Manifest.write(List.of());
    loadFactor[115] = (byte) 0xBF; // -0.75f
    assertBad(loadFactor, "load factor");
    loadFactor[115] = (byte) 0x7F;
    loadFactor[116] = (byte) 0xC0; // NaN
    assertBad(loadFactor, "load factor");
  }

  @Test
  void randomMutationsNeverEscapeAsOtherExceptions() {
    byte[] original = threeEntries();
    Random random = new Random(42);
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] bytes = original.clone();
      int flips = 1 + random.nextInt(3);
      for (int f = 0; f < flips; f++) {
        bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
      }
      if (random.nextInt(4) == 0) {
        bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
      }
      try {
        read(bytes);
        accepted++;
      } catch (ModelFormatException e) {
        assertTrue(e.getMessage().startsWith(FILE + ": SDNB manifest"), e.getMessage());
      } catch (RuntimeException | Error e) {
        fail("mutation " + i + " (" + hex(bytes) + ") threw " + e, e);
      }
    }
    assertTrue(accepted < 20_000);
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private static List<Entry> read(byte[] bytes) throws ModelFormatException {
    return Manifest.read(ByteBuffer.wrap(bytes), FILE, 0);
  }

  private static ModelFormatException assertBad(byte[] bytes, String fragment) {
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> read(bytes));
    String message = e.getMessage();
    assertTrue(message.contains(FILE) && message.contains("offset"), message);
    if (fragment != null) {
      assertTrue(message.contains(fragment), "expected \"" + fragment + "\" in: " + message);
    }
    return e;
  }

  /** A real JDK map as DL4J builds it; names are copied so none is an interned constant. */
  private static LinkedHashMap<String, Pair<Long, Long>> realMap(List<Entry> entries) {
    LinkedHashMap<String, Pair<Long, Long>> map = new LinkedHashMap<>();
    for (Entry e : entries) {
      map.put(new String(e.name()), new Pair<>(e.offset(), e.length()));
    }
    return map;
  }

  private static Map<String, List<Long>> asMap(List<Entry> entries) {
    Map<String, List<Long>> map = new HashMap<>();
    for (Entry e : entries) {
      map.put(e.name(), List.of(e.offset(), e.length()));
    }
    return map;
  }

  private static byte[] serialize(Object o) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    return bytes.toByteArray();
  }

  private static byte[] oneEntry() {
    return Manifest.write(List.of(new Entry("w", 4096, 24)));
  }

  private static byte[] threeEntries() {
    return Manifest.write(
        List.of(new Entry("a", 4096, 0), new Entry("b/ü", 4096, 300), new Entry("c", 4396, 0)));
  }

  /** The stream header and the given hex as the root object. */
  private static byte[] header(String hex) {
    return new Bytes().hex("ACED0005").hex(hex).toArray();
  }

  /** An empty-map prefix declaring {@code size} entries, then {@code body}, then the end. */
  private static byte[] stream(int size, String body) {
    byte[] empty = Manifest.write(List.of());
    return new Bytes().raw(Arrays.copyOf(empty, 129)).hex(String.format("%08X", size))
        .hex(body).hex("7800").toArray();
  }

  /**
   * {@link #stream} followed by 16 junk bytes, so that the map-size plausibility check passes and
   * the error under test comes from {@code body}.
   */
  private static byte[] withEntries(int size, String body) {
    return new Bytes().raw(stream(size, body)).hex("EE".repeat(16)).toArray();
  }

  /** A complete Pair value usable right after a new key string (handle 0x7E0003). */
  private static String pairHex() {
    byte[] one = oneEntry();
    return hex(Arrays.copyOfRange(one, 137, one.length - 2));
  }

  private static byte[] patch(byte[] bytes, String from, String to) {
    byte[] f = ascii(from);
    byte[] t = ascii(to);
    System.arraycopy(t, 0, bytes, indexOf(bytes, f), t.length);
    return bytes;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    return indexOf(haystack, needle, 0);
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found: " + hex(needle));
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder();
    for (byte b : bytes) {
      sb.append(String.format("%02X", b));
    }
    return sb.toString();
  }

  private static byte[] unhex(String hex) {
    return new Bytes().hex(hex).toArray();
  }

  /** Small byte-string builder for hand-made streams. */
  private static final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes hex(String hex) {
      String digits = hex.replace(" ", "");
      for (int i = 0; i < digits.length(); i += 2) {
        out.write(Integer.parseInt(digits.substring(i, i + 2), 16));
      }
      return this;
    }

    Bytes ascii(String s) {
      return raw(ManifestTest.ascii(s));
    }

    Bytes raw(byte[] bytes) {
      out.writeBytes(bytes);
      return this;
    }

    byte[] toArray() {
      return out.toByteArray();
    }
  }
}
