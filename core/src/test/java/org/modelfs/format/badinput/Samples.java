package org.modelfs.format.badinput;

import java.util.Arrays;
import org.modelfs.store.ModelFiles;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.modelfs.container.ModelWriter;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * Valid inputs to corrupt: SDNB, sharded SDNB and SDZ files written by {@link ModelWriter} from
 * a DL4J fixture (all arrays inline) or from a synthetic model whose two 1 MiB arrays become
 * appended blobs, plus an independent writer of the SDNB manifest (Java serialization bytes as
 * in docs/FORMATS.md §5.5) to build manifests with hostile entries.
 */
final class Samples {
  /** Elements of each appended array: 1 MiB of FLOAT / INT32. */
  static final int BIG = 1 << 18;

  private Samples() {}

  /**
   * A synthetic model: {@code w1} FLOAT[512,512] 'c' and {@code w2} INT32[256,1024] 'f'
   * (1 MiB each, appended in SDNB), {@code b} FLOAT[16] (inline) with Adam-like updater state
   * {@code M}, {@code V}, and a placeholder {@code x} FLOAT[-1,16] without array.
   */
  static Tag syntheticTag(ChannelSource data) {
    return syntheticTag(data, "", new long[] {512, 512}, DType.FLOAT);
  }

  /**
   * A variant of the synthetic model: names prefixed by {@code prefix}, {@code w1} with another
   * shape or type of the same byte size.
   */
  static Tag syntheticTag(ChannelSource data, String prefix, long[] w1Shape, DType w1Type) {
    long at = 0;
    ArrayData w1 = new ArrayData(w1Type, w1Shape, 'c', false, data, at, 4L * BIG, false, ArrayData.Storage.RAW);
    at += 4L * BIG;
    ArrayData w2 = new ArrayData(DType.INT32, new long[] {256, 1024}, 'f', false, data, at, 4L * BIG, false,
        ArrayData.Storage.RAW);
    at += 4L * BIG;
    ArrayData b = small(data, at);
    ArrayData m = small(data, at + 64);
    ArrayData v = small(data, at + 128);
    List<Variable> vars = List.of(
        new Variable(prefix + "w1", VarKind.VARIABLE, w1Type, w1Shape, w1, -1),
        new Variable(prefix + "w2", VarKind.CONSTANT, DType.INT32, new long[] {256, 1024}, w2, -1),
        new Variable(prefix + "b", VarKind.VARIABLE, DType.FLOAT, new long[] {16}, b, -1),
        new Variable(prefix + "x", VarKind.PLACEHOLDER, DType.FLOAT, new long[] {-1, 16}, null, -1));
    List<UpdaterState> updater = List.of(new UpdaterState(prefix + "b", Map.of("M", m, "V", v)));
    return new Tag("default", null, vars, updater, null, Map.of("model.name", "bad-input sample"));
  }

  private static ArrayData small(ChannelSource data, long at) {
    return new ArrayData(DType.FLOAT, new long[] {16}, 'c', false, data, at, 64, false, ArrayData.Storage.RAW);
  }

