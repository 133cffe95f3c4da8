package org.modelfs.format.unified;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.format.badinput.BadInput.assertFormatError;
import static org.modelfs.format.badinput.BadInput.assertOpensOrRefused;
import static org.modelfs.format.badinput.BadInput.put;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.badinput.BadInput;
import org.modelfs.format.badinput.BadInput.Case;
import org.modelfs.format.unified.ContainerLayout.SectionType;
import org.modelfs.format.unified.Containers.Section;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.verify.Report;
import org.modelfs.verify.Verifier;

/**
 * The container (docs/FORMATS.md §13) under hostile input, stored and deflated, one tag and two:
 * every prefix, a byte changed in each section's frame and data, a corrupt array chunk (found by
 * the reads that check it, and by {@code verify}), the container-wide structure lying (section
 * count, tags, duplicate, missing, unknown and ZSTD sections, trailing bytes), and random damage
 * behind valid CRCs. Lies of the ARRAYS index and compression bombs are in
 * {@link ContainerIndexBadInputTest}.
 */
class ContainerBadInputTest {
  /** What the frame walk says when a damaged frame runs into a later one. */
  private static final Pattern COLLISION = Pattern.compile(
      "appears twice|padding byte|section frame|follow the last|the file ends|has no GRAPH");
  @TempDir Path dir;

  /** One damaged file of a loop: made when its turn comes (the loops make thousands). */
  private record Mutant(String what, Supplier<byte[]> bytes, Check check) {}

  /** What a loop asserts of one mutant, written to {@code path}. */
  @FunctionalInterface
  private interface Check {
    void check(Path path, String what) throws IOException;
  }

  /** Writes each mutant to the same in-memory file and checks it, all under one timeout. */
  private static void inMemory(List<Mutant> mutants) throws IOException {
    Path mem = BadInput.memoryDir();
    try (FileSystem fs = mem.getFileSystem()) {
      Path p = mem.resolve("m.sdmc");
      List<Case> cases = new ArrayList<>();
      for (Mutant m : mutants) {
        cases.add(new Case(m.what(), () -> {
          Files.write(p, m.bytes().get());
          m.check().check(p, m.what());
        }));
      }
      BadInput.runAll(Duration.ofSeconds(60), cases);
    }
  }

  /** The file with the byte at {@code at} xor {@code bits}. */
  private static Supplier<byte[]> flip(byte[] f, int at, int bits) {
    return () -> {
      byte[] m = f.clone();
      m[at] ^= (byte) bits;
      return m;
    };
  }

  static Stream<Arguments> samples() {
    return Stream.of(Arguments.of(false, false), Arguments.of(true, false), Arguments.of(false, true),
        Arguments.of(true, true));
  }

  // ---- the samples and the forging helper are what the cases assume ---------------------------------

  @ParameterizedTest(name = "deflate {0}, two tags {1}")
  @MethodSource("samples")
  void samplesOpenAndTheHelperRebuildsThemExactly(boolean deflate, boolean two) throws IOException {
    byte[] f = Containers.sample(deflate, two);
    assertNull(BadInput.openTimed(put(dir, "m.sdmc", f), Containers.sampleName(deflate, two)));
    List<Section> s = Containers.sections(f);
    assertArrayEquals(f, Containers.build(f, s), "the helper lays the sections out as the writer does");
    assertEquals(two ? 6 : 4, s.size(), "HEADER, then per tag METADATA (v1 has none), GRAPH, ARRAYS");
    // the helper moves an ARRAYS section correctly: a longer METADATA before it, still valid
    int meta = Containers.find(s, SectionType.METADATA, two ? 1 : 0);
    if (!deflate) {
      byte[] longer = Containers.build(f, replaceMeta(s, meta, Tables.metadata(Map.of("note", "x".repeat(100)))));
      assertNull(BadInput.openTimed(put(dir, "longer.sdmc", longer), "longer metadata, arrays moved"));
    }
  }

