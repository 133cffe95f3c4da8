package org.modelfs.format.unified;

import static org.modelfs.format.badinput.BadInput.i32le;
import static org.modelfs.format.badinput.BadInput.i64le;
import static org.modelfs.format.badinput.BadInput.putI32le;
import static org.modelfs.format.badinput.BadInput.putI64le;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.badinput.BadInput;
import org.modelfs.format.badinput.BadInput.Fb;
import org.modelfs.format.fb.Slots;
import org.modelfs.io.HeapSource;

import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.store.ModelFiles;

/**
 * Containers to corrupt (docs/FORMATS.md §13) and the means to forge them: the four samples
 * (stored or deflated, one tag or two) written by our writer from {@code mlp_adam.fb}; a parser
 * of their frames that uses only the {@link ContainerLayout} constants; and a builder that lays
 * edited sections out again — each frame's CRC-32C recomputed over the data it covers and then
 * the 24 frame bytes, and the absolute chunk offsets of an ARRAYS section that moved shifted with
 * it — so that a forged lie reaches the check meant for it instead of stopping at a CRC.
 * Independent of the code under test, like {@link Samples#manifest}.
 */
final class Containers {
  private static final Map<String, byte[]> SAMPLES = new HashMap<>();

  private Containers() {}

  // ---- samples -------------------------------------------------------------------------------------

