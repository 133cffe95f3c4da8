package org.modelfs.format.unified;

import static org.modelfs.format.unified.ContainerLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.TagList;
import org.modelfs.format.fb.GraphReader;
import org.modelfs.io.ByteSource;
import org.modelfs.io.HeapSource;
import org.modelfs.io.ParallelReads;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayData.Storage;
import org.modelfs.model.GraphRef;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.ShardLayout;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * Reads a container — one file, or the files of a sharded one (docs/FORMATS.md §13) — into its
 * tags without touching array bytes: the preamble, every frame, the HEADER, METADATA, GRAPH and
 * SHARD_INFO sections (CRC-checked, into the heap within their budgets, except a stored GRAPH,
 * which is read in place) and each ARRAYS section's index. Arrays become views of their chunks
 * ({@link StoredChunks}, {@link DeflatedChunks}).
 */
public final class ContainerReader {
  /** The most sections a file may declare: a HEADER and a SHARD_INFO, and three per tag. */
  static final long MAX_SECTIONS = 2 + 3L * TagList.MAX_TAGS;
  /** The most bytes of container-wide tables (header, shard info) read into memory. */
  static final long MAX_SMALL = 1 << 20;

  private ContainerReader() {}

  /** True if {@code src} starts with the container magic. */
  public static boolean sniff(ByteSource src) throws IOException {
    if (src.size() < MAGIC.length) {
      return false;
    }
    ByteBuffer b = ByteBuffer.allocate(MAGIC.length);
    src.readFully(b, 0);
    return Arrays.equals(b.array(), MAGIC);
  }

  /** The frames of one file, walked and checked. */
  record Parsed(ByteSource src, Tables.Header header, List<Frame> frames, Tables.ShardInfo shard) {}

  /** Reads a single-file container. */
  public static List<Tag> read(ByteSource src) throws IOException {
    Parsed p = parse(src);
    if (p.shard() != null) {
      throw new ModelFormatException(src.name(), "SHARD_INFO section", p.frames().stream()
          .filter(f -> f.type() == SectionType.SHARD_INFO).findFirst().orElseThrow().offset(),
          "this file is shard " + p.shard().index() + " of " + p.shard().count() + " of '" + p.shard().base()
              + "'; open the shard set");
    }
    return tags(List.of(p));
  }

  /** A container shard set read: its tags, and which names each weight shard holds. */
  public record ShardSet(List<Tag> tags, ShardLayout layout) {}

  /** Reads the files of a sharded container, shard 0 first, with what each weight shard holds. */
  public static ShardSet readShardSet(List<ByteSource> shards) throws IOException {
    ParallelReads.Results<Parsed> all = ParallelReads.parseAll(shards, ContainerReader::parse); // at once: issue 34
    List<Parsed> parsed = new ArrayList<>();
    for (int k = 0; k < shards.size(); k++) {
      Parsed p = all.get(k);
      String file = p.src().name();
      if (p.shard() == null || p.shard().index() != k || p.shard().count() != shards.size()) {
        throw new ModelFormatException(file, "SHARD_INFO section", PREAMBLE, "the file is "
            + (p.shard() == null ? "not a shard" : "shard " + p.shard().index() + " of " + p.shard().count())
            + ", but it was found as shard " + k + " of " + shards.size());
      }
      for (Frame f : p.frames()) {
        if (k > 0 && (f.type() == SectionType.GRAPH || f.type() == SectionType.METADATA)) {
          throw new ModelFormatException(file, f.what(), f.offset(), "in weight shard " + k
              + ": graphs and metadata belong in shard 0");
        }
      }
      if (k > 0 && !p.header().tags().equals(parsed.get(0).header().tags())) {
        throw new ModelFormatException(file, "ContainerHeader.tags", PREAMBLE, "lists tags " + p.header().tags()
            + ", but shard 0 lists " + parsed.get(0).header().tags());
      }
      parsed.add(p);
    }
    List<Set<String>> held = new ArrayList<>();
    for (int k = 0; k < parsed.size(); k++) {
      held.add(new LinkedHashSet<>());
    }
    List<Tag> tags = tags(parsed, held);
    return new ShardSet(tags, new ShardLayout(held.subList(1, held.size()), !held.get(0).isEmpty()));
  }

