package org.modelfs.format.unified;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.format.badinput.BadInput.assertFormatError;
import static org.modelfs.format.badinput.BadInput.put;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.format.BudgetExceededException;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.badinput.BadInput;
import org.modelfs.format.fb.Slots;
import org.modelfs.format.unified.ArrayIndex.Entry;
import org.modelfs.format.unified.ContainerLayout.SectionType;
import org.modelfs.format.unified.Containers.Section;
import org.modelfs.model.DType;

/**
 * The ARRAYS index of a container lying (docs/FORMATS.md §13.5) — its length, chunk size, chunk
 * tables, chunks outside the chunk area or overlapping, a stored array not contiguous, its
 * {@code appendedDataOffset}, lengths that do not fit the shape, names the graph does not have —
 * and compression bombs in METADATA, GRAPH and array chunks (§13.10). Every forged section has a
 * valid CRC, so each case reaches the check meant for it; the index is rewritten with the code's
 * own {@link ArrayIndex#write}, whose output the baseline cases show is accepted.
 */
class ContainerIndexBadInputTest {
  @TempDir Path dir;

  private ModelFormatException refused(byte[] f, String what, String expected) throws IOException {
    ModelFormatException e = assertFormatError(put(dir, "forged.sdmc", f), what);
    assertTrue(e.getMessage().contains(expected), what + ": the message should say '" + expected + "': "
        + e.getMessage());
    return e;
  }

  private void accepted(byte[] f, String what) throws IOException {
    assertNull(BadInput.openTimed(put(dir, "valid.sdmc", f), what));
  }

  /** The file with the index of tag 0's ARRAYS section rewritten from edited entries (chunks kept). */
  private static byte[] editIndex(byte[] f, UnaryOperator<List<Entry>> edit) throws IOException {
    List<Section> s = Containers.sections(f);
    int i = Containers.find(s, SectionType.ARRAYS, 0);
    Section a = s.get(i);
    boolean stored = a.compression() == 0;
    return Containers.replace(f, i, a.withIndex(ArrayIndex.write(edit.apply(new ArrayList<>(Containers.readIndex(a))),
        stored)));
  }

  /** The file with tag 0's ARRAYS section laid out anew from edited chunks (entries' tables recomputed). */
  static byte[] relayout(byte[] f, String name, UnaryOperator<List<byte[]>> chunks, long chunkSize)
      throws IOException {
    List<Section> s = Containers.sections(f);
    int i = Containers.find(s, SectionType.ARRAYS, 0);
    Section a = s.get(i);
    List<Entry> entries = new ArrayList<>(Containers.readIndex(a));
    List<List<byte[]>> all = new ArrayList<>();
    for (int k = 0; k < entries.size(); k++) {
      Entry e = entries.get(k);
      List<byte[]> cs = Containers.chunks(f, e);
      if (e.name().equals(name) && e.updaterKey() == null) {
        cs = chunks.apply(cs);
        entries.set(k, Containers.withChunks(e, chunkSize < 0 ? e.chunkSize() : chunkSize, e.offsets(), e.lengths(),
            e.crcs()));
      }
      all.add(cs);
    }
    return Containers.replace(f, i, a.withData(Containers.arraysData(a.dataOffset(), entries, all, a.compression() == 0)));
  }

  private static UnaryOperator<List<Entry>> on(String name, UnaryOperator<Entry> edit) {
    return list -> {
      List<Entry> out = new ArrayList<>();
      for (Entry e : list) {
        out.add(e.name().equals(name) && e.updaterKey() == null ? edit.apply(e) : e);
      }
      return out;
    };
  }

  private static Entry entry(byte[] f, String name) throws IOException {
    List<Section> s = Containers.sections(f);
    return Containers.readIndex(s.get(Containers.find(s, SectionType.ARRAYS, 0))).stream()
        .filter(e -> e.name().equals(name) && e.updaterKey() == null).findFirst().orElseThrow();
  }

  private static byte[] deflate(byte[] raw) {
    Deflater d = new Deflater(6, true);
    d.setInput(raw);
    d.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[64 << 10];
    while (!d.finished()) {
      out.write(buf, 0, d.deflate(buf));
    }
    d.end();
    return out.toByteArray();
  }

  // ---- baselines: the forging tools make files the reader accepts --------------------------------------

  @ParameterizedTest(name = "deflate {0}")
  @ValueSource(booleans = {false, true})
  void rewrittenIndexAndRelaidChunksAreAccepted(boolean deflate) throws IOException {
    byte[] f = Containers.sample(deflate, false);
    accepted(editIndex(f, l -> l), "index rewritten unchanged");
    accepted(relayout(f, "layer0/W", c -> c, -1), "chunks laid out anew");
    // layer0/W (128 bytes) cut into two chunks of 64
    byte[] raw = wBytes(f);
    accepted(relayout(f, "layer0/W", c -> twoChunks(raw, deflate), 64), "layer0/W in two chunks of 64");
  }