  private static List<Section> replaceMeta(List<Section> s, int i, byte[] data) {
    List<Section> out = new ArrayList<>(s);
    out.set(i, s.get(i).withData(data));
    return out;
  }

  // ---- every prefix -----------------------------------------------------------------------------------

  /** A container cut at every byte is refused at open: the header counts the sections, the frames their bytes. */
  @ParameterizedTest(name = "deflate {0}, two tags {1}")
  @MethodSource("samples")
  void everyPrefixIsRefused(boolean deflate, boolean two) throws IOException {
    byte[] f = Containers.sample(deflate, two);
    List<Mutant> cases = new ArrayList<>();
    for (int n = 0; n < f.length; n++) {
      int len = n;
      cases.add(new Mutant(Containers.sampleName(deflate, two) + " cut to " + len + " of " + f.length,
          () -> Arrays.copyOf(f, len), (p, what) -> {
            IOException e = assertOpensOrRefused(p, what);
            assertTrue(e instanceof ModelFormatException, what + ": must be refused at open, got " + e);
          }));
    }
    inMemory(cases);
  }

  // ---- a byte changed in a frame or in a section's data --------------------------------------------------

  /**
   * Each of the 24 bytes of each frame (type, compression, flags, level, tag, stored and raw
   * length), changed in its lowest and its highest bit: refused at open, at an offset inside that
   * section, by a structural check or by the CRC (which covers the frame).
   */
  @ParameterizedTest(name = "deflate {0}, two tags {1}")
  @MethodSource("samples")
  void everyFrameByteChangedIsRefusedInsideItsSection(boolean deflate, boolean two) throws IOException {
    byte[] f = Containers.sample(deflate, two);
    List<Mutant> cases = new ArrayList<>();
    for (Section s : Containers.sections(f)) {
      for (int b = 0; b < ContainerLayout.FRAME; b++) {
        for (int bit : new int[] {0x01, 0x80}) {
          cases.add(new Mutant(Containers.sampleName(deflate, two) + ": " + s.typeName() + " (tag " + s.tag()
              + ") frame byte " + b + " ^ 0x" + Integer.toHexString(bit), flip(f, (int) s.offset() + b, bit),
              (p, what) -> {
                ModelFormatException e = assertFormatError(p, what);
                boolean inside = e.offset() >= s.offset() && e.offset() < s.end();
                // a changed type, tag or stored length may instead collide with a later frame (a
                // duplicate section, a frame misplaced): the refusal names that one, never an earlier part
                assertTrue(inside || e.offset() >= s.end() && COLLISION.matcher(e.getMessage()).find(), what
                    + ": the refusal's offset " + e.offset() + " lies outside the section [" + s.offset() + ", "
                    + s.end() + ") without a collision with a later frame: " + e.getMessage());
              }));
        }
      }
    }
    inMemory(cases);
  }

  /**
   * A byte changed in each section's data (for ARRAYS: in its index and index length, the part
   * its CRC covers) at the first, middle and last byte and at 16 random places: refused at open,
   * naming the section, by its CRC-32C or, for the index length, by its bounds.
   */
  @ParameterizedTest(name = "deflate {0}, two tags {1}")
  @MethodSource("samples")
  void aByteChangedInEachSectionsDataIsRefusedNamingIt(boolean deflate, boolean two) throws IOException {
    byte[] f = Containers.sample(deflate, two);
    Random rnd = new Random(0xC0DE);
    List<Mutant> cases = new ArrayList<>();
    for (Section s : Containers.sections(f)) {
      int from = s.type() == SectionType.ARRAYS.code() ? s.data().length - 8 - (int) s.indexLength() : 0;
      int n = s.data().length - from;
      List<Integer> places = new ArrayList<>(List.of(from, from + n / 2, from + n - 1));
      for (int i = 0; i < 16; i++) {
        places.add(from + rnd.nextInt(n));
      }
      String name = s.typeName() + " section" + (s.type() == 0 ? "" : " (tag " + s.tag() + ")");
      for (int place : places) {
        cases.add(new Mutant(Containers.sampleName(deflate, two) + ": " + name + " data byte " + place,
            flip(f, (int) s.dataOffset() + place, 0x10), (p, what) -> {
              ModelFormatException e = assertFormatError(p, what);
              assertTrue(e.getMessage().contains(name), what + ": the message must name the " + name + ": "
                  + e.getMessage());
              assertTrue(e.getMessage().contains("CRC-32C mismatch") || e.getMessage().contains("index length"),
                  what + ": " + e.getMessage());
            }));
      }
    }
    inMemory(cases);
  }

