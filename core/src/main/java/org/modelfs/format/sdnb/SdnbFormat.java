package org.modelfs.format.sdnb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.ArrayDecoder;
import org.modelfs.format.fb.FlatBufferOut;
import org.modelfs.format.fb.GraphReader;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.model.ArrayStreams;
import org.modelfs.io.ByteSource;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayData.Storage;
import org.modelfs.model.GraphRef;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.Shapes;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;

/**
 * One SDNB file (docs/FORMATS.md §5): 32-byte header, metadata FlatGraph at 32, appended blobs
 * (64-byte aligned when we write them), Java-serialized manifest last. Reading locates every
 * array without touching its bytes; writing streams arrays from their sources.
 */
public final class SdnbFormat {
  /** Largest manifest we load into the heap (about 1.5 million entries). */
  static final long MAX_MANIFEST = 256L << 20;

  /** Metadata keys DL4J's serializer always writes (docs/FORMATS.md §5.6). */
  public static final String KEY_VERSION = "nd4j.format.version";
  public static final String KEY_TYPE = "nd4j.format.type";
  public static final String KEY_CREATED = "creation.time";
  public static final String KEY_FRAMEWORK = "framework.version";
  public static final String KEY_SHARD_INDEX = "shard.index";
  public static final String KEY_SHARD_TYPE = "shard.type";

  private SdnbFormat() {}

  /** Keys SDNB writers add by themselves; losing them loses nothing the user wrote. */
  public static boolean isFormatKey(String key) {
    return key.equals(KEY_VERSION) || key.equals(KEY_TYPE)
        || key.equals(KEY_CREATED) || key.equals(KEY_FRAMEWORK)
        || key.equals(KEY_SHARD_INDEX) || key.equals(KEY_SHARD_TYPE);
  }

  /**
   * The content of one SDNB file.
   *
   * @param graph the metadata FlatGraph region
   * @param content variables (appended arrays attached), updater state, training, metadata
   */
  public record Parsed(GraphRef graph, GraphReader.Content content) {}

  /** True if {@code src} starts with the SDNB magic. */
  public static boolean sniff(ByteSource src) throws IOException {
    return SdnbHeader.sniff(src);
  }

  /** Reads a single SDNB file as one tag. */
  public static Tag read(ByteSource src, String tagName) throws IOException {
    Parsed p = parse(src);
    GraphReader.Content c = p.content();
    return new Tag(tagName, p.graph(), c.variables(), c.updater(), c.trainingConfig(), c.metadata());
  }

  /** Where an SDNB file's parts lie: its header, its manifest's entries, the FlatGraph's length. */
  private record Layout(SdnbHeader header, List<Manifest.Entry> entries, long metaLen) {}

  private static Layout layout(ByteSource src) throws IOException {
    String file = src.name();
    SdnbHeader h = SdnbHeader.read(src);
    if (h.manifestLength() > MAX_MANIFEST) {
      throw new ModelFormatException(file, "SDNB manifest", h.manifestOffset(),
          "manifest of " + h.manifestLength() + " bytes exceeds the " + MAX_MANIFEST + "-byte limit");
    }
    ByteBuffer mb = ByteBuffer.allocate((int) h.manifestLength());
    src.readFully(mb, h.manifestOffset());
    mb.flip();
    List<Manifest.Entry> entries = Manifest.read(mb, file, h.manifestOffset());
    checkBlobs(entries, h, file);

    long metaEnd = h.manifestOffset();
    for (Manifest.Entry e : entries) {
      metaEnd = Math.min(metaEnd, e.offset());
    }
    long metaLen = metaEnd - SdnbHeader.METADATA_OFFSET;
    if (metaLen < 8) {
      throw new ModelFormatException(file, "SDNB metadata FlatGraph", SdnbHeader.METADATA_OFFSET,
          "no room for the metadata FlatBuffer (" + metaLen + " bytes before the first blob)");
    }
    return new Layout(h, entries, metaLen);
  }