  /** layer0/W's 128 raw bytes (inflated when deflated). */
  static byte[] wBytes(byte[] f) throws IOException {
    Entry e = entry(f, "layer0/W");
    byte[] stored = Containers.chunks(f, e).get(0);
    List<Section> s = Containers.sections(f);
    boolean deflated = s.get(Containers.find(s, SectionType.ARRAYS, 0)).compression() == 1;
    return deflated ? Sections.inflate(stored, (int) e.raw(), "w", "w", 0) : stored;
  }

  private static List<byte[]> twoChunks(byte[] raw, boolean deflate) {
    byte[] a = Arrays.copyOfRange(raw, 0, 64);
    byte[] b = Arrays.copyOfRange(raw, 64, raw.length);
    return deflate ? List.of(deflate(a), deflate(b)) : List.of(a, b);
  }

  // ---- the index length --------------------------------------------------------------------------------

  @ParameterizedTest(name = "deflate {0}")
  @ValueSource(booleans = {false, true})
  void lyingIndexLength(boolean deflate) throws IOException {
    byte[] f = Containers.sample(deflate, false);
    List<Section> s = Containers.sections(f);
    int i = Containers.find(s, SectionType.ARRAYS, 0);
    Section a = s.get(i);
    long len = a.indexLength();
    long max = a.data().length - 8;
    for (long v : new long[] {0, 7, 8, len - 8, len - 1, len + 1, len + 8, max, max + 1, Long.MAX_VALUE, -1,
        Long.MIN_VALUE, ContainerLayout.MAX_HEAP_SECTION + 1}) {
      byte[] d = a.data().clone();
      BadInput.putI64le(d, d.length - 8, v);
      String what = "index length " + v + " (really " + len + ")";
      ModelFormatException e = assertFormatError(put(dir, "forged.sdmc", Containers.replace(f, i, a.withData(d))), what);
      assertTrue(e.getMessage().contains("ARRAYS section") || e.getMessage().contains("ArraysSection")
          || e.getMessage().contains("ArrayEntry") || e.getMessage().contains("container array"),
          what + ": must name the ARRAYS section or its index: " + e.getMessage());
    }
  }

  // ---- chunk tables -------------------------------------------------------------------------------------

  @ParameterizedTest(name = "deflate {0}")
  @ValueSource(booleans = {false, true})
  void lyingChunkTables(boolean deflate) throws IOException {
    byte[] f = Containers.sample(deflate, false);
    long maxChunk = deflate ? ContainerLayout.MAX_DEFLATE_CHUNK : ContainerLayout.MAX_STORED_CHUNK;
    for (long cs : new long[] {0, -1, Long.MIN_VALUE, maxChunk + 1}) {
      refused(editIndex(f, on("layer0/W", e -> Containers.withChunks(e, cs, e.offsets(), e.lengths(), e.crcs()))),
          "chunk_size " + cs, "chunk size " + cs + " outside");
    }
    refused(editIndex(f, on("layer0/W", e -> Containers.withChunks(e, 64, e.offsets(), e.lengths(), e.crcs()))),
        "chunk_size 64: two chunks needed, one listed", "make 2 chunks");
    refused(editIndex(f, on("layer0/W", e -> Containers.withChunks(e, e.chunkSize(), new long[] {e.offsets()[0],
        e.offsets()[0]}, e.lengths(), e.crcs()))), "two offsets, one chunk", "2 offsets, 1 lengths and 1 CRCs");
    refused(editIndex(f, on("layer0/W", e -> Containers.withChunks(e, e.chunkSize(), e.offsets(), new long[0],
        e.crcs()))), "no lengths", "1 offsets, 0 lengths and 1 CRCs");
    refused(editIndex(f, on("layer0/W", e -> Containers.withChunks(e, e.chunkSize(), e.offsets(), e.lengths(),
        new int[2]))), "two CRCs", "1 offsets, 1 lengths and 2 CRCs");
    Entry w = entry(f, "layer0/W");
    long r = w.raw();
    for (long len : deflate ? new long[] {0, -1, r + r / 64 + 65, Long.MAX_VALUE} : new long[] {r - 1, r + 1, 0}) {
      refused(editIndex(f, on("layer0/W", e -> Containers.withChunks(e, e.chunkSize(), e.offsets(), new long[] {len},
          e.crcs()))), "chunk length " + len + " for " + r + " raw bytes", "stored length " + len);
    }
  }