  /**
   * Clearing the CRC flag would turn a section's CRC into padding: refused (§13.2: a section
   * without a CRC is refused, and padding must be zeros). A file written without any CRC,
   * zero-padded, is refused too, naming the section.
   */
  @ParameterizedTest(name = "deflate {0}, two tags {1}")
  @MethodSource("samples")
  void crcFlagClearedAndSectionsWithoutCrcAreRefused(boolean deflate, boolean two) throws IOException {
    byte[] f = Containers.sample(deflate, two);
    List<Section> s = Containers.sections(f);
    for (Section x : s) {
      byte[] m = f.clone();
      m[(int) x.offset() + 2] &= ~ContainerLayout.FLAG_CRC;
      assertFormatError(put(dir, "no-crc-flag.sdmc", m), x.typeName() + " (tag " + x.tag() + ") CRC flag cleared");
    }
    List<Section> none = new ArrayList<>();
    for (Section x : s) {
      none.add(x.withFlags(0));
    }
    ModelFormatException noCrc = assertFormatError(put(dir, "no-crcs.sdmc", Containers.build(f, none)),
        "no section has a CRC");
    assertTrue(noCrc.getMessage().contains("HEADER section frame") && noCrc.getMessage().contains("has no CRC-32C"),
        noCrc.getMessage());
    // and the padding after the last section must be in the file
    int last = s.size() - 1;
    Section x = s.get(last);
    long crcEnd = x.dataOffset() + x.data().length + 4;
    if (crcEnd % 8 != 0) {
      ModelFormatException e = assertFormatError(put(dir, "cut-padding.sdmc", Arrays.copyOf(f, (int) crcEnd)),
          "cut inside the last padding");
      assertTrue(e.getMessage().contains("padding"), e.getMessage());
    }
  }

  // ---- a corrupt array chunk --------------------------------------------------------------------------------

  /** The index entry of layer0/W in tag {@code tag}. */
  private static ArrayIndex.Entry w(byte[] f, int tag) throws IOException {
    List<Section> s = Containers.sections(f);
    return Containers.readIndex(s.get(Containers.find(s, SectionType.ARRAYS, tag))).stream()
        .filter(e -> e.name().equals("layer0/W") && e.updaterKey() == null).findFirst().orElseThrow();
  }

  /**
   * A byte changed inside a stored chunk: opening succeeds (it reads no array byte); reading the
   * parameter file in order fails naming the array, the chunk and its offset; so does {@code
   * verify}; other arrays still read.
   */
  @Test
  void storedChunkDamageIsFoundBySequentialReadsAndVerify() throws IOException {
    for (boolean two : new boolean[] {false, true}) {
      byte[] f = Containers.sample(false, two);
      ArrayIndex.Entry e = w(f, two ? 1 : 0);
      f[(int) e.offsets()[0] + 17] ^= 0x04;
      Path p = put(dir, "chunk" + two + ".sdmc", f);
      try (Model m = Models.open(p)) {
        assertNotNull(m.newest());
      }
      String tag = two ? "v2" : "default";
      try (FileSystem fs = ModelFileSystems.open(p, Map.of("readOnly", "true"))) {
        IOException x = Assertions.assertThrows(IOException.class,
            () -> Files.readAllBytes(fs.getPath("/tags/" + tag + "/params/layer0/W")));
        assertNamesChunk(x.getMessage(), p, e);
        assertEquals(32, Files.readAllBytes(fs.getPath("/tags/" + tag + "/params/layer0/b")).length,
            "another array of the same section still reads");
      }
      Report r = Verifier.verify(p, Verifier.Options.defaults());
      assertTrue(!r.ok(), "verify must report the chunk");
      assertTrue(r.problems().stream().anyMatch(pr -> pr.message().contains("layer0/W")
          && pr.message().contains("chunk 0") && pr.message().contains("CRC-32C")), "verify: " + r.problems());
    }
  }