  /** Reads the preamble and walks every frame of one file. */
  static Parsed parse(ByteSource src) throws IOException {
    String file = src.name();
    long size = src.size();
    if (size < PREAMBLE) {
      throw new ModelFormatException(file, "container preamble", 0, "the file has " + size + " bytes; the preamble takes "
          + PREAMBLE);
    }
    ByteBuffer pre = ByteBuffer.allocate(PREAMBLE).order(ByteOrder.LITTLE_ENDIAN);
    src.readFully(pre, 0);
    if (!Arrays.equals(Arrays.copyOf(pre.array(), MAGIC.length), MAGIC)) {
      throw new ModelFormatException(file, "container preamble", 0, "does not start with SAMEDIFF_MODEL");
    }
    int version = pre.getInt(VERSION_OFFSET);
    if (version != VERSION) {
      throw new ModelFormatException(file, "container version", VERSION_OFFSET, "version " + Integer.toUnsignedString(version)
          + "; this reader knows version " + VERSION);
    }
    for (int i = MAGIC.length; i < PREAMBLE; i++) {
      if (i < VERSION_OFFSET || i >= VERSION_OFFSET + 4) {
        if (pre.get(i) != 0) {
          throw new ModelFormatException(file, "container preamble", i, "reserved byte is not zero");
        }
      }
    }
    Frame first = Frame.read(src, PREAMBLE, size);
    if (first.type() != SectionType.HEADER) {
      throw new ModelFormatException(file, "container", PREAMBLE, "the first section is " + first.type()
          + ", not HEADER");
    }
    checkCrc(src, first);
    Tables.Header header = readSmall(src, first, (s, off, len) -> Tables.readHeader(s, off, len, MAX_SECTIONS));
    List<Frame> frames = new ArrayList<>();
    frames.add(first);
    long at = first.end();
    while (frames.size() < header.sections()) {
      if (at >= size) {
        throw new ModelFormatException(file, "container", at, "the file ends after " + frames.size()
            + " sections; its header declares " + header.sections() + " (truncated?)");
      }
      Frame f = Frame.read(src, at, size);
      checkCrc(src, f);
      if (f.type() == SectionType.HEADER) {
        throw new ModelFormatException(file, "container", at, "a second HEADER section");
      }
      if (f.type().perTag() && f.tag() >= header.tags().size()) {
        throw new ModelFormatException(file, f.type() + " section frame", at + 4, "tag index " + f.tag()
            + ", but the header lists " + header.tags().size() + " tags");
      }
      for (Frame g : frames) {
        if (g.type() == f.type() && g.tag() == f.tag()) {
          throw new ModelFormatException(file, f.what(), at, "appears twice");
        }
      }
      frames.add(f);
      at = f.end();
    }
    if (at != size) {
      throw new ModelFormatException(file, "container", at, (size - at) + " bytes follow the last of the "
          + header.sections() + " sections the header declares");
    }
    Tables.ShardInfo shard = null;
    for (Frame f : frames) {
      if (f.type() == SectionType.SHARD_INFO) {
        shard = readSmall(src, f, Tables::readShardInfo);
      }
    }
    return new Parsed(src, header, frames, shard);
  }

  /** Reads a table of a small section: in place when stored, else inflated into the heap. */
  @FunctionalInterface
  private interface TableReader<T> {
    T read(ByteSource src, long start, long length) throws IOException;
  }

  private static <T> T readSmall(ByteSource src, Frame f, TableReader<T> reader) throws IOException {
    long max = f.type() == SectionType.METADATA ? MAX_HEAP_SECTION : MAX_SMALL;
    if (f.compression() == Compression.NONE) {
      Sections.checkBudget(src, f, max);
      return reader.read(src, f.dataOffset(), f.stored()); // read in place: no copy in the heap
    }
    byte[] data = Sections.heap(src, f, max);
    return reader.read(new HeapSource(src.name() + " (inflated " + f.what() + ")", data), 0, data.length);
  }

  private static List<Tag> tags(List<Parsed> files) throws IOException {
    return tags(files, null);
  }

