package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.*;

import java.util.HashMap;
import java.util.Map;
import org.modelfs.format.ModelFormatException;
import org.modelfs.model.DType;
import org.modelfs.model.GraphRef;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * Renders a tag's graph as read-only JSON (docs/FILESYSTEM.md §3): variables, ops with every argument,
 * placeholders, loss variables, outputs and configuration, from the FlatGraph structure alone.
 */
public final class GraphJson {
  /** How a vector field is shown. */
  enum Kind { DOUBLES, LONGS, INTS, BOOLS, DTYPES, STRINGS, VAR_NAMES }

  /** A vector field of a table: its slot (docs/FORMATS.md §3), JSON key and element kind. */
  record Field(int slot, String key, Kind kind) {
    int width() {
      return switch (kind) {
        case DOUBLES, LONGS -> 8;
        case INTS, STRINGS, VAR_NAMES -> 4;
        case BOOLS, DTYPES -> 1;
      };
    }
  }

  static final Field[] VARIABLE_DEPS = {
    new Field(V_CONTROL_DEPS, "controlDeps", Kind.STRINGS),
    new Field(V_CONTROL_DEP_FOR_OP, "controlDepForOp", Kind.STRINGS),
    new Field(V_CONTROL_DEPS_FOR_VAR, "controlDepsForVar", Kind.VAR_NAMES)};
  static final Field OUTPUT_TYPES = new Field(17, "outputTypes", Kind.DTYPES);
  static final Field DIMENSIONS = new Field(11, "dimensions", Kind.INTS);
  /** {@code FlatNode.input} and {@code .output}: int vectors of the oldest layout, which DL4J M2.1 writes empty. */
  static final Field[] NODE_IDS = {new Field(5, "inputIds", Kind.INTS), new Field(7, "outputIds", Kind.INTS)};
  static final Field[] NODE_DEPS = {
    new Field(19, "controlDeps", Kind.STRINGS), new Field(GraphNames.N_VAR_CONTROL_DEPS, "varControlDeps", Kind.VAR_NAMES),
    new Field(21, "controlDepFor", Kind.STRINGS)};
  static final Field[] PROPERTY_VALUES = {
    new Field(1, "i", Kind.INTS), new Field(2, "l", Kind.LONGS), new Field(3, "d", Kind.DOUBLES),
    new Field(5, "b", Kind.BOOLS), new Field(6, "s", Kind.STRINGS), new Field(7, "shape", Kind.INTS)};

  // Enums (docs/FORMATS.md §3.6), indexed by their byte value.
  static final Map<Integer, String> OP_TYPES = opTypes();
  static final String[] EXECUTION_MODES = {"SEQUENTIAL", "STRICT", "AUTO"};
  static final String[] PROFILING_MODES = {"NONE", "NAN_PANIC", "INF_PANIC", "ANY_PANIC"};
  static final String[] OUTPUT_MODES =
      {"IMPLICIT", "EXPLICIT", "EXPLICIT_AND_IMPLICIT", "VARIABLE_SPACE", "OPTIMIZED"};
  static final String[] DIRECTIONS = {"FORWARD_ONLY", "FORWARD_AND_BACKWARD", "BACKWARD_ONLY"};

  /**
   * Output may take this many characters per byte of the FlatGraph, plus a fixed allowance, and
   * never more than {@link #MAX_CHARS}: structures shared many times cannot exhaust the heap
   * (docs/FORMATS.md §12: real graphs render to about 2 characters per byte, the densest honest
   * fields — booleans, data types, long names of inputs — to about 10).
   */
  static final long EXPANSION = 16;
  static final long ALLOWANCE = 1 << 20;
  /** 32 Mi characters: the document, its growth and its UTF-8 copy stay within about 128 MiB of heap. */
  static final long MAX_CHARS = 1L << 25;

  private final JsonOut out;
  private final Convention convention;
  /** Variable name by its FlatVariable id (node id in the high half, output index in the low). */
  private final Map<Long, String> byId = new HashMap<>();
  /** Variables renamed since the graph was read: stored name → shown name. */
  private Map<String, String> renames = Map.of();
  /** What decoding the op arrays may cost (their chunk indexes); null without a graph. */
  private Budget budget;

  private GraphJson(JsonOut out, Convention convention) {
    this.out = out;
    this.convention = convention;
  }

  /**
   * Renders the tag's graph as pretty-printed UTF-8 JSON. Reads only the FlatGraph structure,
   * never array data.
   *
   * @param tag the tag whose graph to render ({@code tag.graph()} null: variables only)
   * @param file the file name for error messages
   * @throws ModelFormatException if the FlatGraph is malformed
   */
  public static byte[] render(Tag tag, String file) throws ModelFormatException {
    GraphRef g = tag.graph();
    FbTable root = g == null ? null : new FbBuffer(g.source(), g.offset(), g.length(), file).root("FlatGraph");
    long limit = g == null ? MAX_CHARS : Math.min(MAX_CHARS, ALLOWANCE + EXPANSION * g.length());
    JsonOut out = new JsonOut(limit, file, g == null ? 0 : g.offset());
    GraphJson r = new GraphJson(out, g == null ? null : g.convention());
    r.budget = root == null ? null : Budget.read(root.buffer());
    r.graph(tag, root);
    return out.toBytes();
  }