  /** A byte changed inside a deflated chunk fails any read of it, the first byte alone included. */
  @Test
  void deflatedChunkDamageFailsAnyReadOfIt() throws IOException {
    byte[] f = Containers.sample(true, false);
    ArrayIndex.Entry e = w(f, 0);
    f[(int) e.offsets()[0] + (int) e.lengths()[0] / 2] ^= 0x04;
    Path p = put(dir, "deflated-chunk.sdmc", f);
    try (FileSystem fs = ModelFileSystems.open(p, Map.of("readOnly", "true"));
        SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/params/layer0/W"))) {
      ch.position(100);
      IOException x = Assertions.assertThrows(IOException.class,
          () -> ch.read(ByteBuffer.allocate(1)));
      assertNamesChunk(x.getMessage(), p, e);
    }
    Report r = Verifier.verify(p, Verifier.Options.defaults());
    assertTrue(r.problems().stream().anyMatch(pr -> pr.message().contains("layer0/W")), "verify: " + r.problems());
  }

  private static void assertNamesChunk(String msg, Path p, ArrayIndex.Entry e) {
    assertTrue(msg.contains(p.getFileName().toString()) && msg.contains("array 'layer0/W'") && msg.contains("chunk 0")
        && msg.contains("offset " + e.offsets()[0]), "must name the file, the array, the chunk and its offset: " + msg);
  }

  // ---- the container-wide structure lying (CRCs made valid) --------------------------------------------

  private ModelFormatException refused(byte[] f, String what, String expected) throws IOException {
    ModelFormatException e = assertFormatError(put(dir, "forged.sdmc", f), what);
    assertTrue(e.getMessage().contains(expected), what + ": the message should say '" + expected + "': "
        + e.getMessage());
    return e;
  }

  private static byte[] withHeader(byte[] f, int sections, List<String> tags) {
    List<Section> s = Containers.sections(f);
    return Containers.replace(f, 0, s.get(0).withData(Tables.header(sections, tags)));
  }

  @Test
  void sectionCountTooHighOrLowOrImpossible() throws IOException {
    byte[] f = Containers.sample(false, true);
    List<String> tags = List.of("v1", "v2");
    refused(withHeader(f, 7, tags), "section_count 7 of 6", "the file ends after 6 sections");
    refused(withHeader(f, 5, tags), "section_count 5 of 6", "bytes follow the last of the 5 sections");
    refused(withHeader(f, 0, tags), "section_count 0", "ContainerHeader.section_count");
    refused(withHeader(f, -1, tags), "section_count -1", "ContainerHeader.section_count");
    refused(withHeader(f, Integer.MAX_VALUE, tags), "section_count 2^31-1", "ContainerHeader.section_count");
    assertNull(BadInput.openTimed(put(dir, "same.sdmc", withHeader(f, 6, tags)), "the helper's own header"));
  }