  /** Writes the data file of {@link #syntheticTag} (a deterministic byte pattern). */
  static ChannelSource syntheticData(Path file) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(8 * BIG + 192).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; buf.remaining() >= 4; i++) {
      buf.putInt(i * 0x9E3779B1);
    }
    Files.write(file, buf.array());
    return ChannelSource.open(file);
  }

  /** Writes the synthetic model in {@code format} to {@code out}; returns the files written. */
  static List<Path> writeSynthetic(Path work, Path out, WriteOptions options) throws IOException {
    return writeSynthetic(work, out, options, "", new long[] {512, 512}, DType.FLOAT);
  }

  /** Writes a variant of the synthetic model (see {@link #syntheticTag(ChannelSource, String, long[], DType)}). */
  static List<Path> writeSynthetic(Path work, Path out, WriteOptions options, String prefix, long[] w1Shape,
      DType w1Type) throws IOException {
    try (ChannelSource data = syntheticData(work.resolve("synthetic-" + System.nanoTime() + ".bin"))) {
      return ModelFiles.write(syntheticTag(data, prefix, w1Shape, w1Type), out, options);
    }
  }

  /** Converts a DL4J fixture (by its bytes) to another format. */
  static List<Path> convertFixture(byte[] fb, Path work, Path out, WriteOptions options) throws IOException {
    Path in = work.resolve("fixture-" + System.nanoTime() + ".fb");
    Files.write(in, fb);
    try (Model m = Models.open(in)) {
      return ModelFiles.write(m.newest(), out, options);
    }
  }

  // ---- SDNB layout -------------------------------------------------------------------------------

  /** One manifest entry: variable name, absolute blob offset, byte length. */
  record Entry(String name, long offset, long length) {}

  /**
   * A valid SDNB file and where its parts are.
   *
   * @param bytes the file
   * @param manifestOffset header field
   * @param manifestLength header field
   * @param entries the appended blobs in file order
   */
  record Sdnb(byte[] bytes, long manifestOffset, long manifestLength, List<Entry> entries) {
    int mOff() {
      return Math.toIntExact(manifestOffset);
    }

    int mEnd() {
      return Math.toIntExact(manifestOffset + manifestLength);
    }

    /** Start of the first blob (end of the metadata region), or the manifest when none. */
    int firstBlob() {
      return entries.isEmpty() ? mOff() : Math.toIntExact(entries.get(0).offset());
    }

    Entry entry(String name) {
      return entries.stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    /** The file with its manifest replaced by one holding {@code newEntries}. */
    byte[] withManifest(List<Entry> newEntries) {
      return withManifestBytes(manifest(newEntries));
    }

    /** The file with its manifest replaced by {@code m} (header length updated). */
    byte[] withManifestBytes(byte[] m) {
      byte[] out = BadInput.concat(Arrays.copyOf(bytes, mOff()), m);
      BadInput.putI64be(out, 16, m.length);
      return out;
    }
  }

  /** Reads the layout of a valid SDNB file (arrays located by opening it). */
  static Sdnb layout(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    long mOff = BadInput.i64be(bytes, 8);
    long mLen = BadInput.i64be(bytes, 16);
    List<Entry> entries = new ArrayList<>();
    try (Model m = Models.open(file)) {
      for (Variable v : m.newest().variables()) {
        ArrayData a = v.array();
        // Appended blobs lie between the metadata FlatBuffer and the manifest; inline arrays
        // lie inside the FlatBuffer. The first blob is at least 1 MiB, so this split is safe.
        if (a != null && a.length() >= (1 << 20)) {
          entries.add(new Entry(v.name(), a.offset(), a.length()));
        }
      }
    }
    entries.sort(Comparator.comparingLong(Entry::offset));
    return new Sdnb(bytes, mOff, mLen, List.copyOf(entries));
  }

  // ---- manifest writer (independent of the code under test) --------------------------------------

  /**
   * Serializes entries as {@code ObjectOutputStream} serializes a {@code LinkedHashMap<String,
   * org.nd4j.common.primitives.Pair<Long,Long>>} (docs/FORMATS.md §5.5), without the small-Long cache.
   */
  static byte[] manifest(List<Entry> entries) {
    try {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      DataOutputStream o = new DataOutputStream(bos);
      int[] next = {0x7E0000};
      o.writeShort(0xACED);
      o.writeShort(5);
      o.writeByte(0x73); // TC_OBJECT
      o.writeByte(0x72); // TC_CLASSDESC LinkedHashMap
      next[0]++;
      o.writeUTF("java.util.LinkedHashMap");
      o.writeLong(0x34C04E5C106CC0FBL);
      o.writeByte(2);
      o.writeShort(1);
      o.writeByte('Z');
      o.writeUTF("accessOrder");
      o.writeByte(0x78);
      o.writeByte(0x72); // super: HashMap
      next[0]++;
      o.writeUTF("java.util.HashMap");
      o.writeLong(0x0507DAC1C31660D1L);
      o.writeByte(3);
      o.writeShort(2);
      o.writeByte('F');
      o.writeUTF("loadFactor");
      o.writeByte('I');
      o.writeUTF("threshold");
      o.writeByte(0x78);
      o.writeByte(0x70); // no further superclass
      next[0]++; // the map object
      int capacity = 16;
      while (entries.size() > capacity * 3 / 4) {
        capacity *= 2;
      }
      o.writeFloat(0.75f);
      o.writeInt(entries.isEmpty() ? 0 : capacity * 3 / 4);
      o.writeByte(0x77); // TC_BLOCKDATA
      o.writeByte(8);
      o.writeInt(capacity);
      o.writeInt(entries.size());
      int pairDesc = -1;
      int longDesc = -1;
      for (Entry e : entries) {
        o.writeByte(0x74); // TC_STRING key
        o.writeUTF(e.name());
        next[0]++;
        o.writeByte(0x73);
        if (pairDesc < 0) {
          o.writeByte(0x72);
          pairDesc = next[0]++;
          o.writeUTF("org.nd4j.common.primitives.Pair");
          o.writeLong(119L);
          o.writeByte(2);
          o.writeShort(2);
          o.writeByte('L');
          o.writeUTF("key");
          o.writeByte(0x74);
          o.writeUTF("Ljava/lang/Object;");
          int objectType = next[0]++;
          o.writeByte('L');
          o.writeUTF("value");
          o.writeByte(0x71);
          o.writeInt(objectType);
          o.writeByte(0x78);
          o.writeByte(0x70);
        } else {
          o.writeByte(0x71);
          o.writeInt(pairDesc);
        }
        next[0]++; // the Pair
        for (long value : new long[] {e.offset(), e.length()}) {
          o.writeByte(0x73);
          if (longDesc < 0) {
            o.writeByte(0x72);
            longDesc = next[0]++;
            o.writeUTF("java.lang.Long");
            o.writeLong(0x3B8BE490CC8F23DFL);
            o.writeByte(2);
            o.writeShort(1);
            o.writeByte('J');
            o.writeUTF("value");
            o.writeByte(0x78);
            o.writeByte(0x72);
            next[0]++;
            o.writeUTF("java.lang.Number");
            o.writeLong(0x86AC951D0B94E08BL);
            o.writeByte(2);
            o.writeShort(0);
            o.writeByte(0x78);
            o.writeByte(0x70);
          } else {
            o.writeByte(0x71);
            o.writeInt(longDesc);
          }
          next[0]++; // the Long
          o.writeLong(value);
        }
      }
      o.writeByte(0x78); // end of HashMap block data
      o.writeByte(0); // accessOrder
      o.flush();
      return bos.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