  private void graph(Tag tag, FbTable root) throws ModelFormatException {
    renames = GraphNames.renames(tag, root);
    out.beginObject();
    out.key("variables").beginArray(false);
    for (Variable v : tag.variables()) {
      variable(v, root);
    }
    out.endArray();
    out.key("ops").beginArray(false);
    FbVector nodes = root == null ? null : root.getVector(G_NODES, "nodes", 4);
    for (int i = 0; nodes != null && i < nodes.length(); i++) {
      op(nodes.getTable(i));
    }
    out.endArray();
    FbVector placeholders = root == null ? null : root.getVector(G_PLACEHOLDERS, "placeholders", 4);
    if (placeholders != null) {
      names("placeholders", placeholders);
    } else {
      out.key("placeholders").beginArray(false); // none recorded: the PLACEHOLDER variables
      for (Variable v : tag.variables()) {
        if (v.kind() == VarKind.PLACEHOLDER) {
          out.value(v.name());
        }
      }
      out.endArray();
    }
    names("lossVariables", root == null ? null : root.getVector(G_LOSS_VARIABLES, "lossVariables", 4));
    out.key("outputs");
    pairs(root == null ? null : root.getVector(G_OUTPUTS, "outputs", 4), false);
    FbTable conf = root == null ? null : root.getTable(G_CONFIGURATION, "configuration");
    if (conf != null) {
      configuration(conf);
    }
    out.endObject();
  }

  private void variable(Variable v, FbTable root) throws ModelFormatException {
    out.beginObject();
    out.key("name").value(v.name());
    out.key("kind").value(v.kind().name());
    out.key("dtype").value(v.dtype() == null ? null : v.dtype().nd4jName());
    out.key("shape");
    shape(v.effectiveShape());
    FbTable fv = root == null || v.graphVariable() < 0 ? null : root.buffer().table(v.graphVariable(), "FlatVariable");
    if (fv != null) {
      FbTable id = fv.getTable(V_ID, "id");
      if (id != null) {
        int node = id.getInt(P_FIRST, 0);
        int index = id.getInt(P_SECOND, 0);
        byId.putIfAbsent(key(node, index), v.name());
        out.key("id").beginArray(true).value(node).value(index).endArray();
      }
      if (fv.has(V_DEVICE)) {
        out.key("device").value(fv.getInt(V_DEVICE, 0));
      }
      fields(fv, VARIABLE_DEPS);
    }
    out.endObject();
  }

  /** A FlatNode (slots per docs/FORMATS.md §3.4): identity, wiring, then every argument it carries. */
  private void op(FbTable n) throws ModelFormatException {
    out.beginObject();
    out.key("name").value(n.getString(1, "name"));
    out.key("opName").value(n.getString(16, "opName"));
    int type = n.getByte(2, (byte) 0) & 0xff;
    out.key("opType");
    enumValue(OP_TYPES.get(type), type);
    out.key("opNum").value(n.getLong(3, 0));
    out.key("id").value(n.getInt(0, 0));
    out.key("inputs");
    pairs(n.getVector(6, "inputPaired", 4), true);
    out.key("outputs").beginArray(true);
    FbVector names = n.getVector(15, "outputNames", 4);
    for (int i = 0; names != null && i < names.length(); i++) {
      out.value(names.getString(i));
    }
    out.endArray();
    fields(n, new Field[] {OUTPUT_TYPES});
    OpArgs.render(out, n, OpArgs.naming(type, n.getString(16, "opName")));
    fields(n, new Field[] {DIMENSIONS});
    FbVector props = n.getVector(4, "properties", 4);
    if (props != null) {
      out.key("properties").beginArray(false);
      for (int i = 0; i < props.length(); i++) {
        property(props.getTable(i));
      }
      out.endArray();
    }
    FbTable scalar = n.getTable(18, "scalar");
    if (scalar != null) {
      out.key("scalar");
      array(scalar);
    }
    fields(n, NODE_DEPS);
    if (n.has(13)) {
      out.key("scopeId").value(n.getInt(13, 0));
    }
    if (n.has(14)) {
      out.key("scopeName").value(n.getString(14, "scope_name"));
    }
    if (n.has(12)) {
      out.key("device").value(n.getInt(12, 0));
    }
    fields(n, NODE_IDS);
    out.endObject();
  }

  /** A FlatProperties table (slots per docs/FORMATS.md §3.5). */
  private void property(FbTable p) throws ModelFormatException {
    out.beginObject();
    out.key("name").value(p.getString(0, "name"));
    fields(p, PROPERTY_VALUES);
    FbVector arrays = p.getVector(4, "a", 4);
    if (arrays != null) {
      out.key("a").beginArray(false);
      for (int i = 0; i < arrays.length(); i++) {
        array(arrays.getTable(i));
      }
      out.endArray();
    }
    out.endObject();
  }