  @Test
  void badTagNamesAndTagIndices() throws IOException {
    byte[] f = Containers.sample(false, true);
    for (List<String> tags : List.of(List.of("v1", "V1"), List.of("v1", "a b"), List.of("v1", ""),
        List.of("v1", ".hidden"), List.of("v1", "x".repeat(129)), List.of("v1", "a/b"))) {
      refused(withHeader(f, 6, tags), "tags " + tags, "ContainerHeader.tags[1]");
    }
    refused(withHeader(f, 6, List.of("v1")), "one tag listed, sections of tag 1", "but the header lists 1 tags");
    List<Section> s = Containers.sections(f);
    int g = Containers.find(s, SectionType.GRAPH, 1);
    refused(Containers.replace(f, g, s.get(g).withTag(2)), "GRAPH of tag 2 of 2", "tag index 2");
    refused(Containers.replace(f, g, s.get(g).withTag(-1)), "GRAPH of tag -1", "tag index");
    refused(Containers.replace(f, g, s.get(g).withTag(0)), "two GRAPHs of tag 0", "appears twice");
    refused(Containers.replace(f, 0, s.get(0).withTag(1)), "HEADER of tag 1", "belongs to no tag");
  }

  @Test
  void duplicateMissingAndTrailingSections() throws IOException {
    byte[] f = Containers.sample(false, true);
    List<Section> s = Containers.sections(f);
    int meta = Containers.find(s, SectionType.METADATA, 1);
    List<Section> dup = new ArrayList<>(s);
    dup.add(meta + 1, s.get(meta));
    dup.set(0, s.get(0).withData(Tables.header(s.size() + 1, List.of("v1", "v2"))));
    refused(Containers.build(f, dup), "METADATA of tag 1 twice", "appears twice");
    List<Section> second = new ArrayList<>(s);
    second.add(1, s.get(0));
    second.set(0, s.get(0).withData(Tables.header(s.size() + 1, List.of("v1", "v2"))));
    refused(Containers.build(f, second), "two HEADERs", "a second HEADER");
    List<Section> noGraph = new ArrayList<>(s);
    noGraph.remove(Containers.find(s, SectionType.GRAPH, 1));
    noGraph.set(0, s.get(0).withData(Tables.header(s.size() - 1, List.of("v1", "v2"))));
    refused(Containers.build(f, noGraph), "no GRAPH of tag 1", "has no GRAPH section");
    List<Section> noHeader = new ArrayList<>(s.subList(1, s.size()));
    refused(Containers.build(f, noHeader), "no HEADER", "not HEADER");
    refused(BadInput.concat(f, new byte[8]), "8 zero bytes after the last section", "8 bytes follow the last");
    refused(BadInput.concat(f, new byte[] {1}), "1 byte after the last section", "1 bytes follow the last");
    // a GRAPH holding its arrays and updater state: the FlatGraph of an SDNB file
    int g = Containers.find(s, SectionType.GRAPH, 0);
    refused(Containers.replace(f, g, s.get(g).withData(sdnbFlatGraph())), "SDNB FlatGraph with arrays as GRAPH",
        "holds arrays or updater state");
  }