  /** The sample container: {@code mlp_adam.fb} stored or deflated, as tag {@code default} or as two tags. */
  static synchronized byte[] sample(boolean deflate, boolean twoTags) throws IOException {
    String key = deflate + "/" + twoTags;
    if (!SAMPLES.containsKey(key)) {
      try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
        Path fb = Files.write(mem.getPath("/mlp_adam.fb"), BadInput.fixture("mlp_adam.fb"));
        Path out = mem.getPath("/sample.sdmc");
        WriteOptions opts = WriteOptions.of(ModelFormat.CONTAINER).withDeflate(deflate);
        try (Model m = Models.open(fb)) {
          Tag t = m.newest();
          if (twoTags) {
            Tag v1 = new Tag("v1", t.graph(), t.variables(), t.updater(), t.trainingConfig(), Map.of());
            Tag v2 = new Tag("v2", t.graph(), t.variables(), t.updater(), t.trainingConfig(),
                Map.of("model.name", "two words", "note", "100%"));
            ModelFiles.writeTags(List.of(v1, v2), out, opts);
          } else {
            ModelFiles.write(new Tag("default", t.graph(), t.variables(), t.updater(), t.trainingConfig(),
                Map.of("note", "a sample")), out, opts);
          }
        }
        SAMPLES.put(key, Files.readAllBytes(out));
      }
    }
    return SAMPLES.get(key).clone();
  }

  /** The name of a sample in test names. */
  static String sampleName(boolean deflate, boolean twoTags) {
    return (deflate ? "deflated" : "stored") + (twoTags ? ", two tags" : ", one tag");
  }

  // ---- frames ------------------------------------------------------------------------------------

  /**
   * One section as laid out in a file.
   *
   * @param offset the frame's offset
   * @param type section type code
   * @param compression compression code
   * @param flags flag bits
   * @param level deflate level byte
   * @param tag tag index
   * @param raw raw length as the frame declares it
   * @param data the data bytes
   */
  record Section(long offset, int type, int compression, int flags, int level, int tag, long raw, byte[] data) {
    String typeName() {
      return ContainerLayout.SectionType.values()[type].name();
    }

    long dataOffset() {
      return offset + ContainerLayout.FRAME;
    }

    /** Where the next frame starts (CRC present when flag bit 0). */
    long end() {
      return ContainerLayout.align(dataOffset() + data.length + ((flags & 1) != 0 ? 4 : 0), 8);
    }

    Section withData(byte[] d) {
      return new Section(offset, type, compression, flags, level, tag, raw == data.length ? d.length : raw, d);
    }

    Section withRaw(long r) {
      return new Section(offset, type, compression, flags, level, tag, r, data);
    }

    Section withCompression(int c) {
      return new Section(offset, type, c, flags, level, tag, raw, data);
    }

    Section withType(int t) {
      return new Section(offset, t, compression, flags, level, tag, raw, data);
    }

    Section withFlags(int f) {
      return new Section(offset, type, compression, f, level, tag, raw, data);
    }

    Section withTag(int t) {
      return new Section(offset, type, compression, flags, level, t, raw, data);
    }

    /** The index length of an ARRAYS section (its last 8 bytes). */
    long indexLength() {
      return i64le(data, data.length - 8);
    }

    /** The ARRAYS index FlatBuffer's bytes. */
    byte[] index() {
      return Arrays.copyOfRange(data, data.length - 8 - (int) indexLength(), data.length - 8);
    }

    /** An ARRAYS section with its chunk area kept and its index (and index length) replaced. */
    Section withIndex(byte[] index) {
      return withData(Containers.withIndex(Arrays.copyOf(data, data.length - 8 - (int) indexLength()), index));
    }

    /** Absolute file offset of the chunk area's first byte. */
    long chunkArea() {
      return dataOffset();
    }
  }

  /** The sections of a well-formed container, in file order. */
  static List<Section> sections(byte[] file) {
    List<Section> out = new ArrayList<>();
    long at = ContainerLayout.PREAMBLE;
    while (at < file.length) {
      int p = (int) at;
      long stored = i64le(file, p + 8);
      Section s = new Section(at, file[p] & 0xff, file[p + 1] & 0xff, file[p + 2] & 0xff, file[p + 3] & 0xff,
          i32le(file, p + 4), i64le(file, p + 16),
          Arrays.copyOfRange(file, p + ContainerLayout.FRAME, p + ContainerLayout.FRAME + (int) stored));
      out.add(s);
      at = s.end();
    }
    if (at != file.length) {
      throw new IllegalStateException("not a well-formed container: frames end at " + at + " of " + file.length);
    }
    return out;
  }

  /** The first section of this type and tag. */
  static int find(List<Section> sections, ContainerLayout.SectionType type, int tag) {
    for (int i = 0; i < sections.size(); i++) {
      if (sections.get(i).type() == type.code() && sections.get(i).tag() == tag) {
        return i;
      }
    }
    throw new IllegalStateException("no " + type + " section of tag " + tag);
  }

  /**
   * Lays the sections out after the preamble of {@code original}: each frame at the next multiple
   * of 8, its CRC (flag bit 0) recomputed, an ARRAYS section that moved having its chunk offsets
   * and {@code appendedDataOffset}s shifted by as much.
   */
  static byte[] build(byte[] original, List<Section> sections) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(original, 0, ContainerLayout.PREAMBLE);
    for (Section s : sections) {
      long at = out.size();
      byte[] data = s.data();
      if (s.type() == ContainerLayout.SectionType.ARRAYS.code() && at != s.offset()) {
        data = shiftChunks(data, at + ContainerLayout.FRAME - s.dataOffset());
      }
      byte[] frame = frame(s, data.length);
      out.writeBytes(frame);
      out.writeBytes(data);
      if ((s.flags() & 1) != 0) {
        out.writeBytes(putI32le(new byte[4], 0, crc(s.type(), data, frame)));
      }
      while (out.size() % 8 != 0) {
        out.write(0);
      }
    }
    return out.toByteArray();
  }

  /** {@link #build} with section {@code i} replaced. */
  static byte[] replace(byte[] original, int i, Section s) {
    List<Section> list = new ArrayList<>(sections(original));
    list.set(i, s);
    return build(original, list);
  }

  private static byte[] frame(Section s, long stored) {
    byte[] f = new byte[ContainerLayout.FRAME];
    f[0] = (byte) s.type();
    f[1] = (byte) s.compression();
    f[2] = (byte) s.flags();
    f[3] = (byte) s.level();
    putI32le(f, 4, s.tag());
    putI64le(f, 8, stored);
    putI64le(f, 16, s.raw());
    return f;
  }

  /**
   * The CRC-32C a reader computes: over the data (for ARRAYS, the part its index length names,
   * when that fits the section), then the frame.
   */
  static int crc(int type, byte[] data, byte[] frame) {
    CRC32C c = new CRC32C();
    int from = 0;
    if (type == ContainerLayout.SectionType.ARRAYS.code() && data.length >= 8) {
      long len = i64le(data, data.length - 8);
      from = len >= 0 && len <= data.length - 8 ? data.length - 8 - (int) len : 0;
    }
    c.update(data, from, data.length - from);
    c.update(frame);
    return (int) c.getValue();
  }

  /**
   * A copy of any bytes with the CRC-32C of every frame that can be walked (from the preamble on,
   * as far as each frame's stored length and CRC fit the bytes) made valid, so a fuzzer's changes
   * to a section reach its parser instead of stopping at its CRC. Chunk CRCs are left as they are.
   */
  static byte[] withValidCrcs(byte[] in) {
    byte[] out = in.clone();
    long at = ContainerLayout.PREAMBLE;
    while (at + ContainerLayout.FRAME <= out.length) {
      int p = (int) at;
      long stored = i64le(out, p + 8);
      boolean hasCrc = (out[p + 2] & 1) != 0;
      long crcAt = at + ContainerLayout.FRAME + stored;
      if (stored < 0 || crcAt + (hasCrc ? 4 : 0) > out.length) {
        break;
      }
      if (hasCrc) {
        byte[] data = Arrays.copyOfRange(out, p + ContainerLayout.FRAME, (int) crcAt);
        putI32le(out, (int) crcAt, crc(out[p] & 0xff, data, Arrays.copyOfRange(out, p, p + ContainerLayout.FRAME)));
      }
      at = ContainerLayout.align(crcAt + (hasCrc ? 4 : 0), 8);
    }
    return out;
  }

  /** CRC-32C of bytes. */
  static int crc(byte[] b, int from, int to) {
    CRC32C c = new CRC32C();
    c.update(b, from, to - from);
    return (int) c.getValue();
  }

  // ---- the ARRAYS index (navigated with BadInput.Fb, independent of the code under test) ----------

  /** One ArrayEntry's positions inside an index buffer. */
  record EntryAt(String name, String updaterKey, int table, int array, int offsets, int lengths, int crcs) {
    int chunks(byte[] index) {
      return offsets < 0 ? 0 : i32le(index, offsets);
    }
  }

  /** The entries of an index FlatBuffer (given alone, buffer at 0). */
  static List<EntryAt> entries(byte[] index) {
    Fb fb = new Fb(index, 0);
    int vec = fb.ref(fb.root(), 0);
    List<EntryAt> out = new ArrayList<>();
    for (int i = 0; i < fb.vectorLength(vec); i++) {
      int t = fb.element(vec, i);
      int key = fb.ref(t, 2);
      out.add(new EntryAt(fb.string(fb.ref(t, 0)), key < 0 ? null : fb.string(key), t, fb.ref(t, 1), fb.ref(t, 4),
          fb.ref(t, 5), fb.ref(t, 6)));
    }
    return out;
  }

  /** The entry of this variable (not updater state). */
  static EntryAt entry(byte[] index, String name) {
    return entries(index).stream().filter(e -> e.name().equals(name) && e.updaterKey() == null).findFirst()
        .orElseThrow(() -> new IllegalStateException("no entry " + name));
  }

  /** Position of a FlatArray long field of an entry, or -1. */
  static int arrayField(byte[] index, EntryAt e, int slot) {
    return new Fb(index, 0).field(e.array(), slot);
  }

  /** Position of the entry's chunk_size field, or -1. */
  static int chunkSizeField(byte[] index, EntryAt e) {
    return new Fb(index, 0).field(e.table(), 3);
  }

  /** The ARRAYS data with every absolute chunk offset and appendedDataOffset moved by {@code delta}. */
  static byte[] shiftChunks(byte[] data, long delta) {
    int len = (int) i64le(data, data.length - 8);
    int start = data.length - 8 - len;
    byte[] index = Arrays.copyOfRange(data, start, data.length - 8);
    for (EntryAt e : entries(index)) {
      for (int k = 0; k < e.chunks(index); k++) {
        int p = e.offsets() + 4 + 8 * k;
        putI64le(index, p, i64le(index, p) + delta);
      }
      int ap = arrayField(index, e, Slots.A_APPENDED_OFFSET);
      if (ap >= 0) {
        putI64le(index, ap, i64le(index, ap) + delta);
      }
    }
    byte[] out = data.clone();
    System.arraycopy(index, 0, out, start, index.length);
    return out;
  }

  // ---- ARRAYS sections laid out anew (with the code's own index writer) ---------------------------

  /** The entries of an ARRAYS section's index, as the reader parses them. */
  static List<ArrayIndex.Entry> readIndex(Section s) throws IOException {
    byte[] index = s.index();
    return ArrayIndex.read(new HeapSource("index", index), 0, index.length,
        s.compression() == ContainerLayout.Compression.DEFLATE.code());
  }

  /** The stored bytes of each chunk of {@code e} in {@code file}. */
  static List<byte[]> chunks(byte[] file, ArrayIndex.Entry e) {
    List<byte[]> out = new ArrayList<>();
    for (int k = 0; k < e.chunks(); k++) {
      int from = (int) e.offsets()[k];
      out.add(Arrays.copyOfRange(file, from, from + (int) e.lengths()[k]));
    }
    return out;
  }

  /**
   * The data of an ARRAYS section whose data starts at {@code dataOffset}: the given chunks laid
   * out in order (each array's first chunk at a multiple of 64 when stored, as the writer does),
   * then the index {@link ArrayIndex#write} makes of the entries with those chunks' offsets,
   * lengths and CRC-32Cs, then its length.
   */
  static byte[] arraysData(long dataOffset, List<ArrayIndex.Entry> entries, List<List<byte[]>> chunks,
      boolean stored) {
    ByteArrayOutputStream area = new ByteArrayOutputStream();
    List<ArrayIndex.Entry> placed = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      ArrayIndex.Entry e = entries.get(i);
      List<byte[]> cs = chunks.get(i);
      long[] offsets = new long[cs.size()];
      long[] lengths = new long[cs.size()];
      int[] crcs = new int[cs.size()];
      for (int k = 0; k < cs.size(); k++) {
        while (stored && k == 0 && (dataOffset + area.size()) % ContainerLayout.DATA_ALIGN != 0) {
          area.write(0);
        }
        offsets[k] = dataOffset + area.size();
        lengths[k] = cs.get(k).length;
        crcs[k] = crc(cs.get(k), 0, cs.get(k).length);
        area.writeBytes(cs.get(k));
      }
      placed.add(new ArrayIndex.Entry(e.name(), e.updaterKey(), e.dtype(), e.shape(), e.order(), e.raw(),
          e.chunkSize(), offsets, lengths, crcs));
    }
    return withIndex(area.toByteArray(), ArrayIndex.write(placed, stored));
  }

  /** Chunk area, index, index length. */
  static byte[] withIndex(byte[] area, byte[] index) {
    byte[] d = BadInput.concat(area, index, new byte[8]);
    putI64le(d, d.length - 8, index.length);
    return d;
  }

  /** An entry with another chunk table (offsets, lengths, CRCs as given). */
  static ArrayIndex.Entry withChunks(ArrayIndex.Entry e, long chunkSize, long[] offsets, long[] lengths, int[] crcs) {
    return new ArrayIndex.Entry(e.name(), e.updaterKey(), e.dtype(), e.shape(), e.order(), e.raw(), chunkSize,
        offsets, lengths, crcs);
  }
}
