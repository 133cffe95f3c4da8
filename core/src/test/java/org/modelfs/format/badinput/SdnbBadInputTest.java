package org.modelfs.format.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.format.badinput.BadInput.assertFormatError;
import static org.modelfs.format.badinput.BadInput.assertOpensOrRefused;
import static org.modelfs.format.badinput.BadInput.assertRefused;
import static org.modelfs.format.badinput.BadInput.put;
import static org.modelfs.format.badinput.BadInput.putI64be;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.ModelFormatException;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.badinput.BadInput.Case;
import org.modelfs.format.badinput.SdnbCorruptions.Bad;
import org.modelfs.format.badinput.Samples.Sdnb;
import org.modelfs.model.Model;

/**
 * SDNB (docs/FORMATS.md §5) under hostile input: header fields, every header prefix, truncation at
 * every structure boundary, manifests with impossible entries or foreign classes, damaged
 * metadata FlatGraphs, and random byte damage.
 */
class SdnbBadInputTest {
  @TempDir static Path shared;
  /** mlp_adam.fb as SDNB: all arrays inline, updater state, empty manifest. */
  static Sdnb small;
  /** The synthetic model as SDNB: blobs w1, w2 (1 MiB each), inline b, updater state. */
  static Sdnb big;

  @TempDir Path dir;
  private Path mem;

  @BeforeAll
  static void writeSamples() throws IOException {
    Path s = shared.resolve("small.sdnb");
    Samples.convertFixture(BadInput.fixture("mlp_adam.fb"), shared, s, WriteOptions.of(ModelFormat.SDNB));
    small = Samples.layout(s);
    Path b = shared.resolve("big.sdnb");
    Samples.writeSynthetic(shared, b, WriteOptions.of(ModelFormat.SDNB));
    big = Samples.layout(b);
  }

  @BeforeEach
  void memory() throws IOException {
    mem = BadInput.memoryDir();
  }

  @AfterEach
  void closeMemory() throws IOException {
    mem.getFileSystem().close();
  }

  // ---- the samples are what the cases assume -----------------------------------------------------

  @Test
  void samplesAreValidAndHaveTheExpectedLayout() throws IOException {
    assertNull(BadInput.openTimed(put(dir, "small.sdnb", small.bytes()), "small sample"));
    assertNull(BadInput.openTimed(put(dir, "big.sdnb", big.bytes()), "big sample"));
    assertEquals(List.of("w1", "w2"), big.entries().stream().map(Samples.Entry::name).toList());
    assertEquals(big.mEnd(), big.bytes().length);
    assertTrue(small.entries().isEmpty());
    try (Model m = Models.open(put(dir, "big2.sdnb", big.bytes()))) {
      assertEquals(1, m.newest().updater().size(), "updater state of b");
    }
  }

  /** The test's own manifest writer produces what the reader accepts (else the cases prove nothing). */
  @Test
  void independentManifestWriterIsAccepted() throws IOException {
    Path p = put(dir, "rewritten.sdnb", big.withManifest(big.entries()));
    assertNull(BadInput.openTimed(p, "big sample with the test's own manifest"));
    Path q = put(dir, "reordered.sdnb", big.withManifest(List.of(big.entries().get(1), big.entries().get(0))));
    assertNull(BadInput.openTimed(q, "manifest entries in reverse order"));
    Path e = put(dir, "empty.sdnb", small.withManifest(List.of()));
    assertNull(BadInput.openTimed(e, "small sample with the test's own empty manifest"));
  }

  // ---- catalogued corruptions ---------------------------------------------------------------------

  static Stream<Bad> headerCases() {
    return Stream.concat(SdnbCorruptions.header(small).stream().map(b -> rename(b, "small: ")),
        SdnbCorruptions.header(big).stream().map(b -> rename(b, "big: ")));
  }

  static Stream<Bad> headerPrefixCases() {
    return SdnbCorruptions.headerPrefixes(big).stream();
  }

  static Stream<Bad> truncationCases() {
    return Stream.concat(SdnbCorruptions.truncations(big).stream().map(b -> rename(b, "big: ")),
        SdnbCorruptions.truncations(small).stream().map(b -> rename(b, "small: ")));
  }

  static Stream<Bad> manifestEntryCases() {
    return SdnbCorruptions.manifestEntries(big).stream();
  }