  /** The FlatGraph of mlp_adam.fb written as SDNB: every array inline (docs/FORMATS.md §5). */
  private static byte[] sdnbFlatGraph() throws IOException {
    try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
      Path fb = Files.write(mem.getPath("/m.fb"), BadInput.fixture("mlp_adam.fb"));
      Path out = mem.getPath("/m.sdnb");
      try (Model m = Models.open(fb)) {
        ModelFiles.write(m.newest(), out, WriteOptions.of(ModelFormat.SDNB));
      }
      byte[] b = Files.readAllBytes(out);
      return Arrays.copyOfRange(b, (int) BadInput.i64be(b, 24), (int) BadInput.i64be(b, 8));
    }
  }

  @Test
  void unknownTypeAndCompressionAndZstd() throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      byte[] f = Containers.sample(deflate, false);
      List<Section> s = Containers.sections(f);
      for (int i = 0; i < s.size(); i++) {
        Section x = s.get(i);
        String n = Containers.sampleName(deflate, false) + ": " + x.typeName();
        refused(Containers.replace(f, i, x.withType(5)), n + " as type 5", "unknown section type 5");
        refused(Containers.replace(f, i, x.withType(255)), n + " as type 255", "unknown section type 255");
        refused(Containers.replace(f, i, x.withCompression(3)), n + " compression 3", "unknown compression 3");
        refused(Containers.replace(f, i, x.withCompression(2).withRaw(x.data().length)), n + " ZSTD", "ZSTD");
      }
    }
  }

  /**
   * A SHARD_INFO section (§13.8; shard sets are not yet opened through {@code Models}, so only
   * what a single file's reader sees): a shard opened alone is refused naming the set; its bytes
   * changed fail its CRC; shard numbers and types that cannot be are refused.
   */
  @Test
  void shardInfoSections() throws IOException {
    byte[] f = Containers.sample(false, false);
    List<Section> s = Containers.sections(f);
    Section last = s.get(s.size() - 1);
    Function<Tables.ShardInfo, byte[]> with = info -> {
      List<Section> out = new ArrayList<>(s);
      out.set(0, s.get(0).withData(Tables.header(s.size() + 1, List.of("default"))));
      byte[] data = Tables.shardInfo(info);
      out.add(new Section(last.end(), SectionType.SHARD_INFO.code(), 0, ContainerLayout.FLAG_CRC, 0, 0, data.length,
          data));
      return Containers.build(f, out);
    };
    refused(with.apply(new Tables.ShardInfo(0, 2, "graph", "m.sdmc")), "shard 0 of 2 opened alone", "open the shard set");
    refused(with.apply(new Tables.ShardInfo(2, 2, "weights", "m.sdmc")), "shard 2 of 2", "is not a valid shard number");
    refused(with.apply(new Tables.ShardInfo(0, 0, "graph", "m.sdmc")), "shard 0 of 0", "is not a valid shard number");
    refused(with.apply(new Tables.ShardInfo(1, 2, "graph", "m.sdmc")), "shard 1 of type graph", "ShardInfo.shard_type");
    byte[] good = with.apply(new Tables.ShardInfo(1, 2, "weights", "m.sdmc"));
    Section info = Containers.sections(good).get(s.size());
    good[(int) info.dataOffset() + info.data().length / 2] ^= 0x20;
    refused(good, "SHARD_INFO byte changed", "SHARD_INFO section");
  }

  // ---- random damage behind valid CRCs ---------------------------------------------------------------------

  /**
   * Each section's data damaged at random (1–4 bytes set to random values, sometimes cut or
   * grown) with its CRC made valid again, so the parsers behind the CRC see it: each mutant opens
   * and reads, or is refused cleanly.
   */
  @ParameterizedTest(name = "deflate {0}, two tags {1}")
  @MethodSource("samples")
  void randomDamageBehindValidCrcs(boolean deflate, boolean two) throws IOException {
    byte[] f = Containers.sample(deflate, two);
    List<Section> s = Containers.sections(f);
    Random rnd = new Random(0x5EC7 + (deflate ? 1 : 0) + (two ? 2 : 0));
    List<Mutant> cases = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      Section x = s.get(i);
      for (int k = 0; k < 150; k++) {
        byte[] d = x.data().clone();
        for (int j = 1 + rnd.nextInt(4); j > 0; j--) {
          d[rnd.nextInt(d.length)] = (byte) rnd.nextInt(256);
        }
        if (rnd.nextInt(10) == 0) {
          d = Arrays.copyOf(d, rnd.nextInt(d.length + 16));
        }
        byte[] m = Containers.replace(f, i, x.withData(d));
        cases.add(new Mutant(Containers.sampleName(deflate, two) + ": " + x.typeName() + " (tag " + x.tag()
            + ") mutant " + k, () -> m, (p, what) -> assertOpensOrRefused(p, what)));
      }
    }
    inMemory(cases);
  }
}
