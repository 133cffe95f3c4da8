package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.*;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.gen.FlatArray;
import org.modelfs.format.fb.gen.FlatConfiguration;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.format.fb.gen.FlatVariable;
import org.modelfs.format.fb.gen.IntPair;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.GraphRef;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.Shapes;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * Builds the FlatGraph of one tag for a target layout. The structure (ops, ids, configuration)
 * is built in a {@link FlatBufferBuilder}; array bytes never enter it: each inline array's
 * {@code buffer} vector is placed in a <em>tail</em> after the builder's bytes and streamed
 * there by the file writer, and large SDNB arrays become appended blobs. This keeps the heap
 * bounded by the graph's structure, whatever the arrays weigh.
 */
public final class GraphWriter {
  /** SDNB: arrays of at least this many bytes are appended, smaller ones stay inline. */
  public static final long APPEND_THRESHOLD = 1L << 20;
  /** Alignment of appended blobs (relative to the 64-aligned start of the blob area). */
  public static final int BLOB_ALIGN = 64;
  /** Java FlatBuffers (and DL4J's readers) address a buffer with int offsets. */
  public static final long MAX_FLATBUFFER = Integer.MAX_VALUE - 8;

  /** Which layout to build. */
  public enum Mode {
    /** Format A: every array inline, legacy encoding, no metadata. */
    LEGACY,
    /** Single SDNB file: large arrays appended, small ones inline. */
    SDNB,
    /** Shard 0 of a sharded SDNB: every variable as a stub without any array, no updater. */
    SHARD_GRAPH,
    /** A weight shard: stubs of the given variables with their arrays and updater state. */
    SHARD_WEIGHTS
  }

  /** An inline array whose {@code buffer} vector lives in the tail. */
  public record TailArray(ArrayData array, long dataOffset) {}

  /** An appended SDNB blob at {@code offset} from the start of the blob area. */
  public record Blob(String name, ArrayData array, long offset) {}

  /**
   * The built FlatGraph: builder bytes, then the tail arrays (each a 4-byte little-endian length
   * followed by its data at {@code bytes.length + dataOffset}), then (SDNB) the blobs.
   */
  public record Built(byte[] bytes, List<TailArray> tail, long tailEnd, List<Blob> blobs, long blobEnd) {
    /** Length of the FlatBuffer including its tail. */
    public long flatBufferLength() {
      return bytes.length + tailEnd;
    }
  }

  private final FlatBufferBuilder b = new FlatBufferBuilder(64 * 1024);
  private final Mode mode;
  private final boolean legacy;
  private final String file;
  private final List<TailArray> tail = new ArrayList<>();
  private final List<Blob> blobs = new ArrayList<>();
  private long tailCursor = 8;
  private long blobCursor;
  /** Variables renamed since the source graph was read: stored name → new name. */
  private Map<String, String> renames = Map.of();
  /** Copies tables out of the source graph (each shared one once, within its budget); null without one. */
  private FbCopy copy;
  /** What decoding the source's op arguments may cost (their chunk indexes, docs/FORMATS.md §12); null without one. */
  private Budget decode;

  private GraphWriter(Mode mode, String file) {
    this.mode = mode;
    this.legacy = mode == Mode.LEGACY;
    this.file = file;
    b.prep(8, 0); // the builder's size is then a multiple of 8, so tail data is 8-aligned
  }

  /**
   * Builds the FlatGraph of {@code tag}.
   *
   * @param names for {@link Mode#SHARD_WEIGHTS}: the variables of this shard (else ignored)
   * @param metadata SDNB metadata to record (ignored for LEGACY)
   */
  public static Built build(Tag tag, Mode mode, Set<String> names, Map<String, String> metadata, String file)
      throws ModelFormatException {
    return new GraphWriter(mode, file).run(tag, names, metadata);
  }

