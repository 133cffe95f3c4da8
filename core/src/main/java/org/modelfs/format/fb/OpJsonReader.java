package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.A_APPENDED_OFFSET;
import static org.modelfs.format.fb.Slots.A_BUFFER_CHUNKS;
import static org.modelfs.format.fb.Slots.G_NODES;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.GraphJsonReader.Var;
import org.modelfs.format.fb.OpDescriptors.Op;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.format.fb.gen.FlatNode;
import org.modelfs.format.fb.gen.FlatProperties;
import org.modelfs.format.fb.gen.IntPair;
import org.modelfs.model.GraphRef.Convention;

/**
 * The {@code ops} of a written graph.json (docs/GRAPH.md §2.3, §3): checks each op — its name
 * (unique), id (unique), {@code opName} (one DL4J knows, for a custom op), inputs and outputs
 * (variables of the JSON), arguments (by the op's descriptor: names, types, positions, counts),
 * array arguments, properties and dependencies — and builds its FlatNode. An op shown exactly as
 * the tag's graph renders the op of its id, its inputs still the same variables, is copied from
 * the stored graph as it is.
 */
final class OpJsonReader {
  static final Set<String> OP_KEYS = keys("name", "opName", "opType", "opNum", "id", "inputs", "outputs",
      "outputTypes", "iArgs", "tArgs", "bArgs", "dArgs", "sArgs", "dimensions", "properties", "scalar",
      "controlDeps", "varControlDeps", "controlDepFor", "scopeId", "scopeName", "device", "inputIds", "outputIds");
  static final Set<String> PROPERTY_KEYS = keys("name", "i", "l", "d", "b", "s", "shape", "a");

  private final GraphJsonReader g;
  private final JsonFields f;
  private final FlatBufferBuilder b;
  private final Map<String, Var> vars;
  /** Each op's object (null where the JSON has no object), its id and name. */
  private final List<Map<String, Object>> ops = new ArrayList<>();
  private final int[] ids;
  private final Set<String> names = new HashSet<>();
  private final Map<Long, Map<String, Object>> shownById = new HashMap<>();
  private final Map<Long, FbTable> storedById = new HashMap<>();
  /** For each variable some op outputs, the first such op and the output's position: {@code {op index, k}}. */
  private final Map<String, int[]> producers = new HashMap<>();