  @ParameterizedTest(name = "deflate {0}")
  @ValueSource(booleans = {false, true})
  void chunksOutsideTheChunkAreaOrOverlapping(boolean deflate) throws IOException {
    byte[] f = Containers.sample(deflate, false);
    List<Section> s = Containers.sections(f);
    Section a = s.get(Containers.find(s, SectionType.ARRAYS, 0));
    long indexStart = a.dataOffset() + a.data().length - 8 - a.indexLength();
    Entry w = entry(f, "layer0/W");
    for (long off : new long[] {a.dataOffset() - 64, 0, indexStart, indexStart - w.lengths()[0] + 1, f.length,
        f.length + 64L, Long.MAX_VALUE - 8, -64}) {
      refused(editIndex(f, on("layer0/W", e -> Containers.withChunks(e, e.chunkSize(), new long[] {off}, e.lengths(),
          e.crcs()))), "layer0/W's chunk at " + off, "lies outside the section's chunk area");
    }
    Entry b = entry(f, "layer0/b");
    for (long delta : new long[] {0, 8, w.lengths()[0] - 1}) {
      refused(editIndex(f, on("layer0/b", e -> Containers.withChunks(e, e.chunkSize(), new long[] {w.offsets()[0]
          + delta}, e.lengths(), e.crcs()))), "layer0/b inside layer0/W (+" + delta + ")", "a chunk overlaps");
    }
    refused(editIndex(f, on("layer0/W", e -> Containers.withChunks(e, e.chunkSize(), b.offsets(), e.lengths(),
        e.crcs()))), "layer0/W at layer0/b", "overlaps");
  }

  @Test
  void storedChunksNotContiguous() throws IOException {
    byte[] f = Containers.sample(false, false);
    byte[] raw = wBytes(f);
    byte[] two = relayout(f, "layer0/W", c -> twoChunks(raw, false), 64);
    Entry w = entry(two, "layer0/W");
    for (long gap : new long[] {64, -64, 1, -1}) {
      refused(editIndex(two, on("layer0/W", e -> Containers.withChunks(e, 64, new long[] {e.offsets()[0],
          e.offsets()[1] + gap}, e.lengths(), e.crcs()))), "second chunk moved by " + gap, "contiguous");
    }
    assertTrue(w.chunks() == 2);
  }

  @Test
  void appendedDataDisagreeingWithTheChunkTable() throws IOException {
    byte[] f = Containers.sample(false, false);
    for (int slot : new int[] {Slots.A_APPENDED_OFFSET, Slots.A_APPENDED_LENGTH}) {
      for (long delta : new long[] {64, -1, 1}) {
        refused(patchArrayField(f, "layer0/W", slot, delta), "FlatArray slot " + slot + " + " + delta,
            "appendedDataOffset/Length");
      }
    }
  }

  /** The index with a long field of layer0/W's FlatArray changed in place. */
  private static byte[] patchArrayField(byte[] f, String name, int slot, long delta) throws IOException {
    List<Section> s = Containers.sections(f);
    int i = Containers.find(s, SectionType.ARRAYS, 0);
    byte[] index = s.get(i).index();
    int p = Containers.arrayField(index, Containers.entry(index, name), slot);
    BadInput.putI64le(index, p, BadInput.i64le(index, p) + delta);
    return Containers.replace(f, i, s.get(i).withIndex(index));
  }