  private Built run(Tag tag, Set<String> names, Map<String, String> metadata) throws ModelFormatException {
    FbTable src = tag.graph() == null ? null : source(tag.graph());
    boolean weights = mode == Mode.SHARD_WEIGHTS;
    renames = GraphNames.renames(tag, src);
    copy = src == null ? null : new FbCopy(b, src.buffer(), renames);
    decode = src == null ? null : Budget.read(src.buffer());

    // Variables.
    List<Variable> vars = new ArrayList<>();
    for (Variable v : tag.variables()) {
      if (!weights || names.contains(v.name())) {
        vars.add(v);
      }
    }
    int nextId = 1 + maxId(tag, src);
    int[] varOffs = new int[vars.size()];
    for (int i = 0; i < vars.size(); i++) {
      varOffs[i] = variable(vars.get(i), src, weights ? i + 1 : -1, weights ? -1 : nextId);
      if (!weights && vars.get(i).graphVariable() < 0) {
        nextId++;
      }
    }
    int variables = FlatGraph.createVariablesVector(b, varOffs);

    int nodes = 0;
    int outputs = 0;
    int configuration = 0;
    int placeholders = 0;
    int loss = 0;
    int subInstances = 0;
    if (!weights) {
      FbVector n = src == null ? null : src.getVector(G_NODES, "nodes", 4);
      nodes = n == null ? FlatGraph.createNodesVector(b, new int[0])
          : copy.tableVector(n, FbCopy.FLAT_NODE, reencode(tag.graph().convention()));
      FbVector o = src == null ? null : src.getVector(G_OUTPUTS, "outputs", 4);
      outputs = o == null ? FlatGraph.createOutputsVector(b, new int[0]) : copy.tableVector(o, FbCopy.INT_PAIR, null);
      FbTable c = src == null ? null : src.getTable(G_CONFIGURATION, "configuration");
      configuration = c != null ? copy.table(c, FbCopy.FLAT_CONFIGURATION) : defaultConfiguration();
      placeholders = names(src, G_PLACEHOLDERS, "placeholders", placeholderNames(tag));
      loss = names(src, G_LOSS_VARIABLES, "lossVariables", List.of());
      FbVector si = src == null ? null : src.getVector(G_SUB_INSTANCES, "subInstances", 4);
      if (!legacy && si != null && tag.graph().convention() == Convention.SDNB) {
        subInstances = copy.tableVector(si, FbCopy.SUB_INSTANCE, null);
      }
    }
    int training = tag.trainingConfig() == null || mode == Mode.SHARD_WEIGHTS ? 0 : b.createString(tag.trainingConfig());
    int updater = mode == Mode.SHARD_GRAPH ? 0 : updater(tag, names);
    int metaKeys = 0;
    int metaValues = 0;
    if (!legacy && !metadata.isEmpty()) {
      List<String> keys = new ArrayList<>(metadata.keySet());
      keys.sort(Comparator.naturalOrder());
      int[] k = new int[keys.size()];
      int[] v = new int[keys.size()];
      for (int i = 0; i < k.length; i++) {
        k[i] = b.createString(keys.get(i));
        String val = metadata.get(keys.get(i));
        v[i] = b.createString(val == null ? "" : val);
      }
      metaKeys = FlatGraph.createMetadataKeysVector(b, k);
      metaValues = FlatGraph.createMetadataValuesVector(b, v);
    }
    int root = FlatGraph.createFlatGraph(b, 0, variables, nodes, outputs, configuration, placeholders,
        loss, training, updater, metaKeys, metaValues, subInstances);
    b.finish(root);
    byte[] bytes = b.sizedByteArray();
    long tailEnd = 0;
    if (!tail.isEmpty()) {
      TailArray last = tail.get(tail.size() - 1);
      tailEnd = last.dataOffset() + last.array().length();
    }
    if (bytes.length + tailEnd > MAX_FLATBUFFER) {
      throw new ModelFormatException(file, "FlatGraph", 0,
          "the graph with its inline arrays would take " + (bytes.length + tailEnd)
              + " bytes; a FlatBuffer must stay under 2 GiB");
    }
    return new Built(bytes, List.copyOf(tail), tailEnd, List.copyOf(blobs), blobCursor);
  }

  /**
   * How op arguments (node {@code scalar}, property {@code a}) are written: copied as they are
   * when the source graph uses this writer's FlatArray convention and holds them inline, else
   * decoded and written inline in this writer's convention (chunked or appended ones always:
   * we never write chunks, and an appended range would point into the old file — docs/FORMATS.md
   * §10).
   */
  private FbCopy.ArrayRewrite reencode(Convention from) {
    boolean same = (from == Convention.LEGACY) == legacy;
    return arr -> {
      if (same && !arr.has(Slots.A_BUFFER_CHUNKS)
          && (from != Convention.LEGACY || arr.getLong(Slots.A_APPENDED_OFFSET, 0) == 0)) {
        return FbCopy.ArrayRewrite.COPY;
      }
      ArrayData a = ArrayDecoder.inline(arr, from, decode);
      if (a == null) {
        throw arr.buffer().error(arr.position(), arr.what(), "op argument array has no inline data");
      }
      return legacy ? legacyArray(a) : sdnbArray("op argument", a, false);
    };
  }

  private FbTable source(GraphRef g) throws ModelFormatException {
    return new FbBuffer(g.source(), g.offset(), g.length(), file).root("FlatGraph");
  }