  @SuppressWarnings("unchecked")
  OpJsonReader(GraphJsonReader g, Map<String, Var> vars, List<Object> list) throws ModelFormatException {
    this.g = g;
    this.f = g.fields();
    this.b = g.builder();
    this.vars = vars;
    for (Object o : GraphJsonReader.listOf(g.shown().get("ops"))) {
      Map<String, Object> m = (Map<String, Object>) o;
      shownById.putIfAbsent((Long) m.get("id"), m);
    }
    FbVector stored = g.root() == null ? null : g.root().getVector(G_NODES, "nodes", 4);
    for (int i = 0; stored != null && i < stored.length(); i++) {
      FbTable n = stored.getTable(i);
      storedById.putIfAbsent((long) n.getInt(0, 0), n);
    }
    IdPool pool = g.ids();
    for (Var v : vars.values()) {
      if (v.id() != null) {
        pool.use(v.id()[0]);
      }
    }
    for (long id : shownById.keySet()) {
      pool.use((int) id);
    }
    ids = new int[list.size()];
    boolean[] given = new boolean[list.size()];
    Map<String, Integer> named = new HashMap<>();
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> m = f.object(list.get(i), "ops[" + i + "]");
      ops.add(m);
      if (m == null) {
        continue;
      }
      String where = label(m, i);
      if (m.get("name") instanceof String s && !names.add(s)) {
        f.problem(where, "ops[" + named.get(s) + "] and ops[" + i + "] are both named '" + GraphJsonReader.cut(s)
            + "' (DL4J keeps one op per name)");
      }
      if (m.get("name") instanceof String s) {
        named.putIfAbsent(s, i);
      }
      if (m.containsKey("id")) {
        Long id = f.integer(m.get("id"), Integer.MIN_VALUE, Integer.MAX_VALUE, where + ", id");
        if (id != null) {
          ids[i] = id.intValue();
          given[i] = true;
          pool.use(ids[i]);
          if (!seen.add(ids[i])) {
            f.problem(where + ", id", ids[i] + " is the id of another op too");
          }
        }
      }
    }
    for (int i = 0; i < ids.length; i++) {
      if (!given[i] && ops.get(i) != null) {
        ids[i] = pool.take();
      }
    }
    for (int i = 0; i < ops.size(); i++) {
      if (ops.get(i) != null && ops.get(i).get("outputs") instanceof List<?> outs) {
        for (int k = 0; k < outs.size(); k++) {
          if (outs.get(k) instanceof String name) {
            producers.putIfAbsent(name, new int[] {i, k});
          }
        }
      }
    }
  }

  /** {@code [op id, k]} when {@code var} is the k-th output of an op, else null. */
  int[] producer(String var) {
    int[] p = producers.get(var);
    return p == null ? null : new int[] {ids[p[0]], p[1]};
  }

  boolean hasOp(String name) {
    return names.contains(name);
  }

  /** Checks and builds every op; returns the nodes vector. */
  int build() throws ModelFormatException {
    int[] offs = new int[ops.size()];
    for (int i = 0; i < offs.length; i++) {
      if (ops.get(i) != null) {
        offs[i] = op(ops.get(i), i);
      }
    }
    return FlatGraph.createNodesVector(b, offs);
  }

  private static String label(Map<String, Object> m, int i) {
    Object name = m.get("name");
    Object opName = m.get("opName");
    return (name instanceof String s ? GraphJsonReader.label("op", s) : "op #" + i)
        + (opName instanceof String s ? " (" + GraphJsonReader.cut(s) + ")" : "");
  }

  private int op(Map<String, Object> m, int i) throws ModelFormatException {
    String where = label(m, i);
    f.onlyKeys(m, OP_KEYS, where);
    Map<String, Object> shown = shownById.get((long) ids[i]);
    FbTable stored = storedById.get((long) ids[i]);
    boolean whole = g.root() == null;
    wiring(m, where, i); // also for an op copied as stored: what it names may have gone
    if (shown != null && stored != null && shown.equals(m) && unchangedWiring(m)) {
      return g.copy().table(stored, FbCopy.FLAT_NODE, this::rewrite);
    }
    String name = m.get("name") == null ? null : f.string(m.get("name"), where + ", name");
    String opName = m.get("opName") == null ? null : f.string(m.get("opName"), where + ", opName");
    int opType = opType(m.get("opType"), where);
    long opNum = m.containsKey("opNum") ? orZero(f.integer(m.get("opNum"), Long.MIN_VALUE, Long.MAX_VALUE,
        where + ", opNum")) : 0;
    Optional<Op> desc = OpArgs.naming(opType, opName);
    boolean sameOp = shown != null && opName != null && opName.equals(shown.get("opName"));
    // A tag without a graph is being given one whole (a copied tag): the descriptors do not know
    // every op DL4J has (mmul), nor every value it writes past them (GRAPH.md §1.6), so only
    // what a graph.json changes in an existing graph is held to them.
    if (opType == OpArgs.CUSTOM && opName != null && desc.isEmpty() && !sameOp && !whole) {
      f.problem(where + ", opName", JsonFields.show(opName) + " is no op of DL4J 1.0.0-M2.1 (its " + OpDescriptors.size()
          + " op descriptors; names are case-sensitive)");
    }
    if (sameOp && desc.isPresent() && m.get("properties") instanceof List<?>) {
      m = PropertyEcho.follow(m, shown, desc.get(), where, f);
    }
    // a name shared with a variable that is not this op's output: Dl4jGraphRules, on the graph built
    List<Object> shownInputs = shown == null ? List.of() : GraphJsonReader.listOf(shown.get("inputs"));

    int nameOff = name == null ? 0 : b.createString(name);
    int opNameOff = opName == null ? 0 : b.createString(opName);
    int props = m.containsKey("properties") ? properties(m.get("properties"), where) : 0;
    int inputIds = ints(m, "inputIds", where);
    int outputIds = ints(m, "outputIds", where);
    int inputs = 0;
    if (m.containsKey("inputs")) {
      List<String> in = g.strings(m.get("inputs"), where + ", inputs");
      int[] pairs = new int[in == null ? 0 : in.size()];
      for (int k = 0; in != null && k < in.size(); k++) {
        int[] id = g.idOf(in.get(k), vars, shownInputs, where + ", inputs[" + k + "]");
        pairs[k] = id == null ? 0 : IntPair.createIntPair(b, id[0], id[1]);
      }
      inputs = FlatNode.createInputPairedVector(b, pairs);
    }
    int[] args = new int[OpArgs.Field.values().length];
    for (OpArgs.Field field : OpArgs.Field.values()) {
      if (m.containsKey(field.key())) {
        int beyond = whole ? Integer.MAX_VALUE / 2 : sameOp
            ? Math.max(0, count(shown.get(field.key())) - desc.map(o -> o.args(field.type).size()).orElse(0)) : 0;
        List<Object> values = OpArgs.parse(field, m.get(field.key()), desc, beyond, shownValues(shown, field), where, f);
        args[field.ordinal()] = values == null ? 0 : OpArgs.build(b, field, values);
      }
    }
    int dims = ints(m, "dimensions", where);
    int scopeName = m.containsKey("scopeName") ? string(m.get("scopeName"), where + ", scopeName") : 0;
    int outputs = 0;
    if (m.containsKey("outputs")) {
      List<String> out = g.strings(m.get("outputs"), where + ", outputs");
      outputs = out == null ? 0 : g.stringVector(out);
    }
    int outputTypes = 0;
    if (m.containsKey("outputTypes")) {
      List<Object> l = f.array(m.get("outputTypes"), where + ", outputTypes");
      byte[] codes = new byte[l == null ? 0 : l.size()];
      for (int k = 0; k < codes.length; k++) {
        Integer c = f.dtypeCode(l.get(k), where + ", outputTypes[" + k + "]",
            shown == null ? List.of() : GraphJsonReader.listOf(shown.get("outputTypes")));
        codes[k] = c == null ? 0 : (byte) (int) c;
      }
      outputTypes = FlatNode.createOutputTypesVector(b, codes);
    }
    int scalar = m.containsKey("scalar") ? array(m.get("scalar"), where + ", scalar") : 0;
    int controlDeps = deps(m, "controlDeps", where);
    int varControlDeps = deps(m, "varControlDeps", where);
    int controlDepFor = deps(m, "controlDepFor", where);

    FlatNode.startFlatNode(b);
    FlatNode.addId(b, ids[i]);
    if (nameOff != 0) {
      FlatNode.addName(b, nameOff);
    }
    FlatNode.addOpType(b, (byte) opType);
    FlatNode.addOpNum(b, opNum);
    add(4, props);
    add(5, inputIds);
    add(6, inputs);
    add(7, outputIds);
    for (OpArgs.Field field : OpArgs.Field.values()) {
      add(field.slot(), args[field.ordinal()]);
    }
    add(11, dims);
    forced(m, "device", 12, where);
    forced(m, "scopeId", 13, where);
    add(14, scopeName);
    add(15, outputs);
    add(16, opNameOff);
    add(17, outputTypes);
    add(18, scalar);
    add(19, controlDeps);
    add(20, varControlDeps);
    add(21, controlDepFor);
    return FlatNode.endFlatNode(b);
  }

  /** Whether the op's inputs and variable dependencies name the variables of the same ids as in the tag's graph. */
  private boolean unchangedWiring(Map<String, Object> m) {
    List<String> wired = new ArrayList<>();
    for (String key : List.of("inputs", "varControlDeps")) {
      for (Object o : GraphJsonReader.listOf(m.get(key))) {
        if (o instanceof String s) {
          wired.add(s);
        }
      }
    }
    return g.sameIds(wired, vars);
  }

  /** Op arrays of a copied op: as they are when inline, else (chunked, or appended to a legacy file) written inline. */
  private int rewrite(FbTable arr) throws ModelFormatException {
    Convention conv = g.convention();
    if (!arr.has(A_BUFFER_CHUNKS) && (conv != Convention.LEGACY || arr.getLong(A_APPENDED_OFFSET, 0) == 0)) {
      return FbCopy.ArrayRewrite.COPY;
    }
    return OpArrays.build(b, OpArrays.values(arr, conv, g.decodeBudget()), conv, g.file());
  }

  private int opType(Object v, String where) {
    if (v == null) {
      return 0;
    }
    if (v instanceof String s) {
      for (Map.Entry<Integer, String> e : GraphJson.OP_TYPES.entrySet()) {
        if (e.getValue().equals(s)) {
          return e.getKey();
        }
      }
      f.problem(where + ", opType", JsonFields.show(s) + " is no op type; expected one of "
          + String.join(", ", new TreeSet<>(GraphJson.OP_TYPES.values())));
      return 0;
    }
    return (int) orZero(f.integer(v, 0, 255, where + ", opType"));
  }

  private int properties(Object json, String where) throws ModelFormatException {
    List<Object> l = f.array(json, where + ", properties");
    if (l == null) {
      return 0;
    }
    int[] offs = new int[l.size()];
    for (int k = 0; k < offs.length; k++) {
      String at = where + ", properties[" + k + "]";
      Map<String, Object> p = f.object(l.get(k), at);
      if (p == null) {
        continue;
      }
      if (p.get("name") instanceof String s) {
        at = where + ", property '" + s + "'";
      }
      f.onlyKeys(p, PROPERTY_KEYS, at);
      int name = p.containsKey("name") && p.get("name") != null ? string(p.get("name"), at + ", name") : 0;
      int iv = 0;
      int lv = 0;
      int dv = 0;
      int bv = 0;
      int sv = 0;
      int shape = 0;
      int av = 0;
      if (p.containsKey("i")) {
        iv = FlatProperties.createIVector(b, intArray(p.get("i"), at + ", i"));
      }
      if (p.containsKey("l")) {
        lv = FlatProperties.createLVector(b, longArray(p.get("l"), at + ", l"));
      }
      if (p.containsKey("d")) {
        List<Object> d = f.array(p.get("d"), at + ", d");
        double[] x = new double[d == null ? 0 : d.size()];
        for (int j = 0; j < x.length; j++) {
          Double v = f.number(d.get(j), at + ", d[" + j + "]");
          x[j] = v == null ? 0 : v;
        }
        dv = FlatProperties.createDVector(b, x);
      }
      if (p.containsKey("b")) {
        List<Object> d = f.array(p.get("b"), at + ", b");
        boolean[] x = new boolean[d == null ? 0 : d.size()];
        for (int j = 0; j < x.length; j++) {
          x[j] = Boolean.TRUE.equals(f.bool(d.get(j), at + ", b[" + j + "]"));
        }
        bv = FlatProperties.createBVector(b, x);
      }
      if (p.containsKey("s")) {
        List<String> s = g.strings(p.get("s"), at + ", s");
        sv = s == null ? 0 : g.stringVector(s);
      }
      if (p.containsKey("shape")) {
        shape = FlatProperties.createShapeVector(b, intArray(p.get("shape"), at + ", shape"));
      }
      if (p.containsKey("a")) {
        List<Object> a = f.array(p.get("a"), at + ", a");
        int[] arrays = new int[a == null ? 0 : a.size()];
        for (int j = 0; j < arrays.length; j++) {
          arrays[j] = array(a.get(j), at + ", a[" + j + "]");
        }
        av = FlatProperties.createAVector(b, arrays);
      }
      FlatProperties.startFlatProperties(b);
      add(0, name);
      add(1, iv);
      add(2, lv);
      add(3, dv);
      add(4, av);
      add(5, bv);
      add(6, sv);
      add(7, shape);
      offs[k] = FlatProperties.endFlatProperties(b);
    }
    return FlatNode.createPropertiesVector(b, offs);
  }

  /** An array argument, built in the FlatArray layout of the tag's graph; 0 after a problem. */
  private int array(Object json, String where) throws ModelFormatException {
    OpArrays.Values v = OpArrays.parse(json, where, f);
    if (v == null) {
      return 0;
    }
    if (g.convention() == Convention.LEGACY && v.dtype().legacyExtras() == 0) {
      f.problem(where + ".dtype", "an fb model (DL4J's legacy layout) cannot hold " + v.dtype().nd4jName()
          + " arrays: write another type, or convert the model to sdnb first");
      return 0;
    }
    return OpArrays.build(b, v, g.convention(), g.file());
  }

  /**
   * What an op names, checked for every op (a copied one too): each output a variable of the
   * document and made by no other op; {@code controlDeps} and {@code controlDepFor} ops (or, as
   * DL4J writes a while loop's constants, variables), {@code varControlDeps} variables.
   */
  private void wiring(Map<String, Object> m, String where, int i) {
    if (m.get("outputs") instanceof List<?> out) {
      for (int k = 0; k < out.size(); k++) {
        if (!(out.get(k) instanceof String o)) {
          continue; // the build reports the type
        }
        int[] other = producers.get(o);
        if (other != null && other[0] != i) {
          f.problem(where + ", outputs[" + k + "]", JsonFields.show(o) + " is an output of ops[" + other[0] + "] "
              + label(ops.get(other[0]), other[0]) + " too: a variable has one producing op");
        }
        if (!vars.containsKey(o)) {
          f.problem(where + ", outputs[" + k + "]", JsonFields.show(o) + " names no variable (an op's outputs are"
              + " variables of kind ARRAY: add it to \"variables\")");
        }
      }
    }
    for (String key : List.of("controlDeps", "varControlDeps", "controlDepFor")) {
      boolean variables = key.equals("varControlDeps");
      if (!(m.get(key) instanceof List<?> l)) {
        continue;
      }
      for (Object d : l) {
        if (d instanceof String s && (variables ? !vars.containsKey(s) : !names.contains(s) && !vars.containsKey(s))) {
          f.problem(where + ", " + key, JsonFields.show(s) + " names no " + (variables ? "variable" : "op or variable"));
        }
      }
    }
  }

  /** A list of names ({@code controlDeps}, …) as a string vector; what they name is checked by {@link #wiring}. */
  private int deps(Map<String, Object> m, String key, String where) {
    if (!m.containsKey(key)) {
      return 0;
    }
    List<String> l = g.strings(m.get(key), where + ", " + key);
    return l == null ? 0 : g.stringVector(l);
  }

  private int ints(Map<String, Object> m, String key, String where) {
    return m.containsKey(key) ? FlatNode.createDimensionsVector(b, intArray(m.get(key), where + ", " + key)) : 0;
  }

  private int[] intArray(Object json, String where) {
    List<Object> l = f.array(json, where);
    int[] out = new int[l == null ? 0 : l.size()];
    for (int k = 0; k < out.length; k++) {
      out[k] = (int) orZero(f.integer(l.get(k), Integer.MIN_VALUE, Integer.MAX_VALUE, where + "[" + k + "]"));
    }
    return out;
  }

  private long[] longArray(Object json, String where) {
    List<Object> l = f.array(json, where);
    long[] out = new long[l == null ? 0 : l.size()];
    for (int k = 0; k < out.length; k++) {
      out[k] = orZero(f.integer(l.get(k), Long.MIN_VALUE, Long.MAX_VALUE, where + "[" + k + "]"));
    }
    return out;
  }

  private int string(Object json, String where) {
    String s = f.string(json, where);
    return s == null ? 0 : b.createString(s);
  }

  /** An int field stored when the JSON has it, also when it is 0 (as graph.json shows only stored ones). */
  private void forced(Map<String, Object> m, String key, int slot, String where) {
    if (m.containsKey(key)) {
      int v = (int) orZero(f.integer(m.get(key), Integer.MIN_VALUE, Integer.MAX_VALUE, where + ", " + key));
      b.forceDefaults(true);
      b.addInt(slot, v, 0);
      b.forceDefaults(false);
    }
  }

  private void add(int slot, int offset) {
    if (offset != 0) {
      b.addOffset(slot, offset, 0);
    }
  }

  /** The values the tag's graph shows for this op's list {@code field} (data type codes it shows as numbers). */
  private static Collection<?> shownValues(Map<String, Object> shown, OpArgs.Field field) {
    Object v = shown == null ? null : shown.get(field.key());
    return v instanceof Map<?, ?> m ? m.values() : v instanceof List<?> l ? l : List.of();
  }

  private static int count(Object shownArgs) {
    if (shownArgs instanceof Map<?, ?> mm) {
      return mm.size();
    }
    return shownArgs instanceof List<?> l ? l.size() : 0;
  }

  private static long orZero(Long l) {
    return l == null ? 0 : l;
  }

  private static Set<String> keys(String... k) {
    return Collections.unmodifiableSet(new LinkedHashSet<>(List.of(k)));
  }
}
