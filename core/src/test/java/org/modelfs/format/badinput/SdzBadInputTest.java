package org.modelfs.format.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.format.badinput.BadInput.assertFormatError;
import static org.modelfs.format.badinput.BadInput.assertOpensOrRefused;
import static org.modelfs.format.badinput.BadInput.assertRefused;
import static org.modelfs.format.badinput.BadInput.openAndReadAll;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.badinput.BadInput.Case;
import org.modelfs.format.badinput.SdnbCorruptions.Bad;
import org.modelfs.format.badinput.Samples.Sdnb;
import org.modelfs.format.badinput.Zips.Info;
import org.modelfs.format.badinput.Zips.Item;

/**
 * SDZ (docs/FORMATS.md §7) under hostile input: not a zip, zip slip, too many entries, deflate
 * bombs and lying sizes, unsupported methods, broken central directories, no model inside, and
 * every SDNB corruption wrapped in a STORED or DEFLATED entry.
 */
class SdzBadInputTest {
  @TempDir static Path shared;
  static Sdnb small;
  static Sdnb big;
  /** Valid SDZ files written by ModelWriter. */
  static byte[] smallStored;
  static byte[] smallDeflated;
  static byte[] bigStored;
  static byte[] bigDeflated;
  static byte[] bigSharded;

  /** A nested temp dir, so that the tests can check nothing escaped into its parents. */
  @TempDir Path root;
  Path dir;
  private Path mem;

  @BeforeAll
  static void writeSamples() throws IOException {
    Path s = shared.resolve("small.sdnb");
    Samples.convertFixture(BadInput.fixture("mlp_adam.fb"), shared, s, WriteOptions.of(ModelFormat.SDNB));
    small = Samples.layout(s);
    Path b = shared.resolve("big.sdnb");
    Samples.writeSynthetic(shared, b, WriteOptions.of(ModelFormat.SDNB));
    big = Samples.layout(b);
    smallStored = write(s.resolveSibling("small.sdz"), WriteOptions.of(ModelFormat.SDZ), true);
    smallDeflated = write(s.resolveSibling("small-d.sdz"), WriteOptions.of(ModelFormat.SDZ).withDeflate(true), true);
    bigStored = write(s.resolveSibling("big.sdz"), WriteOptions.of(ModelFormat.SDZ), false);
    bigDeflated = write(s.resolveSibling("big-d.sdz"), WriteOptions.of(ModelFormat.SDZ).withDeflate(true), false);
    bigSharded = write(s.resolveSibling("big-s.sdz"), WriteOptions.of(ModelFormat.SDZ).withMaxShardBytes(1_500_000),
        false);
  }

  private static byte[] write(Path out, WriteOptions o, boolean fromFixture) throws IOException {
    if (fromFixture) {
      Samples.convertFixture(BadInput.fixture("mlp_adam.fb"), shared, out, o);
    } else {
      Samples.writeSynthetic(shared, out, o);
    }
    return Files.readAllBytes(out);
  }

  @BeforeEach
  void dirs() throws IOException {
    dir = Files.createDirectories(root.resolve("a").resolve("b").resolve("work"));
    mem = BadInput.memoryDir();
  }

  @AfterEach
  void closeMemory() throws IOException {
    mem.getFileSystem().close();
  }

  private Path zip(String name, List<Item> items) throws IOException {
    return Zips.write(dir.resolve(name), items);
  }

  private Path file(String name, byte[] content) throws IOException {
    return BadInput.put(dir, name, content);
  }

  // ---- baseline ----------------------------------------------------------------------------------

  @Test
  void samplesOpen() throws IOException {
    for (String n : List.of("smallStored", "smallDeflated", "bigStored", "bigDeflated", "bigSharded")) {
      byte[] b = switch (n) {
        case "smallStored" -> smallStored;
        case "smallDeflated" -> smallDeflated;
        case "bigStored" -> bigStored;
        case "bigDeflated" -> bigDeflated;
        default -> bigSharded;
      };
      assertNull(BadInput.openTimed(file(n + ".sdz", b), n), n + " must open");
    }
    assertEquals(3, Zips.entries(bigSharded).size(), "sharded sample has 3 shard entries");
    assertEquals(ZipArchiveEntry.DEFLATED, Zips.entries(bigDeflated).get(0).method());
  }