  private int maxId(Tag tag, FbTable src) throws ModelFormatException {
    int max = 0;
    if (src == null) {
      return max;
    }
    FbVector n = src.getVector(G_NODES, "nodes", 4);
    for (int i = 0; n != null && i < n.length(); i++) {
      max = Math.max(max, n.getTable(i).getInt(0, 0));
    }
    for (Variable v : tag.variables()) {
      if (v.graphVariable() >= 0) {
        FbTable id = src.buffer().table(v.graphVariable(), "FlatVariable").getTable(V_ID, "id");
        if (id != null) {
          max = Math.max(max, id.getInt(P_FIRST, 0));
        }
      }
    }
    return max;
  }

  private int variable(Variable v, FbTable src, int shardId, int freshId) throws ModelFormatException {
    FbTable orig = v.graphVariable() >= 0 && src != null ? src.buffer().table(v.graphVariable(), "FlatVariable") : null;
    int name = b.createString(v.name());
    int id;
    if (shardId > 0) {
      id = IntPair.createIntPair(b, shardId, 0);
    } else if (orig != null && orig.has(V_ID)) {
      id = copy.table(orig.getTable(V_ID, "id"), FbCopy.INT_PAIR);
    } else {
      id = IntPair.createIntPair(b, freshId, 0);
    }
    long[] shape = v.effectiveShape();
    int shapeOff = 0;
    if (legacy) {
      if (v.kind() == VarKind.PLACEHOLDER && v.shape() != null) {
        shapeOff = FlatVariable.createShapeVector(b, v.shape());
      }
    } else if (shape != null) {
      shapeOff = FlatVariable.createShapeVector(b, shape);
    }
    int nd = 0;
    ArrayData a = v.array();
    if (a != null && mode != Mode.SHARD_GRAPH && v.kind() != VarKind.ARRAY) {
      nd = legacy ? legacyArray(a) : sdnbArray(v.name(), a, v.kind().holdsArray());
    }
    int[] deps = new int[3];
    for (int d = 0; d < 3; d++) {
      FbVector dv = orig == null ? null : orig.getVector(V_CONTROL_DEPS + d, "controlDeps", 4);
      // controlDepsForVar names variables; the other two name ops
      deps[d] = dv == null ? 0 : copy.stringVector(dv, V_CONTROL_DEPS + d == V_CONTROL_DEPS_FOR_VAR);
    }
    int device = orig == null ? -1 : orig.getInt(V_DEVICE, -1);
    byte dtype = (byte) (v.dtype() == null ? (a == null ? 0 : a.dtype().code()) : v.dtype().code());
    return FlatVariable.createFlatVariable(b, id, name, dtype, shapeOff, nd, device,
        (byte) v.kind().code(), deps[0], deps[1], deps[2]);
  }

  /** Reserves tail space for {@code a}; returns the builder-relative offset for the vector. */
  private int tailVector(ArrayData a) {
    long data = tailCursor;
    tail.add(new TailArray(a, data));
    tailCursor = align(data + a.length() + 4, 8);
    // The vector's length prefix sits 4 bytes before its data; builder offsets count from the
    // end of the builder's bytes, so a position past the end is a negative offset.
    return (int) -(data - 4);
  }

  private int legacyArray(ArrayData a) throws ModelFormatException {
    int shape = FlatArray.createShapeVector(b, legacyShapeInfo(a.shape(), a.dtype(), a.order(), a.empty(), file));
    int buffer = a.empty() ? 0 : tailVector(a);
    FlatArray.startFlatArray(b);
    FlatArray.addShape(b, shape);
    if (buffer != 0) {
      FlatArray.addBuffer(b, buffer);
    }
    FlatArray.addDtype(b, (byte) a.dtype().code());
    FlatArray.addByteOrder(b, (byte) 1);
    return FlatArray.endFlatArray(b);
  }

  /**
   * The legacy (format A) {@code FlatArray.shape} of an array: the full shapeInfo — rank,
   * dimensions, strides, extras (the data type's bits, 8 when empty), element-wise stride, order
   * (docs/FORMATS.md §3.3).
   *
   * @throws ModelFormatException if the legacy format cannot hold {@code dtype}
   */
  static long[] legacyShapeInfo(long[] dims, DType dtype, char order, boolean empty, String file)
      throws ModelFormatException {
    int r = dims.length;
    long[] si = new long[2 * r + 4];
    si[0] = r;
    long[] strides = empty ? new long[r] : Shapes.strides(dims, order);
    for (int i = 0; i < r; i++) {
      si[1 + i] = dims[i];
      si[1 + r + i] = strides[i];
    }
    if (dtype.legacyExtras() == 0) {
      throw new ModelFormatException(file, "FlatArray", 0,
          "data type " + dtype + " cannot be stored in the legacy fb format");
    }
    si[2 * r + 1] = dtype.legacyExtras() | (empty ? 8 : 0);
    si[2 * r + 2] = empty && r > 0 ? 0 : 1;
    si[2 * r + 3] = order == 'f' ? 102 : 99;
    return si;
  }

