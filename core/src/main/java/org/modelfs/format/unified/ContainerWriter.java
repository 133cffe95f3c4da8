package org.modelfs.format.unified;

import static org.modelfs.format.unified.ContainerLayout.*;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.modelfs.format.fb.FlatBufferOut;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.DeflateWorkers;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * Writes a container (docs/FORMATS.md §13): the preamble, a HEADER, per tag its METADATA, GRAPH
 * and ARRAYS sections, and for a shard its SHARD_INFO — streaming, with one chunk of raw bytes
 * and one tag's FlatGraph structure in the heap at a time (deflated chunks: as many as the {@link DeflateWorkers} have in flight). The channel must be empty and
 * seekable: a compressed section's lengths are written into its frame once it is complete.
 */
public final class ContainerWriter {
  private final SeekableByteChannel ch;
  private final CountingOutput out;
  private final String file;
  private final int level;
  private final DeflateWorkers workers;

  /**
   * @param level the deflate level 1–9 ({@code -1}: the default, 6), or {@code 0} to store everything uncompressed
   */
  private ContainerWriter(SeekableByteChannel ch, String file, int level, DeflateWorkers workers) {
    this.ch = ch;
    this.out = new CountingOutput(ch);
    this.file = file;
    this.level = level;
    this.workers = workers;
  }

  /** The part of a shard set one file holds. */
  public enum Part {
    /** A single-file container: everything. */
    WHOLE,
    /** Shard 0: header, metadata and graphs, no arrays. */
    GRAPH,
    /** A weight shard: the arrays of the given variables (and their updater state). */
    WEIGHTS
  }

  /** Which shard a file is, for its SHARD_INFO section. */
  public record Shard(int index, int count, String base) {}

  /**
   * Writes {@code tags} (oldest first) as one container file into {@code ch}.
   *
   * @param level deflate level 1–9 ({@code -1}: 6) for METADATA, GRAPH and array chunks, or 0 to store them
   */
  public static void write(List<Tag> tags, SeekableByteChannel ch, String file, int level) throws IOException {
    write(tags, ch, file, level, DeflateWorkers.shared());
  }

  /** As {@link #write(List, SeekableByteChannel, String, int)}, deflated chunks compressed by {@code workers}. */
  static void write(List<Tag> tags, SeekableByteChannel ch, String file, int level, DeflateWorkers workers)
      throws IOException {
    new ContainerWriter(ch, file, level, workers).run(tags, Part.WHOLE, Set.of(), null);
  }

  /**
   * Writes one file of a sharded container: shard 0 ({@link Part#GRAPH}) or a weight shard
   * holding the arrays (and updater state) of the variables {@code names}.
   */
  public static void writeShard(List<Tag> tags, Part part, Set<String> names, Shard shard, SeekableByteChannel ch,
      String file, int level) throws IOException {
    new ContainerWriter(ch, file, level, DeflateWorkers.shared()).run(tags, part, names, shard);
  }

  private void run(List<Tag> tags, Part part, Set<String> names, Shard shard) throws IOException {
    if (ch.position() != 0 || ch.size() != 0) {
      throw new IllegalStateException(file + ": a container is written into an empty channel");
    }
    ByteBuffer pre = ByteBuffer.allocate(PREAMBLE).order(ByteOrder.LITTLE_ENDIAN);
    pre.put(MAGIC).putInt(VERSION_OFFSET, VERSION);
    out.write(pre.array());
    int sections = 1 + (shard == null ? 0 : 1);
    List<String> tagNames = new ArrayList<>();
    for (Tag t : tags) {
      tagNames.add(t.name());
      if (part != Part.WEIGHTS) {
        sections += 1 + (metadataOf(t).isEmpty() ? 0 : 1);
      }
      if (part != Part.GRAPH && hasArrays(t, part, names)) {
        sections++;
      }
    }
    small(SectionType.HEADER, 0, Tables.header(sections, tagNames), false);
    for (int i = 0; i < tags.size(); i++) {
      Tag t = tags.get(i);
      if (part != Part.WEIGHTS) {
        Map<String, String> meta = metadataOf(t);
        if (!meta.isEmpty()) {
          small(SectionType.METADATA, i, Tables.metadata(meta), level != 0);
        }
        graph(i, GraphWriter.build(t, GraphWriter.Mode.SHARD_GRAPH, Set.of(), Map.of(), file));
      }
      if (part != Part.GRAPH && hasArrays(t, part, names)) {
        arrays(i, t, part, names);
      }
    }
    if (shard != null) {
      small(SectionType.SHARD_INFO, 0, Tables.shardInfo(new Tables.ShardInfo(shard.index(), shard.count(),
          shard.index() == 0 ? "graph" : "weights", shard.base())), false);
    }
  }