  @Test
  void handBuiltZipsOfValidSdnbOpen() throws IOException {
    assertNull(BadInput.openTimed(zip("s.sdz", List.of(Item.stored("model.sdnb", big.bytes()))), "stored"));
    assertNull(BadInput.openTimed(zip("d.sdz", List.of(Item.deflated("model.sdnb", small.bytes()))), "deflated"));
  }

  /** Two central directory records pointing at one deflated entry: the overlapping zip bomb. */
  @Test
  void overlappingEntriesAreRefusedBeforeInflating() throws IOException {
    Path z = zip("overlap.sdz", List.of(Item.deflated("model.sdnb", small.bytes()), Item.deflated("tag.x", small.bytes())));
    assertNull(BadInput.openTimed(z, "two deflated entries"), "before the patch the zip opens");
    byte[] b = Files.readAllBytes(z);
    Zips.putU32(b, Zips.entry(b, "tag.x").cd() + 42, Zips.entry(b, "model.sdnb").lfh());
    Files.write(z, b);
    String m = assertRefused(z, "tag.x's record points at model.sdnb's data").getMessage();
    assertTrue(m.contains("data overlaps that of entry") && m.contains("overlapping entries"), m);
  }

  // ---- not a zip ---------------------------------------------------------------------------------

  static Stream<Arguments> notZips() {
    byte[] lfhOnly = Arrays.copyOf(smallStored, 30 + 10);
    byte[] eocdOnly = new byte[22];
    Zips.putU32(eocdOnly, 0, 0x06054b50L);
    return Stream.of(
        Arguments.of("PK\\3\\4 then junk", "PK\u0003\u0004 this is not a zip archive at all".getBytes(StandardCharsets.ISO_8859_1)),
        Arguments.of("PK\\3\\4 only", new byte[] {'P', 'K', 3, 4}),
        Arguments.of("PK\\3\\4 and 60 zero bytes", Arrays.copyOf(new byte[] {'P', 'K', 3, 4}, 64)),
        Arguments.of("local header only, no central directory", lfhOnly),
        Arguments.of("empty zip (end record only)", eocdOnly),
        Arguments.of("zip without its first 4 bytes", Arrays.copyOfRange(smallStored, 4, smallStored.length)),
        Arguments.of("magic PK\\5\\6 on an SDZ", patched(smallStored, 2, (byte) 5)));
  }

  private static byte[] patched(byte[] b, int at, byte v) {
    byte[] out = b.clone();
    out[at] = v;
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notZips")
  void notAZipIsRefused(String name, byte[] content) throws IOException {
    assertRefused(file("bad.sdz", content), name);
  }

  // ---- zip slip ----------------------------------------------------------------------------------

  static Stream<String> slipNames() {
    return Stream.of("../evil.sdnb", "../../evil.sdnb", "../../../evil.sdnb", "/abs.sdnb", "/tmp/abs.sdnb",
        "a/b.sdnb", "a/../../evil.sdnb", "./model.sdnb", "..\\x", "..\\..\\evil.sdnb", "C:evil.sdnb",
        "C:\\evil.sdnb", "evil\0.sdnb", "model.sdnb\0../evil", "..", ".", "", "../", "a/");
  }

  /** Stand-ins for characters commons-compress would rewrite on writing: patched in afterwards. */
  private static final char BACKSLASH = '\u0001';
  private static final char NUL = '\u0002';

  private Path slipZip(String name, boolean withValidModel) throws IOException {
    String placeholder = name.replace('\\', BACKSLASH).replace('\0', NUL);
    boolean patch = !placeholder.equals(name);
    List<Item> items = new ArrayList<>();
    if (withValidModel) {
      items.add(Item.stored("model.sdnb", small.bytes()));
    }
    items.add(new Item(placeholder, ZipArchiveEntry.STORED, o -> o.write(small.bytes()), true));
    Path z = zip("slip.sdz", items);
    if (patch) {
      byte[] b = Files.readAllBytes(z);
      byte[] from = placeholder.getBytes(StandardCharsets.UTF_8);
      byte[] to = name.getBytes(StandardCharsets.UTF_8);
      Files.write(z, BadInput.replaceAll(b, from, to));
    }
    return z;
  }

  @ParameterizedTest(name = "entry name \"{0}\"")
  @MethodSource("slipNames")
  void zipSlipEntryNameIsRefused(String name) throws IOException {
    Set<String> before = outside();
    for (boolean withValid : new boolean[] {false, true}) {
      Path z = slipZip(name, withValid);
      if (name.endsWith("/") && !name.contains("..")) {
        // a plain directory entry is skipped (DL4J does too); nothing may be written for it
        IOException e = BadInput.openTimed(z, "directory entry " + name);
        if (e != null) {
          BadInput.assertGoodMessage(e, name, List.of("slip.sdz"));
        }
      } else {
        assertRefused(z, "entry name \"" + name + "\"" + (withValid ? " beside a valid model.sdnb" : ""));
      }
      assertEquals(before, outside(), "files appeared outside the container's directory");
      try (Stream<Path> s = Files.walk(root)) {
        List<String> created = s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString())
            .filter(p -> !p.equals("a/b/work/slip.sdz")).toList();
        assertEquals(List.of(), created, "files created under the test directory");
      }
      try (Stream<Path> s = Files.list(dir)) {
        assertEquals(List.of("slip.sdz"), s.map(p -> p.getFileName().toString()).toList());
      }
    }
  }