  /**
   * Asks {@code src} for its FlatGraph in one request ({@link ByteSource#prefetch}), from its held
   * header and manifest: what an opening fetches of each file once its ends are in (an object
   * store's shard, before the other shards' ends have all arrived). {@link #parse} then reads it
   * from what is held.
   */
  public static void prefetchIndex(ByteSource src) throws IOException {
    src.prefetch(SdnbHeader.METADATA_OFFSET, layout(src).metaLen());
  }

  /** Parses header, manifest and metadata FlatGraph, and attaches appended arrays. */
  public static Parsed parse(ByteSource src) throws IOException {
    String file = src.name();
    Layout l = layout(src);
    src.prefetch(SdnbHeader.METADATA_OFFSET, l.metaLen()); // an object store: the FlatGraph in one round trip, not a walk's
    GraphRef ref = new GraphRef(src, SdnbHeader.METADATA_OFFSET, l.metaLen(), Convention.SDNB);
    GraphReader.Content c = GraphReader.read(ref, file);
    return new Parsed(ref, attach(c, l.entries(), src, l.header()));
  }

  private static void checkBlobs(List<Manifest.Entry> entries, SdnbHeader h, String file)
      throws ModelFormatException {
    List<Manifest.Entry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingLong(Manifest.Entry::offset));
    long prevEnd = SdnbHeader.METADATA_OFFSET;
    String prev = null;
    for (Manifest.Entry e : sorted) {
      if (e.offset() < SdnbHeader.SIZE || e.length() < 0 || e.offset() > h.manifestOffset()
          || e.length() > h.manifestOffset() - e.offset()) {
        throw new ModelFormatException(file, "SDNB manifest entry '" + e.name() + "'", h.manifestOffset(),
            "blob [" + e.offset() + ", +" + e.length() + ") lies outside the blob area [32, " + h.manifestOffset() + ")");
      }
      if (e.length() > 0) {
        if (prev != null && e.offset() < prevEnd) {
          throw new ModelFormatException(file, "SDNB manifest entry '" + e.name() + "'", e.offset(),
              "blob overlaps the blob of '" + prev + "' (which ends at " + prevEnd + ")");
        }
        prevEnd = e.offset() + e.length();
        prev = e.name();
      }
    }
  }

  private static GraphReader.Content attach(
      GraphReader.Content c, List<Manifest.Entry> entries, ByteSource src, SdnbHeader h)
      throws ModelFormatException {
    String file = src.name();
    Map<String, Integer> index = new HashMap<>();
    List<Variable> vars = new ArrayList<>(c.variables());
    for (int i = 0; i < vars.size(); i++) {
      index.put(vars.get(i).name(), i);
    }
    Map<String, ArrayDecoder.Header> stubs = new HashMap<>(c.stubs());
    for (Manifest.Entry e : entries) {
      String what = "SDNB manifest entry '" + e.name() + "'";
      Integer i = index.get(e.name());
      if (i == null) {
        throw new ModelFormatException(file, what, h.manifestOffset(), "names no variable of the graph");
      }
      Variable v = vars.get(i);
      if (v.array() != null) {
        throw new ModelFormatException(file, what, h.manifestOffset(), "duplicate: the variable already has an inline array");
      }
      if (v.dtype() == null || v.dtype().width() == 0) {
        throw new ModelFormatException(file, what, h.manifestOffset(), "variable has no fixed-width data type (" + v.dtype() + ")");
      }
      long[] shape = v.shape();
      if (shape == null) {
        throw new ModelFormatException(file, what, h.manifestOffset(), "variable has no recorded shape");
      }
      long expected = Shapes.byteLength(shape, v.dtype().width());
      if (expected != e.length()) {
        throw new ModelFormatException(file, what, e.offset(), "blob of " + e.length() + " bytes, but "
            + Shapes.needs(v.dtype(), shape, v.dtype().width()));
      }
      ArrayDecoder.Header stub = stubs.remove(e.name());
      char order = stub == null ? 'c' : stub.order();
      boolean empty = e.length() == 0;
      vars.set(i, v.withArray(new ArrayData(v.dtype(), shape, order, empty, src, e.offset(), e.length(), false, Storage.RAW)));
    }
    if (!stubs.isEmpty()) {
      String name = stubs.keySet().iterator().next();
      throw new ModelFormatException(file, "SDNB FlatVariable '" + name + "'", SdnbHeader.METADATA_OFFSET,
          "array is marked as appended but the manifest has no entry for it");
    }
    return new GraphReader.Content(vars, Map.of(), c.updater(), c.trainingConfig(), c.metadata());
  }

  /**
   * The metadata an SDNB file we write carries: the tag's, with the format keys DL4J forces,
   * and the shard keys when {@code shardIndex >= 0}.
   */
  public static Map<String, String> metadataFor(Tag tag, int shardIndex, boolean graphShard) {
    Map<String, String> m = new TreeMap<>(tag.metadata());
    m.remove(KEY_SHARD_INDEX);
    m.remove(KEY_SHARD_TYPE);
    m.put(KEY_VERSION, "1");
    m.put(KEY_TYPE, "APPENDED_BLOB");
    m.putIfAbsent(KEY_CREATED, Long.toString(System.currentTimeMillis()));
    if (shardIndex >= 0) {
      m.put(KEY_SHARD_INDEX, Integer.toString(shardIndex));
      m.put(KEY_SHARD_TYPE, graphShard ? "graph" : "weights");
    }
    return m;
  }

  /**
   * Lays out one SDNB file without writing it: the result knows its exact size (a zip writer
   * needs it up front) and streams itself with {@link Prepared#writeTo}.
   *
   * @param mode {@code SDNB}, {@code SHARD_GRAPH} or {@code SHARD_WEIGHTS}
   * @param names the variables of a weight shard
   */
  public static Prepared prepare(Tag tag, GraphWriter.Mode mode, Set<String> names, Map<String, String> metadata,
      String file) throws IOException {
    GraphWriter.Built built = GraphWriter.build(tag, mode, names, metadata, file);
    long metaEnd = SdnbHeader.SIZE + built.flatBufferLength();
    long blobArea = built.blobs().isEmpty() ? metaEnd : align(metaEnd, GraphWriter.BLOB_ALIGN);
    List<Manifest.Entry> entries = new ArrayList<>();
    for (GraphWriter.Blob b : built.blobs()) {
      entries.add(new Manifest.Entry(b.name(), blobArea + b.offset(), b.array().length()));
    }
    byte[] manifest = Manifest.write(entries);
    return new Prepared(built, blobArea, blobArea + built.blobEnd(), manifest);
  }

  /** A laid-out SDNB file, ready to stream. */
  public static final class Prepared {
    private final GraphWriter.Built built;
    private final long blobArea;
    private final long manifestOffset;
    private final byte[] manifest;

    Prepared(GraphWriter.Built built, long blobArea, long manifestOffset, byte[] manifest) {
      this.built = built;
      this.blobArea = blobArea;
      this.manifestOffset = manifestOffset;
      this.manifest = manifest;
    }

    /** Exact size of the file in bytes. */
    public long size() {
      return manifestOffset + manifest.length;
    }

    /** Streams the file; blobs land 64-aligned relative to the output's current position. */
    public void writeTo(CountingOutput out) throws IOException {
      long start = out.position();
      out.write(new SdnbHeader(1, manifestOffset, manifest.length).toBytes());
      FlatBufferOut.write(built, out, false);
      for (GraphWriter.Blob b : built.blobs()) {
        out.padTo(start + blobArea + b.offset());
        ArrayStreams.copyLittleEndian(b.array(), out);
      }
      out.expectAt(start + manifestOffset, "SDNB manifest");
      out.write(manifest);
    }
  }

  static long align(long x, int a) {
    return (x + a - 1) / a * a;
  }
}