  static Stream<Bad> manifestByteCases() {
    return Stream.concat(SdnbCorruptions.manifestBytes(big).stream().map(b -> rename(b, "big: ")),
        SdnbCorruptions.manifestBytes(small).stream().map(b -> rename(b, "small: ")));
  }

  static Stream<Bad> graphCases() {
    return SdnbCorruptions.graph(big).stream();
  }

  private static Bad rename(Bad b, String prefix) {
    return new Bad(prefix + b.name(), b.bytes());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headerCases")
  void badHeaderIsRefused(Bad c) throws IOException {
    assertRefused(put(dir, "model.sdnb", c.bytes()), c.name());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headerPrefixCases")
  void everyHeaderPrefixIsRefused(Bad c) throws IOException {
    assertFormatError(put(dir, "model.sdnb", c.bytes()), c.name());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("truncationCases")
  void truncationAtAStructureBoundaryIsRefused(Bad c) throws IOException {
    assertFormatError(put(dir, "model.sdnb", c.bytes()), c.name());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("manifestEntryCases")
  void hostileManifestEntryIsRefused(Bad c) throws IOException {
    ModelFormatException e = assertFormatError(put(dir, "model.sdnb", c.bytes()), c.name());
    assertTrue(e.getMessage().toLowerCase().contains("manifest") || e.getMessage().contains("FlatGraph")
        || e.getMessage().contains("FlatVariable"), c.name() + ": message should name the structure: " + e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("manifestByteCases")
  void hostileManifestBytesAreRefused(Bad c) throws IOException {
    ModelFormatException e = assertFormatError(put(dir, "model.sdnb", c.bytes()), c.name());
    assertTrue(e.getMessage().contains("manifest"), c.name() + ": message should name the manifest: " + e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("graphCases")
  void damagedMetadataFlatGraphIsRefused(Bad c) throws IOException {
    assertFormatError(put(dir, "model.sdnb", c.bytes()), c.name());
  }

  /** A foreign class in the manifest is refused before any of it is instantiated. */
  @Test
  void foreignManifestClassIsNamedInTheMessage() throws IOException {
    byte[] bytes = BadInput.replaceAll(big.bytes(), "java.util.LinkedHashMap".getBytes(),
        "java.util.LinkedHashMaq".getBytes());
    ModelFormatException e = assertFormatError(put(dir, "foreign.sdnb", bytes), "LinkedHashMaq");
    assertTrue(e.getMessage().contains("LinkedHashMaq"), e.getMessage());
    assertTrue(e.offset() >= big.manifestOffset() && e.offset() < big.mEnd(),
        "offset " + e.offset() + " should lie inside the manifest [" + big.manifestOffset() + ", " + big.mEnd() + ")");
  }

  // ---- loops (in memory) ---------------------------------------------------------------------------

  /**
   * The metadata FlatBuffer cut at every length, with a header and manifest that are
   * consistent with the cut (so the header checks cannot catch it).
   */
  @Test
  void flatBufferCutAtEveryLengthWithConsistentHeader() {
    byte[] manifest = Arrays.copyOfRange(small.bytes(), small.mOff(), small.mEnd());
    int fbLen = small.mOff() - 32;
    List<Case> cases = new ArrayList<>();
    Path p = mem.resolve("cut.sdnb");
    for (int k = 0; k < fbLen; k++) {
      int len = k;
      cases.add(new Case("FlatBuffer cut to " + len, () -> {
        byte[] f = BadInput.concat(Arrays.copyOf(small.bytes(), 32 + len), manifest);
        putI64be(f, 8, 32 + len);
        put(mem, "cut.sdnb", f);
        assertOpensOrRefused(p, "FlatBuffer cut to " + len + " of " + fbLen + " bytes");
      }));
    }
    BadInput.runAll(Duration.ofSeconds(20), cases);
  }

  /** Every prefix of the small sample. */
  @Test
  void everyPrefixOfSmallSample() {
    byte[] f = small.bytes();
    List<Case> cases = new ArrayList<>();
    Path p = mem.resolve("prefix.sdnb");
    for (int n = 0; n < f.length; n += 3) {
      int len = n;
      cases.add(new Case("cut to " + len, () -> {
        put(mem, "prefix.sdnb", Arrays.copyOf(f, len));
        IOException e = assertOpensOrRefused(p, "small sample cut to " + len + " bytes");
        assertTrue(e != null, "a cut SDNB file must be refused (header sizes no longer match): " + len);
      }));
    }
    BadInput.runAll(Duration.ofSeconds(20), cases);
  }

  /** Random damage to the small sample (anywhere) and to the big one (outside the blob data). */
  @Test
  void randomByteDamage() {
    Random rnd = new Random(0xB10B);
    List<Case> cases = new ArrayList<>();
    Path p = mem.resolve("mutant.sdnb");
    for (int i = 0; i < 1500; i++) {
      byte[] m = FbBadInputTest.mutate(small.bytes(), rnd);
      String what = "small sample mutation #" + i;
      cases.add(new Case(what, () -> {
        put(mem, "mutant.sdnb", m);
        assertOpensOrRefused(p, what);
      }));
    }
    // the big sample: damage only the header, FlatBuffer and manifest (blob bytes are opaque)
    byte[] structure = BadInput.concat(Arrays.copyOf(big.bytes(), big.firstBlob()),
        Arrays.copyOfRange(big.bytes(), big.mOff(), big.mEnd()));
    for (int i = 0; i < 400; i++) {
      byte[] ms = FbBadInputTest.mutate(structure, rnd);
      String what = "big sample mutation #" + i;
      cases.add(new Case(what, () -> {
        byte[] full = big.bytes().clone();
        System.arraycopy(ms, 0, full, 0, big.firstBlob());
        System.arraycopy(ms, big.firstBlob(), full, big.mOff(), big.mEnd() - big.mOff());
        put(mem, "mutant.sdnb", full);
        assertOpensOrRefused(p, what);
      }));
    }
    BadInput.runAll(Duration.ofSeconds(30), cases);
  }

  /** Random damage confined to the manifest, where the Java-serialization parser does the work. */
  @Test
  void randomManifestDamage() {
    Random rnd = new Random(0x3A11);
    byte[] manifest = Arrays.copyOfRange(big.bytes(), big.mOff(), big.mEnd());
    byte[] head = Arrays.copyOf(big.bytes(), big.mOff());
    List<Case> cases = new ArrayList<>();
    Path p = mem.resolve("manifest.sdnb");
    for (int i = 0; i < 1500; i++) {
      byte[] mm = FbBadInputTest.mutate(manifest, rnd);
      // sometimes also cut or extend the manifest (header length kept consistent)
      int cut = rnd.nextInt(8) == 0 ? rnd.nextInt(mm.length) : mm.length;
      byte[] m2 = Arrays.copyOf(mm, cut);
      String what = "manifest mutation #" + i;
      cases.add(new Case(what, () -> {
        byte[] f = BadInput.concat(head, m2);
        putI64be(f, 16, m2.length);
        put(mem, "manifest.sdnb", f);
        assertOpensOrRefused(p, what);
      }));
    }
    BadInput.runAll(Duration.ofSeconds(20), cases);
  }

  /** The file ends exactly at the header: nothing else exists. */
  @Test
  void headerOnlyFileIsRefused() throws IOException {
    byte[] h = Arrays.copyOf(big.bytes(), 32);
    putI64be(h, 8, 32);
    putI64be(h, 16, 0);
    assertFormatError(put(dir, "header-only.sdnb", h), "header only, manifest length 0");
  }

  /** A header that declares a 2 GiB manifest in a sparse 2 GiB file must not load it into the heap unchecked. */
  @Test
  void hugeDeclaredManifestInSparseFile() throws IOException {
    Path p = dir.resolve("sparse.sdnb");
    long mOff = 4096;
    long mLen = (1L << 31) + 16; // > Integer.MAX_VALUE and > the 256 MiB manifest cap
    byte[] h = Arrays.copyOf(small.bytes(), 32);
    putI64be(h, 8, mOff);
    putI64be(h, 16, mLen);
    try (var ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE, StandardOpenOption.SPARSE)) {
      ch.write(ByteBuffer.wrap(h), 0);
      ch.write(ByteBuffer.wrap(new byte[] {0}), mOff + mLen - 1);
    }
    assertEquals(mOff + mLen, Files.size(p));
    assertFormatError(p, "manifest of 2 GiB + 16 bytes");
  }
}