  /** Files with the evil names in every place an escaping entry could land. */
  private Set<String> outside() {
    Set<String> found = new TreeSet<>();
    List<Path> places = new ArrayList<>(List.of(root, root.resolve("a"), root.resolve("a/b"), root.getParent(),
        Path.of(System.getProperty("java.io.tmpdir")), Path.of("").toAbsolutePath(), Path.of("/"), Path.of("/tmp")));
    for (Path p : places) {
      for (String n : List.of("evil.sdnb", "abs.sdnb", "x", "b.sdnb", "C:evil.sdnb", "evil")) {
        if (p != null && Files.exists(p.resolve(n))) {
          found.add(p.resolve(n).toString());
        }
      }
    }
    return found;
  }

  // ---- entry count ---------------------------------------------------------------------------------

  @Test
  void moreThan1000EntriesAreRefused() throws IOException {
    List<Item> items = new ArrayList<>();
    items.add(Item.stored("model.sdnb", small.bytes()));
    for (int i = 0; i < 1000; i++) {
      items.add(Item.stored(String.format("e%04d.txt", i), new byte[] {(byte) i}));
    }
    Path z = zip("many.sdz", items);
    assertFormatError(z, "1001 entries");
  }

  @Test
  void exactly1000EntriesAreAccepted() throws IOException {
    List<Item> items = new ArrayList<>();
    items.add(Item.stored("model.sdnb", small.bytes()));
    for (int i = 0; i < 999; i++) {
      items.add(Item.stored(String.format("e%04d.txt", i), new byte[] {(byte) i}));
    }
    assertNull(BadInput.openTimed(zip("thousand.sdz", items), "1000 entries"));
  }

  // ---- deflate bombs and lying sizes ----------------------------------------------------------------

  /** {@code n} zero bytes, streamed. */
  private static Zips.Body zeros(byte[] head, long n) {
    return out -> {
      out.write(head);
      byte[] z = new byte[1 << 20];
      for (long left = n; left > 0; left -= z.length) {
        out.write(z, 0, (int) Math.min(z.length, left));
      }
    };
  }

  /** An SDNB header whose manifest is empty (length 0): refused once read. */
  private static byte[] sdnbHeader() {
    byte[] h = Arrays.copyOf(small.bytes(), 32);
    BadInput.putI64be(h, 8, 32);
    BadInput.putI64be(h, 16, 0);
    return h;
  }

  @Test
  void deflateBombOfZerosIsRefused() throws IOException {
    Path z = zip("bomb.sdz", List.of(new Item("model.sdnb", ZipArchiveEntry.DEFLATED, zeros(new byte[0], 200L << 20), false)));
    assertTrue(Files.size(z) < (1 << 20), "a 200 MB bomb compresses to " + Files.size(z));
    try (TempWatch w = new TempWatch()) {
      assertFormatError(z, "200 MB of deflated zeros");
      assertTrue(w.max() <= 200L << 20, "inflated " + w.max() + " bytes");
    }
  }