  /**
   * Reasons {@code tag} cannot be written as a container: an ARRAYS index a reader would refuse
   * (more than {@link ContainerLayout#MAX_HEAP_SECTION} bytes, estimated before anything is
   * written: names, a table per array, 20 bytes per chunk).
   *
   * @param deflate whether the arrays are deflated (256 KiB chunks) or stored (64 MiB)
   */
  public static List<String> problems(Tag tag, boolean deflate) {
    long chunk = deflate ? DEFLATE_CHUNK : STORED_CHUNK;
    long index = 0;
    for (Variable v : tag.variables()) {
      if (stored(v)) {
        index += indexBytes(v.name(), v.array(), chunk);
      }
    }
    for (UpdaterState u : tag.updater()) {
      for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
        index += indexBytes(u.paramName() + e.getKey(), e.getValue(), chunk);
      }
    }
    if (index > MAX_HEAP_SECTION) {
      return List.of("its arrays need an ARRAYS index of about " + index + " bytes; a container's may hold "
          + MAX_HEAP_SECTION + " (docs/FORMATS.md §13.10): store it uncompressed (64 MiB chunks), or write it as a sharded container or SDNB");
    }
    return List.of();
  }

  private static long indexBytes(String name, ArrayData a, long chunk) {
    long chunks = a.length() == 0 ? 0 : (a.length() + chunk - 1) / chunk;
    return 3L * name.length() + 128 + 8L * a.shape().length + 20 * chunks;
  }

  /** The metadata a container keeps: the tag's, less the keys that describe an SDNB file. */
  static Map<String, String> metadataOf(Tag t) {
    Map<String, String> m = new TreeMap<>();
    t.metadata().forEach((k, v) -> {
      if (!SdnbFormat.isFormatKey(k)) {
        m.put(k, v);
      }
    });
    return m;
  }

  /** The variables whose arrays a container stores (as SDNB does: not those of ARRAY variables). */
  static boolean stored(Variable v) {
    return v.array() != null && v.kind() != VarKind.ARRAY;
  }

  private static boolean hasArrays(Tag t, Part part, Set<String> names) {
    for (Variable v : t.variables()) {
      if (stored(v) && (part == Part.WHOLE || names.contains(v.name()))) {
        return true;
      }
    }
    for (UpdaterState u : t.updater()) {
      if (!u.arrays().isEmpty() && (part == Part.WHOLE || names.contains(u.paramName()))) {
        return true;
      }
    }
    return false;
  }

  private int frameLevel(boolean compressed) {
    return compressed ? (level < 0 ? 6 : level) : 0;
  }

  private Deflater deflater() {
    return new Deflater(level, true);
  }

  /** A section whose data is in the heap. */
  private void small(SectionType type, int tag, byte[] raw, boolean compress) throws IOException {
    byte[] data = raw;
    if (compress) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      Deflater d = deflater();
      try (DeflaterOutputStream z = new DeflaterOutputStream(bytes, d)) {
        z.write(raw);
      } finally {
        d.end();
      }
      data = bytes.toByteArray();
    }
    Frame f = new Frame(out.position(), type, compress ? Compression.DEFLATE : Compression.NONE, FLAG_CRC,
        frameLevel(compress), tag, data.length, raw.length);
    out.write(f.header());
    out.write(data);
    CRC32C crc = new CRC32C();
    crc.update(data);
    end(f, crc);
  }

  /** The GRAPH section: the FlatGraph streamed, deflated when asked. */
  private void graph(int tag, GraphWriter.Built built) throws IOException {
    boolean compress = level != 0;
    long start = out.position();
    out.write(new byte[FRAME]); // the frame, written once the lengths are known
    CRC32C crc = new CRC32C();
    Sink sink = new Sink(crc);
    if (compress) {
      Deflater d = deflater();
      try {
        DeflaterOutputStream z = new DeflaterOutputStream(sink, d, 64 << 10);
        FlatBufferOut.write(built, new CountingOutput(z), false);
        z.finish();
      } finally {
        d.end();
      }
    } else {
      FlatBufferOut.write(built, new CountingOutput(sink), false);
    }
    Frame f = new Frame(start, SectionType.GRAPH, compress ? Compression.DEFLATE : Compression.NONE, FLAG_CRC,
        frameLevel(compress), tag, out.position() - start - FRAME, built.flatBufferLength());
    patch(f);
    end(f, crc);
  }

  /** The ARRAYS section: chunks, then the index, then the index's length. */
  private void arrays(int tag, Tag t, Part part, Set<String> names) throws IOException {
    boolean compress = level != 0;
    long start = out.position();
    out.write(new byte[FRAME]);
    List<ArrayIndex.Entry> entries = new ArrayList<>();
    int chunkLevel = compress ? level : 0;
    for (Variable v : t.variables()) {
      if (stored(v) && (part == Part.WHOLE || names.contains(v.name()))) {
        entries.add(array(v.name(), null, v.array(), chunkLevel));
      }
    }
    for (UpdaterState u : t.updater()) {
      if (part == Part.WHOLE || names.contains(u.paramName())) {
        for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
          entries.add(array(u.paramName(), e.getKey(), e.getValue(), chunkLevel));
        }
      }
    }
    byte[] index = ArrayIndex.write(entries, !compress);
    byte[] length = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, index.length).array();
    out.write(index);
    out.write(length);
    CRC32C crc = new CRC32C();
    crc.update(index);
    crc.update(length);
    long stored = out.position() - start - FRAME;
    Frame f = new Frame(start, SectionType.ARRAYS, compress ? Compression.DEFLATE : Compression.NONE, FLAG_CRC,
        frameLevel(compress), tag, stored, stored);
    patch(f);
    end(f, crc);
  }

  /** One array's chunks ({@code chunkLevel} 0: stored; else deflated on the shared workers). */
  private ArrayIndex.Entry array(String name, String key, ArrayData a, int chunkLevel) throws IOException {
    if (a.empty() || a.length() == 0) {
      return new ArrayIndex.Entry(name, key, a.dtype(), a.shape(), a.order(), 0, 0, new long[0], new long[0],
          new int[0]);
    }
    if (chunkLevel == 0) {
      out.padTo(align(out.position(), DATA_ALIGN));
    }
    ChunkSink.Table table;
    long chunkSize;
    try (ChunkSink sink = new ChunkSink(out, chunkLevel, workers, file + ": ARRAYS chunks of '" + name
        + (key == null ? "" : "' (" + key + ")") + "'")) {
      ArrayStreams.copyLittleEndian(a, sink);
      table = sink.finish();
      chunkSize = sink.chunkSize();
    }
    return new ArrayIndex.Entry(name, key, a.dtype(), a.shape(), a.order(), a.length(), chunkSize,
        table.offsets(), table.lengths(), table.crcs());
  }

  /** Writes the frame over its placeholder, then returns to the end. */
  private void patch(Frame f) throws IOException {
    long end = ch.position();
    ch.position(f.offset());
    ByteBuffer h = ByteBuffer.wrap(f.header());
    while (h.hasRemaining()) {
      ch.write(h);
    }
    ch.position(end);
  }

  /** The CRC (data, then header) and the padding to the next frame. */
  private void end(Frame f, CRC32C crc) throws IOException {
    crc.update(f.header());
    out.write(ByteBuffer.allocate(CRC).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) crc.getValue()).array());
    out.padTo(f.end());
  }

  /** The section's data on its way to the file, its CRC-32C taken as it passes. */
  private final class Sink extends OutputStream {
    private final CRC32C crc;

    Sink(CRC32C crc) {
      this.crc = crc;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      crc.update(b, off, len);
      ByteBuffer bb = ByteBuffer.wrap(b, off, len);
      while (bb.hasRemaining()) {
        out.write(bb);
      }
    }
  }
}