  @ParameterizedTest(name = "deflate {0}")
  @ValueSource(booleans = {false, true})
  void lengthsShapesTypesAndNamesTheGraphDisagreesWith(boolean deflate) throws IOException {
    byte[] f = Containers.sample(deflate, false);
    refused(patchArrayField(f, "layer0/W", Slots.A_TOTAL_BUFFER_SIZE, 4), "totalBufferSize + 4", "needs 128");
    refused(patchArrayField(f, "layer0/W", Slots.A_TOTAL_BUFFER_SIZE, -4), "totalBufferSize - 4", "needs 128");
    refused(patchArrayField(f, "layer0/W", Slots.A_TOTAL_BUFFER_SIZE, -129), "totalBufferSize -1", "negative length");
    refused(editIndex(f, on("layer0/W", e -> new Entry(e.name(), null, e.dtype(), new long[] {8, 4}, e.order(), e.raw(),
        e.chunkSize(), e.offsets(), e.lengths(), e.crcs()))), "shape [8, 4] of [4, 8]", "differs from the graph's");
    refused(editIndex(f, on("layer0/W", e -> new Entry(e.name(), null, DType.INT32, e.shape(), e.order(), e.raw(),
        e.chunkSize(), e.offsets(), e.lengths(), e.crcs()))), "INT32 of FLOAT", "data type INT differs");
    refused(editIndex(f, on("layer0/W", e -> new Entry(e.name(), null, DType.UTF8, e.shape(), e.order(), 64,
        e.chunkSize(), e.offsets(), e.lengths(), e.crcs()))), "UTF8 of 32 strings in 64 bytes", "needs (n + 1)");
    refused(editIndex(f, on("layer0/W", e -> new Entry("no-such", null, e.dtype(), e.shape(), e.order(), e.raw(),
        e.chunkSize(), e.offsets(), e.lengths(), e.crcs()))), "a name the graph lacks", "names no variable");
    // an ARRAY variable (an activation): no writer stores one, a rewrite would drop it (found by fuzzing)
    refused(editIndex(f, on("layer0/b", e -> new Entry("multiply", null, e.dtype(), e.shape(), e.order(), e.raw(),
        e.chunkSize(), e.offsets(), e.lengths(), e.crcs()))), "layer0/b's array for ARRAY variable multiply",
        "names ARRAY variable 'multiply'");
    refused(editIndex(f, l -> {
      List<Entry> out = new ArrayList<>(l);
      Entry b = l.stream().filter(e -> e.name().equals("layer0/b") && e.updaterKey() == null).findFirst().orElseThrow();
      out.add(b);
      return out;
    }), "layer0/b twice", "overlaps");
  }

  // ---- compression bombs ------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"METADATA", "GRAPH"})
  void deflatedSectionBombs(String type) throws IOException {
    byte[] f = Containers.sample(true, false);
    List<Section> s = Containers.sections(f);
    int i = Containers.find(s, SectionType.valueOf(type), 0);
    Section x = s.get(i);
    long budget = ContainerLayout.INFLATE_FACTOR * x.data().length + (1 << 20);
    ModelFormatException e = refused(Containers.replace(f, i, x.withRaw(budget + 1)), type + " declaring budget + 1",
        "more than 64 per stored byte");
    assertTrue(e instanceof BudgetExceededException, e.toString());
    // 64 MiB of zeros in about 64 KiB, declared honestly: beyond the budget, refused before inflating
    byte[] bomb = deflate(new byte[64 << 20]);
    e = refused(Containers.replace(f, i, x.withData(bomb).withRaw(64 << 20)), type + " bomb of 64 MiB in "
        + bomb.length + " bytes", "more than 64 per stored byte");
    assertTrue(e instanceof BudgetExceededException, e.toString());
    // the same bomb declaring a length within the budget: inflation stops there
    refused(Containers.replace(f, i, x.withData(bomb).withRaw(1 << 20)), type + " bomb declaring 1 MiB",
        "inflates to more than the 1048576 bytes declared");
    refused(Containers.replace(f, i, x.withRaw(x.raw() - 1)), type + " raw length - 1", "inflates to more than");
    refused(Containers.replace(f, i, x.withRaw(x.raw() + 1)), type + " raw length + 1", "DEFLATE data ends after");
    refused(Containers.replace(f, i, x.withData(BadInput.concat(x.data(), new byte[] {0}))), type + " a byte after the stream",
        "follow the end of the DEFLATE stream");
    refused(Containers.replace(f, i, x.withData(new byte[] {(byte) 0xff, 1, 2, 3})), type + " not DEFLATE", "corrupt DEFLATE");
  }

  @Test
  void deflatedChunkBombsAndShortChunks() throws IOException {
    byte[] f = Containers.sample(true, false);
    byte[] raw = wBytes(f);
    // 100 KiB of zeros deflate to about 100 bytes: within a 128-byte chunk's stored bound
    refused(relayout(f, "layer0/W", c -> List.of(deflate(new byte[100 << 10])), -1), "chunk bomb of 100 KiB",
        "inflates to more than the 128 bytes declared");
    refused(relayout(f, "layer0/W", c -> List.of(deflate(Arrays.copyOf(raw, 129))), -1), "chunk of 129 bytes",
        "inflates to more than the 128 bytes declared");
    refused(relayout(f, "layer0/W", c -> List.of(deflate(Arrays.copyOf(raw, 127))), -1), "chunk of 127 bytes",
        "DEFLATE data ends after 127 bytes");
    refused(relayout(f, "layer0/W", c -> List.of(BadInput.concat(deflate(raw), new byte[] {7})), -1),
        "a byte after the chunk's stream", "follow the end of the DEFLATE stream");
    refused(relayout(f, "layer0/W", c -> List.of(deflate(new byte[16 << 20])), -1), "chunk bomb of 16 MiB",
        "stored length");
  }
}