  /** The bomb starts like an SDNB file, so a reader must inflate it to look inside. */
  @Test
  void deflateBombWithSdnbHeaderIsRefusedWithinItsDeclaredSize() throws IOException {
    long n = 200L << 20;
    Path z = zip("bomb2.sdz", List.of(new Item("model.sdnb", ZipArchiveEntry.DEFLATED, zeros(sdnbHeader(), n), false)));
    Info e = Zips.entries(Files.readAllBytes(z)).get(0);
    assertEquals(n + 32, e.usize());
    try (TempWatch w = new TempWatch()) {
      assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
        IOException ex = BadInput.openAndReadAll(z, "SDNB header + 200 MB of zeros");
        assertTrue(ex != null, "must be refused");
        BadInput.assertGoodMessage(ex, "bomb with SDNB header", List.of("bomb2.sdz"));
      });
      // deflated entries are inflated in memory, only as far as a read needs: nothing on disk
      assertEquals(0, w.max(), "wrote " + w.max() + " bytes to a temporary file");
      assertEquals(0, w.openNow(), "a temporary file of the refused zip is still open");
    }
  }

  /** The central directory declares 1 MiB; the data inflates to 20 MiB. */
  @Test
  void entryInflatingBeyondItsDeclaredSizeIsCutOff() throws IOException {
    Path z = zip("liar.sdz", List.of(new Item("model.sdnb", ZipArchiveEntry.DEFLATED, zeros(sdnbHeader(), 20L << 20), false)));
    byte[] b = Files.readAllBytes(z);
    Info e = Zips.entries(b).get(0);
    long declared = 1L << 20;
    Files.write(z, Zips.setSizes(b, e, e.csize(), declared));
    try (TempWatch w = new TempWatch()) {
      assertFormatError(z, "declares 1 MiB, inflates to 20 MiB");
      assertTrue(w.max() <= declared, "wrote " + w.max() + " bytes, more than the declared " + declared);
      assertEquals(0, w.openNow(), "a temporary file of the refused zip is still open");
    }
  }

  @Test
  void entryInflatingToLessThanItsDeclaredSizeIsRefused() throws IOException {
    Path z = zip("short.sdz", List.of(Item.deflated("model.sdnb", small.bytes())));
    byte[] b = Files.readAllBytes(z);
    Info e = Zips.entries(b).get(0);
    Files.write(z, Zips.setSizes(b, e, e.csize(), e.usize() + 1000));
    assertFormatError(z, "declares 1000 bytes more than it inflates to");
  }

  @Test
  void impossibleCompressionRatioIsRefused() throws IOException {
    Path z = zip("ratio.sdz", List.of(Item.deflated("model.sdnb", small.bytes())));
    byte[] b = Files.readAllBytes(z);
    Info e = Zips.entries(b).get(0);
    Files.write(z, Zips.setSizes(b, e, e.csize(), 0xFFFFFFF0L));
    assertFormatError(z, "declares 4 GiB from a few KiB");
  }

  /**
   * The central directory's compressed size disagrees with the deflate stream. One byte short
   * may still inflate to the exact content (commons-compress feeds the inflater one extra zero
   * byte, which can stand in for a final byte holding only zero bits): then it must open intact.
   */
  @ParameterizedTest
  @ValueSource(longs = {-1, 0, 4})
  void deflatedCompressedSizeLies(long delta) throws IOException {
    Path z = zip("csize.sdz", List.of(Item.deflated("model.sdnb", small.bytes())));
    byte[] b = Files.readAllBytes(z);
    Info e = Zips.entries(b).get(0);
    long csize = delta == 0 ? 10 : e.csize() + delta;
    Files.write(z, Zips.setSizes(b, e, csize, e.usize()));
    String what = "compressed size " + csize + " instead of " + e.csize();
    if (delta < 0) {
      BadInput.timed(() -> assertOpensOrRefused(z, what));
    } else {
      assertRefused(z, what);
    }
  }

  // ---- STORED sizes ----------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"twice the file", "0xFFFFFFFF", "one past EOF", "csize != size"})
  void storedEntrySizeLies(String how) throws IOException {
    Path z = zip("stored.sdz", List.of(Item.stored("model.sdnb", small.bytes())));
    byte[] b = Files.readAllBytes(z);
    Info e = Zips.entries(b).get(0);
    byte[] bad = switch (how) {
      case "twice the file" -> Zips.setSizes(b, e, 2L * b.length, 2L * b.length);
      case "0xFFFFFFFF" -> Zips.setSizes(b, e, 0xFFFFFFFFL, 0xFFFFFFFFL);
      case "one past EOF" -> Zips.setSizes(b, e, b.length - e.data() + 1, b.length - e.data() + 1);
      default -> Zips.setSizes(b, e, e.csize(), e.usize() + 8);
    };
    Files.write(z, bad);
    assertRefused(z, "STORED entry size: " + how);
  }

  /** Zip64 extra fields declaring sizes of 2^62 bytes (the 32-bit fields say "see Zip64"). */
  @ParameterizedTest
  @ValueSource(ints = {ZipArchiveEntry.STORED, ZipArchiveEntry.DEFLATED})
  void zip64SizesBeyondTheFileAreRefused(int method) throws IOException {
    Path z = dir.resolve("z64.sdz");
    try (ZipArchiveOutputStream zos =
        new ZipArchiveOutputStream(z.toFile())) {
      zos.setUseZip64(Zip64Mode.Always);
      ZipArchiveEntry ze = new ZipArchiveEntry("model.sdnb");
      ze.setMethod(method);
      if (method == ZipArchiveEntry.STORED) {
        CRC32 crc = new CRC32();
        crc.update(small.bytes());
        ze.setSize(small.bytes().length);
        ze.setCrc(crc.getValue());
      }
      zos.putArchiveEntry(ze);
      zos.write(small.bytes());
      zos.closeArchiveEntry();
    }
    assertNull(BadInput.openTimed(z, "valid Zip64 SDZ"), "the unpatched Zip64 zip opens");
    byte[] b = Files.readAllBytes(z);
    int patched = 0;
    for (Info e : Zips.entries(b)) {
      patched += patchZip64Sizes(b, e.cd() + 46 + Zips.u16(b, e.cd() + 28), Zips.u16(b, e.cd() + 30));
      patched += patchZip64Sizes(b, e.lfh() + 30 + Zips.u16(b, e.lfh() + 26), Zips.u16(b, e.lfh() + 28));
    }
    assertTrue(patched > 0, "no Zip64 extra field found");
    Files.write(z, b);
    assertRefused(z, "Zip64 sizes of 2^62 (" + (method == 0 ? "STORED" : "DEFLATED") + ")");
  }

  /** Sets the sizes of the Zip64 extra field (id 1) in {@code [at, at + len)}; returns 1 if found. */
  private static int patchZip64Sizes(byte[] b, int at, int len) {
    for (int p = at; p + 4 <= at + len; ) {
      int id = Zips.u16(b, p);
      int size = Zips.u16(b, p + 2);
      if (id == 1) {
        for (int k = 0; k + 8 <= Math.min(size, 16); k += 8) {
          BadInput.putI64le(b, p + 4 + k, 1L << 62);
        }
        return 1;
      }
      p += 4 + size;
    }
    return 0;
  }

  // ---- methods and flags --------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(ints = {1, 6, 9, 12, 14, 93, 95, 98, 99, 0xFFFF})
  void unsupportedCompressionMethodIsRefused(int method) throws IOException {
    for (boolean deflated : new boolean[] {false, true}) {
      Path z = zip("method.sdz", List.of(deflated ? Item.deflated("model.sdnb", small.bytes())
          : Item.stored("model.sdnb", small.bytes())));
      byte[] b = Files.readAllBytes(z);
      Files.write(z, Zips.setMethod(b, Zips.entries(b).get(0), method));
      assertRefused(z, "compression method " + method + " (data " + (deflated ? "deflated" : "stored") + ")");
    }
  }

  /** Traditional PKWARE encryption flag on a DEFLATED entry. */
  @Test
  void encryptedDeflatedEntryIsRefused() throws IOException {
    Path z = zip("enc.sdz", List.of(Item.deflated("model.sdnb", small.bytes())));
    byte[] b = Files.readAllBytes(z);
    Files.write(z, Zips.orFlags(b, Zips.entries(b).get(0), 1));
    assertRefused(z, "encrypted DEFLATED entry");
  }

  /** Broken deflate data at the very start of the entry (invalid block type 3). */
  @Test
  void corruptDeflateStreamAtStartIsRefused() throws IOException {
    Path z = zip("corrupt.sdz", List.of(Item.deflated("model.sdnb", small.bytes())));
    byte[] b = Files.readAllBytes(z);
    Info e = Zips.entries(b).get(0);
    b[e.data()] = (byte) 0xFF; // BFINAL=1, BTYPE=11: reserved
    Files.write(z, b);
    assertRefused(z, "deflate stream with an invalid block type at its start");
  }

  /** Broken deflate data in the middle of the entry. */
  @Test
  void corruptDeflateStreamInTheMiddleIsRefused() throws IOException {
    Path z = zip("corrupt2.sdz", List.of(Item.deflated("model.sdnb", small.bytes())));
    byte[] b = Files.readAllBytes(z);
    Info e = Zips.entries(b).get(0);
    for (int i = 0; i < 64; i++) {
      b[(int) (e.data() + e.csize() / 2) + i] = (byte) 0xFF;
    }
    Files.write(z, b);
    IOException ex = BadInput.openTimed(z, "deflate stream damaged in the middle");
    assertTrue(ex != null, "64 bytes of 0xFF in a deflate stream must not inflate to the declared size");
    BadInput.assertGoodMessage(ex, "deflate stream damaged in the middle", List.of("corrupt2.sdz"));
  }

  // ---- central directory ------------------------------------------------------------------------------

  static Stream<Arguments> brokenDirectories() {
    byte[] z = smallStored;
    int cd = Zips.cdOffset(z);
    int eocd = Zips.eocd(z);
    List<Arguments> out = new ArrayList<>();
    for (int cut : new int[] {cd, cd + 1, cd + 10, cd + 46, eocd - 1, eocd, eocd + 4, eocd + 10, eocd + 21}) {
      out.add(Arguments.of("cut to " + cut + " (central directory at " + cd + ", end record at " + eocd + ")",
          Arrays.copyOf(z, cut)));
    }
    out.add(Arguments.of("directory offset past EOF", u32(z, eocd + 16, z.length + 100)));
    out.add(Arguments.of("directory offset 0xFFFFFFFF", u32(z, eocd + 16, 0xFFFFFFFFL)));
    out.add(Arguments.of("directory offset 0 (a local header)", u32(z, eocd + 16, 0)));
    out.add(Arguments.of("directory size 0xFFFFFFFF", u32(z, eocd + 12, 0xFFFFFFFFL)));
    out.add(Arguments.of("directory size 0", u32(z, eocd + 12, 0)));
    out.add(Arguments.of("entry count 0xFFFF", u16s(z, eocd + 8, 0xFFFF, eocd + 10, 0xFFFF)));
    out.add(Arguments.of("entry count 0", u16s(z, eocd + 8, 0, eocd + 10, 0)));
    out.add(Arguments.of("comment length past EOF", u16s(z, eocd + 20, 0xFFFF, eocd + 20, 0xFFFF)));
    out.add(Arguments.of("central header signature broken", u32(z, cd, 0x02014b51L)));
    out.add(Arguments.of("name length 0xFFFF", u16s(z, cd + 28, 0xFFFF, cd + 28, 0xFFFF)));
    out.add(Arguments.of("extra length 0xFFFF", u16s(z, cd + 30, 0xFFFF, cd + 30, 0xFFFF)));
    out.add(Arguments.of("local header offset past EOF", u32(z, cd + 42, z.length + 100)));
    out.add(Arguments.of("local header offset 0xFFFFFFFF", u32(z, cd + 42, 0xFFFFFFFFL)));
    out.add(Arguments.of("local header offset into the central directory", u32(z, cd + 42, cd)));
    out.add(Arguments.of("local header signature broken", u32(z, 0, 0x04034b50L + 0x100)));
    out.add(Arguments.of("local name length 0xFFFF", u16s(z, 26, 0xFFFF, 26, 0xFFFF)));
    out.add(Arguments.of("local extra length 0xFFFF", u16s(z, 28, 0xFFFF, 28, 0xFFFF)));
    return out.stream();
  }

  private static byte[] u32(byte[] z, int at, long v) {
    byte[] out = z.clone();
    Zips.putU32(out, at, v);
    return out;
  }

  private static byte[] u16s(byte[] z, int at1, int v1, int at2, int v2) {
    byte[] out = z.clone();
    Zips.putU16(out, at1, v1);
    Zips.putU16(out, at2, v2);
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenDirectories")
  void brokenCentralDirectoryIsRefused(String name, byte[] content) throws IOException {
    Path p = file("cd.sdz", content);
    IOException e = BadInput.openTimed(p, name);
    // A few patches are harmless (e.g. the local header's extra length when the reader trusts
    // the central directory); all others must be refused with a good message.
    if (e != null) {
      BadInput.assertGoodMessage(e, name, List.of("cd.sdz"));
    } else {
      assertTrue(name.startsWith("local") || name.contains("comment") || name.startsWith("entry count")
          || name.contains("directory size"), name + ": was accepted");
    }
  }

  // ---- what is inside ----------------------------------------------------------------------------------

  @Test
  void zipWithoutSdnbEntryIsRefused() throws IOException {
    Path z = zip("none.sdz", List.of(Item.stored("readme.txt", "hello".getBytes()),
        Item.deflated("model.fb", BadInput.fixture("mlp_adam.fb")), Item.stored("model", new byte[0])));
    assertFormatError(z, "no SDNB entry");
  }

  @Test
  void emptyZipWithOneEmptyEntryIsRefused() throws IOException {
    assertFormatError(zip("empty.sdz", List.of(Item.stored("model.sdnb", new byte[0]))), "empty model.sdnb");
  }

  @Test
  void duplicateEntryNamesAreRefused() throws IOException {
    Path z = zip("dup.sdz", List.of(Item.stored("model.sdnb", small.bytes()), Item.stored("model.sdnb", small.bytes())));
    assertFormatError(z, "model.sdnb twice");
  }

  @Test
  void shardedSdzWithAMissingShardIsRefused() throws IOException {
    List<Info> es = Zips.entries(bigSharded);
    List<Item> items = new ArrayList<>();
    for (Info e : es) {
      if (!e.name().contains("shard1-of-")) {
        items.add(Item.stored(e.name(), Arrays.copyOfRange(bigSharded, e.data(), (int) (e.data() + e.csize()))));
      }
    }
    assertFormatError(zip("shards.sdz", items), "shard 1 missing from the zip");
  }

  @Test
  void shardedSdzWithShardsDisagreeingOnCountIsRefused() throws IOException {
    List<Item> items = new ArrayList<>();
    for (Info e : Zips.entries(bigSharded)) {
      String name = e.name().contains("shard2-of-3") ? "model.shard2-of-4.sdnb" : e.name();
      items.add(Item.stored(name, Arrays.copyOfRange(bigSharded, e.data(), (int) (e.data() + e.csize()))));
    }
    assertRefused(zip("shards2.sdz", items), "shard entries say 3 and 4");
  }

  @Test
  void shardedSdzWithForeignWeightShardIsRefused() throws IOException {
    List<Item> items = new ArrayList<>();
    for (Info e : Zips.entries(bigSharded)) {
      byte[] content = Arrays.copyOfRange(bigSharded, e.data(), (int) (e.data() + e.csize()));
      items.add(Item.stored(e.name(), e.name().contains("shard1-of") ? big.bytes() : content));
    }
    assertRefused(zip("shards3.sdz", items), "a whole single-file model in place of weight shard 1");
  }

  // ---- every SDNB corruption inside a zip -------------------------------------------------------------

  static Stream<Bad> innerCases() {
    return Stream.of(SdnbCorruptions.header(small), SdnbCorruptions.headerPrefixes(small),
            SdnbCorruptions.truncations(small), SdnbCorruptions.manifestBytes(small),
            SdnbCorruptions.manifestEntries(big), SdnbCorruptions.graph(big), SdnbCorruptions.truncations(big))
        .flatMap(List::stream);
  }

  @ParameterizedTest(name = "STORED: {0}")
  @MethodSource("innerCases")
  void corruptSdnbInStoredEntryIsRefused(Bad c) throws IOException {
    assertRefused(zip("inner.sdz", List.of(Item.stored("model.sdnb", c.bytes()))), "STORED " + c.name());
  }

  static Stream<Bad> innerDeflatedCases() {
    // the big sample (2 MiB of incompressible data) takes long to deflate: a few of its cases
    List<Bad> bigOnes = SdnbCorruptions.manifestEntries(big).stream()
        .filter(b -> b.name().contains("overlapping") || b.name().contains("past EOF")
            || b.name().contains("unknown variable") || b.name().contains("4 bytes short"))
        .toList();
    return Stream.of(SdnbCorruptions.header(small), SdnbCorruptions.headerPrefixes(small),
            SdnbCorruptions.truncations(small), SdnbCorruptions.manifestBytes(small), bigOnes)
        .flatMap(List::stream);
  }

  @ParameterizedTest(name = "DEFLATED: {0}")
  @MethodSource("innerDeflatedCases")
  void corruptSdnbInDeflatedEntryIsRefused(Bad c) throws IOException {
    assertRefused(zip("inner.sdz", List.of(Item.deflated("model.sdnb", c.bytes()))), "DEFLATED " + c.name());
  }

  // ---- random damage ------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"stored", "deflated"})
  void randomByteDamage(String kind) {
    byte[] original = kind.equals("stored") ? smallStored : smallDeflated;
    Random rnd = new Random(kind.hashCode());
    List<Case> cases = new ArrayList<>();
    Path p = mem.resolve("mutant.sdz");
    for (int i = 0; i < 600; i++) {
      byte[] m = FbBadInputTest.mutate(original, rnd);
      String what = kind + " SDZ mutation #" + i;
      cases.add(new Case(what, () -> {
        BadInput.put(mem, "mutant.sdz", m);
        assertOpensOrRefused(p, what);
      }));
    }
    BadInput.runAll(Duration.ofSeconds(30), cases);
  }

  /** Damage confined to the zip structures (local header and central directory) of the small sample. */
  @Test
  void randomZipStructureDamage() {
    byte[] original = smallStored;
    Info e = Zips.entries(original).get(0);
    int cd = Zips.cdOffset(original);
    Random rnd = new Random(0x21B);
    List<Case> cases = new ArrayList<>();
    Path p = mem.resolve("zmutant.sdz");
    for (int i = 0; i < 500; i++) {
      byte[] m = original.clone();
      int n = 1 + rnd.nextInt(3);
      for (int k = 0; k < n; k++) {
        int at = rnd.nextBoolean() ? rnd.nextInt(e.data()) : cd + rnd.nextInt(original.length - cd);
        m[at] = rnd.nextInt(3) == 0 ? (byte) 0xFF : (byte) rnd.nextInt(256);
      }
      String what = "zip structure mutation #" + i;
      cases.add(new Case(what, () -> {
        BadInput.put(mem, "zmutant.sdz", m);
        assertOpensOrRefused(p, what);
      }));
    }
    BadInput.runAll(Duration.ofSeconds(30), cases);
  }

  // ---- temporary files ----------------------------------------------------------------------------------

  /**
   * Watches this process's open file descriptors (Linux {@code /proc/self/fd}) for a zip
   * reader's temporary files (SDZ's by default) while a test runs: the largest size seen, and
   * how many are open.
   */
  static final class TempWatch implements AutoCloseable {
    private static final Path FDS = Path.of("/proc/self/fd");
    private final String marker;
    private final AtomicLong max = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    TempWatch() {
      this("modelfs-sdz-", true);
    }

    /** Watches files whose path contains {@code marker}; {@code watch = false}: only {@link #openNow}. */
    TempWatch(String marker, boolean watch) {
      this.marker = marker;
      thread = new Thread(() -> {
        while (running.get()) {
          scan();
          try {
            Thread.sleep(1);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "sdz-temp-watch");
      thread.setDaemon(true);
      if (watch && Files.isDirectory(FDS)) {
        thread.start();
      }
    }

    private int scan() {
      int open = 0;
      try (Stream<Path> s = Files.list(FDS)) {
        for (Path fd : (Iterable<Path>) s::iterator) {
          try {
            String target = Files.readSymbolicLink(fd).toString();
            if (target.contains(marker)) {
              open++;
              max.accumulateAndGet(Files.size(fd), Math::max);
            }
          } catch (IOException | RuntimeException ignored) {
            // closed meanwhile
          }
        }
      } catch (IOException | RuntimeException ignored) {
        // no /proc
      }
      return open;
    }

    long max() {
      return max.get();
    }

    /** Whether this platform lets the watcher see open files. */
    boolean active() {
      return thread.isAlive() || Files.isDirectory(FDS);
    }

    /** Temporary files of the SDZ reader still open now. */
    int openNow() {
      return Files.isDirectory(FDS) ? scan() : 0;
    }

    @Override
    public void close() {
      running.set(false);
      try {
        thread.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
