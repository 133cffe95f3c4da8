package org.modelfs.format.badinput;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.modelfs.format.badinput.ZipTagsSamples.refused;
import static org.modelfs.format.badinput.ZipTagsSamples.refusedByMount;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.badinput.ZipTagsSamples.Entries;
import org.modelfs.format.fb.Slots;
import org.modelfs.format.fb.gen.BufferChunk;
import org.modelfs.format.fb.gen.FlatArray;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.Variable;
import org.modelfs.testing.HandArrays;

/**
 * zip-tags binary entries under bad input: a broken {@code graph.fb} or {@code trainingConfig.fb},
 * and array files ({@code params/<i>.fb}, {@code updater/<i>.fb}) that are cut, lie about their
 * size, type or shape, or use FlatArray storage zip-tags does not allow.
 */
class ZipTagsArraysBadInputTest {
  /** layer0/W: FLOAT [4, 8], line 3 of v1/params.txt. */
  private static final String W = "v1/params/2.fb";
  private static final String G = "v1/graph.fb";

  /** FlatGraphs of SDNB files: the fixture's (arrays inline) and the synthetic model's (appended stubs). */
  static byte[] inlineGraph;
  static byte[] stubGraph;

  @TempDir Path dir;

  @BeforeAll
  static void sdnbGraphs() throws IOException {
    try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
      Path work = Files.createDirectories(mem.getPath("/work"));
      Path small = work.resolve("small.sdnb");
      Samples.convertFixture(BadInput.fixture("mlp_adam.fb"), work, small, WriteOptions.of(ModelFormat.SDNB));
      Samples.Sdnb s = Samples.layout(small);
      inlineGraph = Arrays.copyOfRange(s.bytes(), 32, s.firstBlob());
      Path big = work.resolve("big.sdnb");
      Samples.writeSynthetic(work, big, WriteOptions.of(ModelFormat.SDNB));
      Samples.Sdnb b = Samples.layout(big);
      stubGraph = Arrays.copyOfRange(b.bytes(), 32, b.firstBlob());
    }
  }

  // ---- array files -----------------------------------------------------------------------------

  /** A FlatArray FlatBuffer built with the generated flatbuffers-java code (not the code under test). */
  static byte[] flatArray(long[] shape, byte[] buffer, int dtype, int order, long appended, boolean chunked,
      boolean external) {
    FlatBufferBuilder b = new FlatBufferBuilder(256);
    int shapeOff = FlatArray.createShapeVector(b, shape);
    int bufOff = buffer == null ? 0 : FlatArray.createBufferVector(b, buffer);
    int chunks = 0;
    if (chunked) {
      int data = BufferChunk.createDataVector(b, new byte[128]);
      int chunk = BufferChunk.createBufferChunk(b, 0, data);
      chunks = FlatArray.createBufferChunksVector(b, new int[] {chunk});
    }
    int name = external ? FlatArray.createExternalDataFilenameVector(b, new int[] {b.createString("w.bin")}) : 0;
    b.finish(FlatArray.createFlatArray(b, shapeOff, bufOff, (byte) dtype, (byte) order, chunks, chunked ? 128 : 0,
        name, external, appended > 0 ? 64 : 0, appended));
    return b.sizedByteArray();
  }

  /** A FLOAT FlatArray file whose bytes are one chunk of {@code bytes} zeros, with that totalBufferSize (null = absent). */
  static byte[] chunked(long[] shape, int bytes, Long total) {
    FlatBufferBuilder b = new FlatBufferBuilder(256);
    int shapeOff = FlatArray.createShapeVector(b, shape);
    int chunk = BufferChunk.createBufferChunk(b, 0, BufferChunk.createDataVector(b, new byte[bytes]));
    int chunks = FlatArray.createBufferChunksVector(b, new int[] {chunk});
    FlatArray.startFlatArray(b);
    FlatArray.addShape(b, shapeOff);
    FlatArray.addBufferChunks(b, chunks);
    if (total != null) {
      FlatArray.addTotalBufferSize(b, total);
    }
    FlatArray.addDtype(b, (byte) DType.FLOAT.code());
    b.finish(FlatArray.endFlatArray(b));
    return b.sizedByteArray();
  }

  static byte[] floats(long[] shape, int bytes) {
    return flatArray(shape, new byte[bytes], DType.FLOAT.code(), 0, 0, false, false);
  }

  static Stream<Arguments> badArrayFiles() throws IOException {
    byte[] w = ZipTagsSamples.entries().get(W);
    long[] s48 = {4, 8};
    int fl = DType.FLOAT.code();
    List<Arguments> out = new ArrayList<>();
    for (int cut : new int[] {0, 4, 7, 8, 20, 30, 40, 60}) {
      out.add(Arguments.of("cut to " + cut + " bytes, inside the header", Arrays.copyOf(w, cut), null));
    }
    for (int cut : new int[] {64, 65, 100, w.length - 1}) {
      out.add(Arguments.of("cut to " + cut + " of " + w.length + " bytes, inside the data", Arrays.copyOf(w, cut), null));
    }
    out.add(Arguments.of("buffer of 124 bytes for FLOAT[4, 8]", floats(s48, 124), "holds 124 bytes but FLOAT[4, 8] needs 128"));
    out.add(Arguments.of("buffer of 132 bytes for FLOAT[4, 8]", floats(s48, 132), "holds 132 bytes but FLOAT[4, 8] needs 128"));
    out.add(Arguments.of("buffer length field past the end", patchBufferLength(w, 1 << 20), null));
    out.add(Arguments.of("buffer length field negative", patchBufferLength(w, -8), null));
    out.add(Arguments.of("negative dimension", floats(new long[] {-4, -8}, 128), "negative dimension -4"));
    out.add(Arguments.of("dimensions overflowing a long", floats(new long[] {1L << 40, 1L << 40}, 128), "is 2^63 bytes or more"));
    out.add(Arguments.of("rank 33", floats(new long[33], 0), null));
    out.add(Arguments.of("unknown dtype code 99", flatArray(s48, new byte[128], 99, 0, 0, false, false),
        "unknown data type code 99"));
    out.add(Arguments.of("unknown dtype code 200", patchDtype(w, 200), "unknown data type code 200"));
    out.add(Arguments.of("appended-data stub (appendedDataLength, no buffer)",
        flatArray(s48, null, fl, 0, 128, false, false), "an appended-array stub"));
    out.add(Arguments.of("chunks holding 128 bytes, totalBufferSize 129", chunked(s48, 128, 129L),
        "totalBufferSize 129 is more than the 128 bytes its 1 chunks hold"));
    out.add(Arguments.of("chunks holding 124 bytes for FLOAT[4, 8]", chunked(s48, 124, null),
        "holds 124 bytes but FLOAT[4, 8] needs 128"));
    out.add(Arguments.of("both buffer and bufferChunks", flatArray(s48, new byte[128], fl, 0, 0, true, false),
        "more than one of buffer, bufferChunks and appendedData"));
    out.add(Arguments.of("external storage", flatArray(s48, null, fl, 0, 0, false, true), "external array storage"));
    out.add(Arguments.of("root offset past the end", BadInput.putI32le(w.clone(), 0, w.length + 100), null));
    out.add(Arguments.of("root offset 0x7FFFFFFF", BadInput.putI32le(w.clone(), 0, Integer.MAX_VALUE), null));
    out.add(Arguments.of("root offset negative", BadInput.putI32le(w.clone(), 0, -16), null));
    out.add(Arguments.of("a FlatGraph instead of an array", inlineGraph, null));
    return out.stream();
  }

  private static byte[] patchBufferLength(byte[] w, int v) {
    BadInput.Fb fb = new BadInput.Fb(w.clone(), 0);
    return BadInput.putI32le(fb.b, fb.ref(fb.root(), Slots.A_BUFFER), v);
  }

  private static byte[] patchDtype(byte[] w, int code) {
    BadInput.Fb fb = new BadInput.Fb(w.clone(), 0);
    fb.b[fb.field(fb.root(), Slots.A_DTYPE)] = (byte) code;
    return fb.b;
  }

  @ParameterizedTest(name = "params/2.fb: {0}")
  @MethodSource("badArrayFiles")
  void badParamsArrayFileIsRefused(String name, byte[] content, String message) throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().put(W, content).write(dir, "array.zip", deflate);
      refused(z, W + ": " + name + (deflate ? " (deflated)" : ""), "array.zip!" + W, message == null ? "" : message);
    }
  }

  @ParameterizedTest(name = "updater/6.fb: {0}")
  @MethodSource("badArrayFiles")
  void badUpdaterArrayFileIsRefused(String name, byte[] content, String message) throws IOException {
    Path z = ZipTagsSamples.entries().put("v1/updater/6.fb", content).write(dir, "updater.zip", false);
    refused(z, "v1/updater/6.fb: " + name, "updater.zip!v1/updater/6.fb", message == null ? "" : message);
  }

  static Stream<Arguments> disagreeingArrays() {
    long[] s48 = {4, 8};
    return Stream.of(
        Arguments.of("INT32 for a FLOAT variable", flatArray(s48, new byte[128], DType.INT32.code(), 0, 0, false, false),
            "'layer0/W': array of type INT, but the graph says FLOAT"),
        Arguments.of("DOUBLE of another length", flatArray(s48, new byte[256], DType.DOUBLE.code(), 0, 0, false, false),
            "array of type DOUBLE, but the graph says FLOAT"),
        Arguments.of("shape [8, 4] for [4, 8]", floats(new long[] {8, 4}, 128), "'layer0/W': array of shape [8, 4], but the graph says [4, 8]"),
        Arguments.of("shape [32] for [4, 8]", floats(new long[] {32}, 128), "array of shape [32], but the graph says [4, 8]"),
        Arguments.of("shape [4, 8, 1] for [4, 8]", floats(new long[] {4, 8, 1}, 128), "array of shape [4, 8, 1]"));
  }

  @ParameterizedTest(name = "params/2.fb: {0}")
  @MethodSource("disagreeingArrays")
  void arrayDisagreeingWithTheGraphIsRefused(String name, byte[] content, String message) throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().put(W, content).write(dir, "disagree.zip", deflate);
      refused(z, name, "ZIP entry 'v1/params.txt' line 3", message);
    }
  }

  /** A chunked array file (SDNB convention, docs/FORMATS.md §10) reads, its chunks ordered by index. */
  @Test
  void chunkedArrayFileReads() throws IOException {
    byte[] le = HandArrays.floats(32, ByteOrder.LITTLE_ENDIAN);
    FlatBufferBuilder b = new FlatBufferBuilder(512);
    b.finish(HandArrays.array(new long[] {4, 8}, DType.FLOAT.code(), -1, null,
        HandArrays.shuffledChunks(le), 128L, 0, 0).applyAsInt(b));
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().put(W, b.sizedByteArray()).write(dir, "chunked" + deflate + ".zip", deflate);
      try (Model m = Models.open(z);
          InputStream in = ArrayStreams.littleEndianStream(
              m.newest().variable("layer0/W").array())) {
        assertArrayEquals(le, in.readAllBytes(), "deflate " + deflate);
      }
    }
  }

  // ---- array file names --------------------------------------------------------------------------

  @Test
  void arrayEntryWithLeadingZeroIsRefused() throws IOException {
    Entries e = ZipTagsSamples.entries();
    byte[] one = e.get("v1/params/1.fb");
    Path z = e.remove("v1/params/1.fb").put("v1/params/01.fb", one).write(dir, "zero.zip", false);
    refused(z, "params/01.fb", "ZIP entry 'v1/params/01.fb'", "array number with leading zeros; write 'v1/params/1.fb'");
    z = ZipTagsSamples.entries().put("v1/updater/009.fb", one).write(dir, "zero.zip", true);
    refused(z, "updater/009.fb", "ZIP entry 'v1/updater/009.fb'", "write 'v1/updater/9.fb'");
  }

  @Test
  void twoEntriesWithOneArrayNumberAreRefused() throws IOException {
    Entries e = ZipTagsSamples.entries();
    Path z = e.put("v1/params/0001.fb", e.get("v1/params/1.fb")).write(dir, "same.zip", false);
    refused(z, "params/1.fb and params/0001.fb", "ZIP entry 'v1/params/0001.fb'",
        "same array number as entry 'v1/params/1.fb'");
  }

  @Test
  void duplicateEntryNameIsRefused() throws IOException {
    List<Zips.Item> items = new ArrayList<>(ZipTagsSamples.entries().items(false));
    Zips.Item w = items.stream().filter(i -> i.name().equals(W)).findFirst().orElseThrow();
    items.add(w);
    refused(Zips.write(dir.resolve("dup.zip"), items), "params/2.fb twice", "ZIP entry '" + W + "'", "duplicate entry name");
  }

  // ---- graph.fb and trainingConfig.fb ------------------------------------------------------------

  static Stream<Arguments> badGraphs() throws IOException {
    byte[] g = ZipTagsSamples.entries().get(G);
    byte[] garbage = new byte[g.length];
    new Random(7).nextBytes(garbage);
    List<Arguments> out = new ArrayList<>();
    for (int cut : new int[] {0, 3, 4, 8, 64, g.length / 2, g.length * 3 / 4}) {
      out.add(Arguments.of("cut to " + cut + " of " + g.length + " bytes", Arrays.copyOf(g, cut)));
    }
    out.add(Arguments.of("random garbage", garbage));
    out.add(Arguments.of("all 0xFF", filled(g.length, (byte) 0xFF)));
    out.add(Arguments.of("root offset past the end", BadInput.putI32le(g.clone(), 0, g.length + 4)));
    out.add(Arguments.of("root offset 0x7FFFFFF0", BadInput.putI32le(g.clone(), 0, 0x7FFFFFF0)));
    out.add(Arguments.of("root offset negative", BadInput.putI32le(g.clone(), 0, -4)));
    out.add(Arguments.of("root offset at the last byte", BadInput.putI32le(g.clone(), 0, g.length - 1)));
    out.add(Arguments.of("vtable offset of the root out of range", vtableOffset(g, 0x7FFFFFF0)));
    out.add(Arguments.of("an SDNB file (header and all)", BadInput.concat(new byte[] {'S', 'D', 'N', 'B'}, g)));
    return out.stream();
  }

  private static byte[] filled(int n, byte v) {
    byte[] b = new byte[n];
    Arrays.fill(b, v);
    return b;
  }

  private static byte[] vtableOffset(byte[] g, int v) {
    byte[] b = g.clone();
    return BadInput.putI32le(b, BadInput.i32le(b, 0), v);
  }

  @ParameterizedTest(name = "graph.fb: {0}")
  @MethodSource("badGraphs")
  void badGraphIsRefused(String name, byte[] content) throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().put(G, content).write(dir, "graph.zip", deflate);
      refused(z, "graph.fb " + name + (deflate ? " (deflated)" : ""), "graph.zip!" + G);
    }
  }

  @ParameterizedTest(name = "trainingConfig.fb: {0}")
  @MethodSource("badGraphs")
  void badTrainingConfigIsRefused(String name, byte[] content) throws IOException {
    Path z = ZipTagsSamples.entries().put("v2/trainingConfig.fb", content).write(dir, "tc.zip", true);
    refused(z, "trainingConfig.fb " + name, "tc.zip!v2/trainingConfig.fb");
  }

  @Test
  void badGraphIsRefusedByMount() throws IOException {
    Path z = ZipTagsSamples.entries().put(G, new byte[] {1, 2, 3}).write(dir, "graph.zip", true);
    refusedByMount(z, "graph.fb of 3 bytes, mounted", "graph.zip!" + G);
    z = ZipTagsSamples.entries().put(W, Arrays.copyOf(ZipTagsSamples.entries().get(W), 100)).write(dir, "cut.zip", true);
    refusedByMount(z, "params/2.fb cut, mounted", "cut.zip!" + W);
  }

  @Test
  void graphWithAppendedArrayStubsIsRefused() throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().put(G, stubGraph).write(dir, "stubs.zip", deflate);
      refused(z, "an SDNB FlatGraph with appended stubs as graph.fb", "stubs.zip!" + G, "is an appended-array stub",
          "zip-tags keeps arrays in v1/params/");
    }
  }

  /** FORMATS.md: inline arrays in graph.fb are accepted, unless params.txt gives the variable an array too. */
  @Test
  void graphWithInlineArraysIsAcceptedAloneAndRefusedWithParams() throws IOException {
    Path z = ZipTagsSamples.entries().put(G, inlineGraph).write(dir, "inline.zip", false);
    refused(z, "inline arrays and params.txt", "ZIP entry 'v1/params.txt' line 1", "'&MyParam*' has its array twice");
    z = ZipTagsSamples.entries().put(G, inlineGraph).remove("v1/params.txt").write(dir, "inline.zip", true);
    refused(z, "inline updater state and updater.txt", "ZIP entry 'v1/updater.txt' line 1",
        "updater state of 'layer1/W' listed twice");
    z = ZipTagsSamples.entries().put(G, inlineGraph).remove("v1/params.txt").remove("v1/updater.txt")
        .write(dir, "inline.zip", true);
    assertEquals(null, BadInput.openTimed(z, "inline arrays only"));
    try (Model m = Models.open(z)) {
      Variable w = m.tags().get(0).variables().stream().filter(v -> v.name().equals("layer0/W")).findFirst().orElseThrow();
      assertNotNull(w.array(), "layer0/W has its inline array");
      assertEquals(4, m.tags().get(0).updater().size());
    }
  }
}