  /** The tags of {@code files}; with {@code held}, adds to its entry k the names shard k stores. */
  private static List<Tag> tags(List<Parsed> files, List<Set<String>> held) throws IOException {
    Parsed main = files.get(0);
    List<String> names = main.header().tags();
    DeflatedChunks.Cache cache = new DeflatedChunks.Cache();
    List<Tag> out = new ArrayList<>();
    for (int t = 0; t < names.size(); t++) {
      Frame graphFrame = find(main, SectionType.GRAPH, t);
      if (graphFrame == null) {
        throw new ModelFormatException(main.src().name(), "container", PREAMBLE, "tag '" + names.get(t)
            + "' has no GRAPH section");
      }
      Frame metaFrame = find(main, SectionType.METADATA, t);
      Map<String, String> metadata = metaFrame == null ? Map.of() : readSmall(main.src(), metaFrame, Tables::readMetadata);
      GraphRef graph = graph(main.src(), graphFrame);
      GraphReader.Content c = GraphReader.read(graph, main.src().name());
      if (!c.stubs().isEmpty() || !c.updater().isEmpty()
          || c.variables().stream().anyMatch(v -> v.array() != null)) {
        throw new ModelFormatException(main.src().name(), graphFrame.what(), graphFrame.dataOffset(),
            "the FlatGraph holds arrays or updater state; a container keeps them in its ARRAYS sections");
      }
      List<Variable> vars = new ArrayList<>(c.variables());
      Map<String, Integer> index = new HashMap<>();
      for (int i = 0; i < vars.size(); i++) {
        index.put(vars.get(i).name(), i);
      }
      Map<String, Map<String, ArrayData>> updater = new LinkedHashMap<>();
      for (int k = 0; k < files.size(); k++) {
        Parsed p = files.get(k);
        Frame af = find(p, SectionType.ARRAYS, t);
        if (af != null) {
          attach(p.src(), af, cache, vars, index, updater, held == null ? null : held.get(k));
        }
      }
      List<UpdaterState> states = new ArrayList<>();
      updater.forEach((param, arrays) -> states.add(new UpdaterState(param, arrays)));
      out.add(new Tag(names.get(t), graph, vars, states, c.trainingConfig(), metadata));
    }
    return out;
  }

  private static Frame find(Parsed p, SectionType type, int tag) {
    for (Frame f : p.frames()) {
      if (f.type() == type && f.tag() == tag) {
        return f;
      }
    }
    return null;
  }

  /** The GRAPH section's FlatGraph: in place when stored, else inflated. */
  private static GraphRef graph(ByteSource src, Frame f) throws IOException {
    if (f.compression() == Compression.NONE) {
      return new GraphRef(src, f.dataOffset(), f.stored(), Convention.SDNB); // its CRC checked by the walk
    }
    byte[] data = Sections.heap(src, f, MAX_HEAP_SECTION);
    return new GraphRef(new HeapSource(src.name() + " (inflated " + f.what() + ")", data), 0, data.length,
        Convention.SDNB);
  }

  /** Reads an ARRAYS section's index and attaches its arrays to the tag's variables and updater state. */
  private static void attach(ByteSource src, Frame f, DeflatedChunks.Cache cache, List<Variable> vars,
      Map<String, Integer> index, Map<String, Map<String, ArrayData>> updater, Set<String> held) throws IOException {
    String file = src.name();
    if (f.compression() == Compression.ZSTD) {
      throw Sections.zstd(file, f.what(), f.offset() + 1);
    }
    boolean deflated = f.compression() == Compression.DEFLATE;
    long indexStart = indexStart(src, f);
    long indexLength = f.dataOffset() + f.stored() - 8 - indexStart;
    List<ArrayIndex.Entry> entries = ArrayIndex.read(src, indexStart, indexLength, deflated);
    checkPlaces(file, f, entries, indexStart);
    for (ArrayIndex.Entry e : entries) {
      if (held != null) {
        held.add(e.name());
      }
      ArrayData a = e.raw() == 0
          ? new ArrayData(e.dtype(), e.shape(), e.order(), true, src, 0, 0, false, Storage.RAW)
          : new ArrayData(e.dtype(), e.shape(), e.order(), false,
              deflated ? new DeflatedChunks(src, e, cache) : new StoredChunks(src, e), 0, e.raw(), false,
              deflated ? Storage.DEFLATED : Storage.RAW);
      String what = "container " + e.what();
      if (e.updaterKey() != null) {
        if (updater.computeIfAbsent(e.name(), k -> new LinkedHashMap<>()).put(e.updaterKey(), a) != null) {
          throw new ModelFormatException(file, what, indexStart, "is stored twice");
        }
        continue;
      }
      Integer i = index.get(e.name());
      if (i == null) {
        throw new ModelFormatException(file, what, indexStart, "names no variable of the graph");
      }
      Variable v = vars.get(i);
      if (v.kind() == VarKind.ARRAY) {
        throw new ModelFormatException(file, what, indexStart, "names ARRAY variable '" + v.name()
            + "', whose values a container never stores (docs/FORMATS.md §13.5)");
      }
      if (v.array() != null) {
        throw new ModelFormatException(file, what, indexStart, "is stored twice");
      }
      if (v.dtype() != null && v.dtype() != a.dtype() && !a.empty()) {
        throw new ModelFormatException(file, what, indexStart, "data type " + a.dtype() + " differs from the graph's "
            + v.dtype());
      }
      long[] declared = v.shape();
      if (declared != null && !a.empty() && !Arrays.equals(declared, a.shape())) {
        throw new ModelFormatException(file, what, indexStart, "shape " + Arrays.toString(a.shape())
            + " differs from the graph's " + Arrays.toString(declared));
      }
      vars.set(i, v.withArray(a));
    }
  }