  /** An op's array argument with its values (docs/GRAPH.md §2.4). */
  private void array(FbTable a) throws ModelFormatException {
    OpArrays.render(out, a, convention, budget);
  }

  private void shape(long[] shape) throws ModelFormatException {
    if (shape == null) {
      out.value((String) null);
      return;
    }
    out.beginArray(true);
    for (long d : shape) {
      out.value(d);
    }
    out.endArray();
  }

  /** The FlatConfiguration (slots per docs/FORMATS.md §3.5), every field with its default when absent. */
  private void configuration(FbTable c) throws ModelFormatException {
    out.key("configuration").beginObject();
    if (c.has(0)) {
      out.key("id").value(c.getLong(0, 0));
    }
    out.key("executionMode");
    named(EXECUTION_MODES, c.getByte(1, (byte) 0));
    out.key("profilingMode");
    named(PROFILING_MODES, c.getByte(2, (byte) 0));
    out.key("outputMode");
    named(OUTPUT_MODES, c.getByte(3, (byte) 0));
    out.key("timestats").value(c.getBool(4, false));
    out.key("footprintForward").value(c.getLong(5, 0));
    out.key("footprintBackward").value(c.getLong(6, 0));
    out.key("direction");
    named(DIRECTIONS, c.getByte(7, (byte) 0));
    out.endObject();
  }

  /** IntPairs resolved to variable names ({@code #node:index} when no variable has that id). */
  private void pairs(FbVector v, boolean inlined) throws ModelFormatException {
    out.beginArray(inlined);
    for (int i = 0; v != null && i < v.length(); i++) {
      FbTable p = v.getTable(i);
      int node = p.getInt(P_FIRST, 0);
      int index = p.getInt(P_SECOND, 0);
      String name = byId.get(key(node, index));
      out.value(name != null ? name : "#" + node + ":" + index);
    }
    out.endArray();
  }

  /** A top-level list of names; absent = empty. */
  private void names(String key, FbVector v) throws ModelFormatException {
    out.key(key).beginArray(false);
    for (int i = 0; v != null && i < v.length(); i++) {
      out.value(renames.getOrDefault(v.getString(i), v.getString(i)));
    }
    out.endArray();
  }

  /** Each present vector field of {@code t} under its key, on one line. */
  private void fields(FbTable t, Field[] fields) throws ModelFormatException {
    for (Field f : fields) {
      FbVector v = t.getVector(f.slot(), f.key(), f.width());
      if (v == null) {
        continue;
      }
      out.key(f.key()).beginArray(true);
      for (int i = 0; i < v.length(); i++) {
        switch (f.kind()) {
          case DOUBLES -> out.value(v.getDouble(i));
          case LONGS -> out.value(v.getLong(i));
          case INTS -> out.value(v.getInt(i));
          case BOOLS -> out.value(v.getByte(i) != 0);
          case STRINGS -> out.value(v.getString(i));
          case VAR_NAMES -> out.value(renames.getOrDefault(v.getString(i), v.getString(i)));
          case DTYPES -> {
            int code = v.getByte(i) & 0xff;
            DType d = DType.fromCode(code);
            enumValue(d == null ? null : d.nd4jName(), code);
          }
        }
      }
      out.endArray();
    }
  }

  private void named(String[] names, byte code) throws ModelFormatException {
    int c = code & 0xff;
    enumValue(c < names.length ? names[c] : null, c);
  }

  /** An enum constant's name, or its number when unknown. */
  private void enumValue(String name, int code) throws ModelFormatException {
    if (name != null) {
      out.value(name);
    } else {
      out.value(code);
    }
  }

  private static long key(int node, int index) {
    return (long) node << 32 | (index & 0xffffffffL);
  }

  private static Map<Integer, String> opTypes() {
    String[] low = {"TRANSFORM_FLOAT", "TRANSFORM_SAME", "TRANSFORM_BOOL", "TRANSFORM_STRICT",
        "TRANSFORM_ANY", "REDUCE_FLOAT", "REDUCE_SAME", "REDUCE_LONG", "REDUCE_BOOL", "INDEX_REDUCE",
        "SCALAR", "SCALAR_BOOL", "BROADCAST", "BROADCAST_BOOL", "PAIRWISE", "PAIRWISE_BOOL",
        "REDUCE_3", "SUMMARYSTATS", "SHAPE", "AGGREGATION", "RANDOM", "CUSTOM", "GRAPH"};
    Map<Integer, String> m = new HashMap<>();
    for (int i = 0; i < low.length; i++) {
      m.put(i, low[i]);
    }
    m.put(40, "VARIABLE");
    m.put(60, "BOOLEAN");
    m.put(119, "LOGIC");
    m.put(120, "UDF");
    return Map.copyOf(m);
  }
}