  private int sdnbArray(String name, ArrayData a, boolean appendable) {
    int shape = FlatArray.createShapeVector(b, a.shape());
    boolean append = appendable && !a.empty() && a.dtype() != DType.UTF8 && a.length() >= APPEND_THRESHOLD;
    int buffer = 0;
    long blobOffset = 0;
    if (append) {
      blobOffset = align(blobCursor, BLOB_ALIGN);
      blobs.add(new Blob(name, a, blobOffset));
      blobCursor = blobOffset + a.length();
    } else if (!a.empty()) {
      buffer = tailVector(a);
    }
    FlatArray.startFlatArray(b);
    FlatArray.addShape(b, shape);
    if (buffer != 0) {
      FlatArray.addBuffer(b, buffer);
    }
    FlatArray.addDtype(b, (byte) a.dtype().code());
    FlatArray.addByteOrder(b, (byte) (a.order() == 'f' ? 1 : 0));
    if (append) {
      FlatArray.addTotalBufferSize(b, a.length());
      FlatArray.addAppendedDataOffset(b, blobOffset);
      FlatArray.addAppendedDataLength(b, a.length());
    }
    return FlatArray.endFlatArray(b);
  }

  private int updater(Tag tag, Set<String> names) throws ModelFormatException {
    List<UpdaterState> states = new ArrayList<>();
    for (UpdaterState u : tag.updater()) {
      if (mode != Mode.SHARD_WEIGHTS || names.contains(u.paramName())) {
        states.add(u);
      }
    }
    if (states.isEmpty()) {
      return 0;
    }
    if (!legacy) {
      states.sort(Comparator.comparing(UpdaterState::paramName));
    }
    int[] offs = new int[states.size()];
    for (int i = 0; i < offs.length; i++) {
      UpdaterState u = states.get(i);
      List<String> keys = new ArrayList<>(u.arrays().keySet());
      if (!legacy) {
        keys.sort(Comparator.naturalOrder());
      }
      int[] k = new int[keys.size()];
      int[] v = new int[keys.size()];
      for (int j = 0; j < k.length; j++) {
        k[j] = b.createString(keys.get(j));
        ArrayData a = u.arrays().get(keys.get(j));
        v[j] = legacy ? legacyArray(a) : sdnbArray(null, a, false);
      }
      int param = b.createString(u.paramName());
      int kv = org.modelfs.format.fb.gen.UpdaterState.createUpdaterStateKeysVector(b, k);
      int vv = org.modelfs.format.fb.gen.UpdaterState.createUpdaterStateValuesVector(b, v);
      offs[i] = org.modelfs.format.fb.gen.UpdaterState.createUpdaterState(b, param, kv, vv);
    }
    return FlatGraph.createUpdaterStateVector(b, offs);
  }

  private int defaultConfiguration() {
    // M2.1: id -1, outputMode VARIABLE_SPACE, timestats true; SDNB: VARIABLE_SPACE, SEQUENTIAL.
    return FlatConfiguration.createFlatConfiguration(b, legacy ? -1 : 0, (byte) 0, (byte) 0, (byte) 3,
        legacy, 0, 0, (byte) 0);
  }

  private static List<String> placeholderNames(Tag tag) {
    List<String> out = new ArrayList<>();
    for (Variable v : tag.variables()) {
      if (v.kind() == VarKind.PLACEHOLDER) {
        out.add(v.name());
      }
    }
    return out;
  }

  /** A string vector copied from the source graph, or built from {@code fallback}. */
  private int names(FbTable src, int slot, String what, List<String> fallback) throws ModelFormatException {
    FbVector v = src == null ? null : src.getVector(slot, what, 4);
    if (v != null) {
      return copy.stringVector(v, true);
    }
    if (fallback.isEmpty() && !legacy) {
      return 0; // SDNB leaves empty name lists absent
    }
    int[] offs = new int[fallback.size()];
    for (int i = 0; i < offs.length; i++) {
      offs[i] = b.createString(fallback.get(i));
    }
    return FlatGraph.createPlaceholdersVector(b, offs);
  }

  static long align(long x, int a) {
    return (x + a - 1) / a * a;
  }
}