  /**
   * Where an ARRAYS section's index starts: its length is the last 8 bytes of the data (at least
   * 8, at most the data before them and {@link ContainerLayout#MAX_HEAP_SECTION}).
   */
  private static long indexStart(ByteSource src, Frame f) throws IOException {
    String file = src.name();
    long dataEnd = f.dataOffset() + f.stored();
    if (f.stored() < 8) {
      throw new ModelFormatException(file, f.what(), f.offset() + 8, "holds " + f.stored()
          + " bytes; the index length alone takes 8");
    }
    ByteBuffer lb = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    src.readFully(lb, dataEnd - 8);
    long indexLength = lb.getLong(0);
    if (indexLength < 8 || indexLength > f.stored() - 8 || indexLength > MAX_HEAP_SECTION) {
      throw new ModelFormatException(file, f.what() + " index length", dataEnd - 8, "index of "
          + Long.toUnsignedString(indexLength) + " bytes in a section of " + f.stored() + " bytes (at most "
          + MAX_HEAP_SECTION + ")");
    }
    return dataEnd - 8 - indexLength;
  }

  /**
   * Checks a section's CRC-32C as the walk reaches it, so a damaged frame is named by its own
   * CRC: the data, or for ARRAYS its index and index length (docs/FORMATS.md §13.6).
   */
  private static void checkCrc(ByteSource src, Frame f) throws IOException {
    long end = f.dataOffset() + f.stored();
    Sections.checkCrc(src, f, f.type() == SectionType.ARRAYS ? indexStart(src, f) : f.dataOffset(), end);
  }

  /** Every chunk lies in the section's chunk area, and no two overlap. */
  private static void checkPlaces(String file, Frame f, List<ArrayIndex.Entry> entries, long indexStart)
      throws ModelFormatException {
    List<long[]> ranges = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      ArrayIndex.Entry e = entries.get(i);
      for (int k = 0; k < e.chunks(); k++) {
        long off = e.offsets()[k];
        long len = e.lengths()[k];
        if (off < f.dataOffset() || off > indexStart || len > indexStart - off) {
          throw new ModelFormatException(file, "container " + e.what() + " chunk " + k, indexStart, "[" + off + ", +" + len
              + ") lies outside the section's chunk area [" + f.dataOffset() + ", " + indexStart + ")");
        }
        ranges.add(new long[] {off, len, i});
      }
    }
    ranges.sort(Comparator.comparingLong(r -> r[0]));
    for (int k = 1; k < ranges.size(); k++) {
      long[] prev = ranges.get(k - 1);
      long[] cur = ranges.get(k);
      if (cur[0] < prev[0] + prev[1]) {
        throw new ModelFormatException(file, "container " + entries.get((int) cur[2]).what(), cur[0],
            "a chunk overlaps one of " + entries.get((int) prev[2]).what());
      }
    }
  }
}
