package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.*;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.JsonText;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.gen.FlatConfiguration;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.format.fb.gen.FlatVariable;
import org.modelfs.format.fb.gen.IntPair;
import org.modelfs.io.HeapSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.GraphRef;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * Reads a written {@code graph.json} back into a FlatGraph (docs/GRAPH.md §3): checks all of it
 * — JSON syntax with line and column, then every variable, op, argument and list against the op
 * descriptors, the document itself and the tag's arrays — and builds the graph it describes, or
 * refuses with every problem found ({@link GraphJsonException}); nothing is changed then.
 *
 * <p>The graph is built like the tag's {@code graph} file (variables without arrays, ops,
 * outputs, placeholders, loss variables, configuration; no training configuration, updater state
 * or metadata: each lives in its own file) in the FlatArray convention of the tag's graph (SDNB
 * for a tag without one). What the JSON shows exactly as the tag's graph renders it — an op of the
 * same id, the configuration, a list — is copied from the tag's graph as it is stored, so fields
 * a rendering cannot tell apart (a default value stored explicitly, a NaN's payload) stay as
 * they were; everything else is built from the JSON. Variables are matched to the tag's arrays by
 * name, and by id for a variable renamed in the JSON (its old name gone, its id kept).
 */
public final class GraphJsonReader {
  /**
   * The most heap a written graph.json may take once parsed (an estimate per value): 512 MiB. A
   * rendering of 32,000 ops (27 MB) takes about a third of it; 90 MB of empty objects would take
   * gigabytes and are refused as they are read (docs/GRAPH.md §3.1).
   */
  static final long MAX_HEAP = 512L << 20;

  /** Nesting the schema needs (graph → ops → op → properties → property → array → values) with room. */
  static final int MAX_DEPTH = 16;

  static final Set<String> TOP_KEYS =
      keys("variables", "ops", "placeholders", "lossVariables", "outputs", "configuration");
  static final Set<String> VARIABLE_KEYS = keys("name", "kind", "dtype", "shape", "id", "device", "controlDeps",
      "controlDepForOp", "controlDepsForVar");
  static final Set<String> CONFIGURATION_KEYS = keys("id", "executionMode", "profilingMode", "outputMode",
      "timestats", "footprintForward", "footprintBackward", "direction");

  /**
   * What a written graph.json makes of the tag.
   *
   * @param graph the new graph (held in the heap)
   * @param renames variables renamed by the JSON: old name → new name (their arrays and updater state follow)
   * @param unchanged whether the JSON is, value for value, what the tag's graph.json shows (its
   *     formatting aside): then the tag's graph is already what it describes
   */
  public record Result(GraphRef graph, Map<String, String> renames, boolean unchanged) {}

  /** A variable as the JSON gives it. */
  record Var(String name, VarKind kind, Integer dtype, long[] shape, int[] id, Integer device,
      Map<String, Object> json, boolean idGiven) {}

  private final Tag tag;
  private final String file;
  private final JsonFields f = new JsonFields(new JsonProblems());
  private final FlatBufferBuilder b = new FlatBufferBuilder(64 * 1024);
  private final Convention conv;
  /** The tag's stored graph, or null. */
  private final FbTable root;
  /** The tag's graph as graph.json shows it, parsed. */
  private final Map<String, Object> shown;

  private GraphJsonReader(Tag tag, byte[] rendering, String file) throws ModelFormatException {
    this.tag = tag;
    this.file = file;
    GraphRef g = tag.graph();
    this.conv = g == null ? Convention.SDNB : g.convention();
    this.root = g == null ? null : new FbBuffer(g.source(), g.offset(), g.length(), file).root("FlatGraph");
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) JsonText.parse(
        new String(rendering, StandardCharsets.UTF_8), MAX_DEPTH, false);
    this.shown = m;
  }

  /**
   * Reads {@code json}, written as {@code tag}'s graph.json.
   *
   * @param file the path written, for messages
   * @throws GraphJsonException naming every problem (nothing is changed)
   * @throws ModelFormatException if the tag's own graph cannot be read
   */
  public static Result read(byte[] json, Tag tag, String file) throws ModelFormatException, GraphJsonException {
    return read(json, tag, GraphJson.render(tag, file), file);
  }

  /**
   * {@link #read(byte[], Tag, String)} given what the tag's graph.json reads ({@code rendering},
   * {@link GraphJson#render}), for a caller that has it already.
   */
  public static Result read(byte[] json, Tag tag, byte[] rendering, String file)
      throws ModelFormatException, GraphJsonException {
    String text = utf8(json, file);
    Object doc;
    try {
      doc = JsonText.parse(text, MAX_DEPTH, true, MAX_HEAP);
    } catch (IllegalArgumentException e) {
      throw new GraphJsonException(file, List.of("malformed JSON: " + e.getMessage()));
    }
    return new GraphJsonReader(tag, rendering, file).run(doc);
  }

  /** {@code json} decoded as UTF-8; bytes that are not refused, naming their offset, line and column. */
  private static String utf8(byte[] json, String file) throws GraphJsonException {
    CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(json);
    CharBuffer out = CharBuffer.allocate(json.length);
    CoderResult r = d.decode(in, out, true);
    if (!r.isError()) {
      r = d.flush(out);
    }
    if (r.isError()) {
      int at = in.position();
      int line = 1;
      int column = 1;
      for (int i = 0; i < at; i++) {
        if (json[i] == '\n') {
          line++;
          column = 1;
        } else if ((json[i] & 0xC0) != 0x80) {
          column++; // a character starts here
        }
      }
      throw new GraphJsonException(file, List.of("graph.json is UTF-8 text, but byte " + at + " (0x"
          + Integer.toHexString(json[at] & 0xff) + ") is not UTF-8 there (line " + line + ", column " + column + ")"));
    }
    return out.flip().toString();
  }

  private Result run(Object doc) throws ModelFormatException, GraphJsonException {
    Map<String, Object> top = f.object(doc, "graph.json");
    surrogates(doc, "graph.json");
    f.problems().throwIfAny(file);
    f.onlyKeys(top, TOP_KEYS, "graph.json");
    List<Var> vars = variables(top.get("variables"));
    Map<String, Var> byName = new LinkedHashMap<>();
    for (Var v : vars) {
      if (byName.putIfAbsent(v.name(), v) != null) {
        f.problem(label("variable", v.name()), "named twice");
      }
    }
    List<Object> ops = f.array(top.get("ops"), "graph.json ops");
    f.problems().throwIfAny(file);

    for (long id : storedIds().keySet()) {
      ids.use((int) (id >> 32)); // a new id is never one the tag's graph has
    }
    OpJsonReader opReader = new OpJsonReader(this, byName, ops);
    assignIds(vars, byName, opReader);
    Map<Long, Var> byId = new HashMap<>();
    boolean twins = false;
    for (Var v : vars) {
      Var twin = byId.putIfAbsent(key(v.id()[0], v.id()[1]), v);
      if (twin != null) {
        twins = true;
        f.problem(label("variable", v.name()), "id [" + v.id()[0] + ", " + v.id()[1] + "] is also the id of "
            + label("variable", twin.name()));
      }
    }
    Map<String, String> renames = twins ? Map.of() : renames(vars, byName); // renames are by id: only with unique ids
    arrays(vars, renames);
    f.problems().throwIfAny(file);

    int[] varOffs = new int[vars.size()];
    for (int i = 0; i < varOffs.length; i++) {
      varOffs[i] = variable(vars.get(i), byName, opReader);
    }
    int variables = FlatGraph.createVariablesVector(b, varOffs);
    int nodes = opReader.build();
    int outputs = outputs(top, byName);
    int configuration = configuration(top);
    int placeholders = names(top, "placeholders", G_PLACEHOLDERS, byName, true);
    int loss = names(top, "lossVariables", G_LOSS_VARIABLES, byName, false);
    f.problems().throwIfAny(file);
    int subInstances = 0;
    FbVector si = root == null ? null : root.getVector(G_SUB_INSTANCES, "subInstances", 4);
    if (si != null && conv == Convention.SDNB) {
      subInstances = copy().tableVector(si, FbCopy.SUB_INSTANCE, null);
    }
    int graph = FlatGraph.createFlatGraph(b, 0, variables, nodes, outputs, configuration, placeholders, loss,
        0, 0, 0, 0, subInstances);
    b.finish(graph);
    byte[] bytes = b.sizedByteArray();
    GraphRef ref = new GraphRef(new HeapSource(file, bytes), 0, bytes.length, conv);
    return new Result(ref, renames, doc.equals(shown));
  }

  /**
   * Refuses every string and key holding an unpaired surrogate ({@code "\\ud800"} is valid JSON):
   * a FlatBuffer stores names as UTF-8, which cannot hold one.
   */
  private void surrogates(Object v, String where) {
    if (v instanceof String s) {
      unpaired(s, where);
    } else if (v instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String k = (String) e.getKey();
        unpaired(k, where + " key " + JsonFields.show(k));
        surrogates(e.getValue(), where + "." + cut(k));
      }
    } else if (v instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        surrogates(l.get(i), where + "[" + i + "]");
      }
    }
  }

  private void unpaired(String s, String where) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        f.problem(where, "holds an unpaired surrogate (U+" + Integer.toHexString(c).toUpperCase(Locale.ROOT)
            + " at character " + i + "): a FlatBuffer stores text as UTF-8, which cannot hold one");
        return;
      }
    }
  }

  // --- variables ---

  private List<Var> variables(Object json) {
    List<Var> out = new ArrayList<>();
    List<Object> list = f.array(json, "graph.json variables");
    for (int i = 0; list != null && i < list.size(); i++) {
      String where = "variables[" + i + "]";
      Map<String, Object> m = f.object(list.get(i), where);
      if (m == null) {
        continue;
      }
      String name = m.get("name") instanceof String s ? s : null;
      if (name == null) {
        f.problem(where, "needs a \"name\" (a string), found " + JsonFields.show(m.get("name")));
        continue;
      }
      where = label("variable", name);
      f.onlyKeys(m, VARIABLE_KEYS, where);
      VarKind kind = null;
      String k = f.string(m.get("kind"), where + ", kind");
      if (k != null) {
        for (VarKind c : VarKind.values()) {
          kind = c.name().equals(k) ? c : kind;
        }
        if (kind == null) {
          f.problem(where + ", kind", JsonFields.show(k) + " is no variable kind; expected VARIABLE, CONSTANT, ARRAY, PLACEHOLDER"
              + " or SEQUENCE");
        }
      }
      Integer dtype = m.get("dtype") == null ? null : f.dtypeCode(m.get("dtype"), where + ", dtype");
      long[] shape = m.get("shape") == null ? null : declaredShape(m.get("shape"), where + ", shape");
      int[] id = m.containsKey("id") ? pair(m.get("id"), where + ", id") : null;
      Integer device = null;
      if (m.containsKey("device")) {
        Long d = f.integer(m.get("device"), Integer.MIN_VALUE, Integer.MAX_VALUE, where + ", device");
        device = d == null ? null : d.intValue();
      }
      for (GraphJson.Field dep : GraphJson.VARIABLE_DEPS) {
        if (m.containsKey(dep.key())) {
          strings(m.get(dep.key()), where + ", " + dep.key());
        }
      }
      if (kind != null) {
        out.add(new Var(name, kind, dtype, shape, id, device, m, id != null));
      }
    }
    return out;
  }

  /** A variable's declared shape: integers, -1 for a dimension not known until run time. */
  private long[] declaredShape(Object json, String where) {
    return f.dims(json, where, -1, Long.MAX_VALUE);
  }

  int[] pair(Object json, String where) {
    List<Object> l = f.array(json, where);
    if (l == null) {
      return null;
    }
    if (l.size() != 2) {
      f.problem(where, "expected [node, index], found " + l.size() + " numbers");
      return null;
    }
    Long a = f.integer(l.get(0), Integer.MIN_VALUE, Integer.MAX_VALUE, where + "[0]");
    Long c = f.integer(l.get(1), Integer.MIN_VALUE, Integer.MAX_VALUE, where + "[1]");
    return a == null || c == null ? null : new int[] {a.intValue(), c.intValue()};
  }

  List<String> strings(Object json, String where) {
    List<Object> l = f.array(json, where);
    if (l == null) {
      return null;
    }
    List<String> out = new ArrayList<>(l.size());
    for (int i = 0; i < l.size(); i++) {
      String s = f.string(l.get(i), where + "[" + i + "]");
      if (s == null) {
        return null;
      }
      out.add(s);
    }
    return out;
  }

  /**
   * Gives each variable without an {@code id} one: {@code [op id, k]} for the k-th output of an
   * op, else {@code [a new node id, 0]} ({@link IdPool}: never an id in use or one the tag had).
   */
  private void assignIds(List<Var> vars, Map<String, Var> byName, OpJsonReader ops) {
    for (int i = 0; i < vars.size(); i++) {
      Var v = vars.get(i);
      if (v.id() == null) {
        int[] produced = ops.producer(v.name());
        int[] id = produced != null ? produced : new int[] {ids.take(), 0};
        Var given = new Var(v.name(), v.kind(), v.dtype(), v.shape(), id, v.device(), v.json(), false);
        vars.set(i, given);
        byName.put(v.name(), given);
      }
    }
  }

  private Map<Long, String> storedIds;
  private Map<String, List<Object>> storedIdsByName;

  /** The ids of the variables the tag's graph shows: id → name (the first, for an id shown twice). */
  private Map<Long, String> storedIds() {
    if (storedIds == null) {
      storedIds = new HashMap<>();
      storedIdsByName = new HashMap<>();
      for (Object o : listOf(shown.get("variables"))) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) o;
        if (m.get("id") instanceof List<?> id && id.size() == 2) {
          storedIds.putIfAbsent(key(((Long) id.get(0)).intValue(), ((Long) id.get(1)).intValue()), (String) m.get("name"));
          storedIdsByName.put((String) m.get("name"), new ArrayList<>(id));
        }
      }
    }
    return storedIds;
  }

  /**
   * The renames the JSON makes. Arrays follow names; a variable is renamed only when that is the
   * one reading: it is given the id the tag's graph shows for another variable, that variable's
   * name is gone from the document, and its own name is new to the tag. Ids are numbers local to
   * one graph (DL4J numbers its variables afresh at each save), so a graph.json copied from
   * another tag, whose ids differ, moves no array: every name the tag has keeps its array. A
   * dropped variable whose id a name the tag has carries — a rename onto a taken name, or a chain
   * of renames — is refused as ambiguous (rename such variables one at a time).
   */
  private Map<String, String> renames(List<Var> vars, Map<String, Var> byName) {
    Map<Long, String> stored = storedIds();
    Map<String, String> out = new LinkedHashMap<>();
    for (Var v : vars) {
      String old = v.idGiven() ? stored.get(key(v.id()[0], v.id()[1])) : null; // an id left out renames nothing
      if (old == null || old.equals(v.name()) || tag.variable(old) == null || byName.containsKey(old)) {
        continue; // the same variable, or its old name still in the document: arrays stay by name
      }
      if (tag.variable(v.name()) == null) {
        out.put(old, v.name());
      } else {
        f.problem(label("variable", v.name()) + ", id", "this is the id of " + label("variable", old)
            + ", which the document drops — a rename — but the tag has a variable of this name already, with its"
            + " own array: which array it keeps is ambiguous. Rename one variable at a time (or give this one its"
            + " own id to keep its array, and drop " + label("variable", old) + " with its array)");
      }
    }
    return out;
  }

  /** {@code kind 'name'} for a message, a long name cut (a hostile name cannot make the message unbounded). */
  static String label(String kind, String name) {
    return kind + " '" + cut(name) + "'";
  }

  /** A name as messages show it: at most 80 characters, then an ellipsis. */
  static String cut(String name) {
    return name.length() > 80 ? name.substring(0, 80) + "…" : name;
  }

  /** Each variable against the array it will hold (its own, or its old name's when renamed). */
  private void arrays(List<Var> vars, Map<String, String> renames) {
    Map<String, String> back = new HashMap<>();
    renames.forEach((o, n) -> back.put(n, o));
    for (Var v : vars) {
      Variable old = tag.variable(back.getOrDefault(v.name(), v.name()));
      ArrayData a = old == null ? null : old.array();
      if (a == null) {
        continue;
      }
      String where = label("variable", v.name());
      if (!v.kind().holdsArray() && v.kind() != old.kind()) {
        f.problem(where + ", kind", v.kind() + " holds no array, but the tag holds one for it (params/"
            + old.name() + "): delete that first, or keep kind " + old.kind());
        continue;
      }
      if (a.storage() == ArrayData.Storage.JOURNAL) {
        continue; // written in this session: it takes the declared type and shape if its size fits (checked at commit)
      }
      // DL4J itself declares some variables with another type or shape than their array holds
      // (a Reshape's shape constant: FLOAT declared, INT stored): only a change is held to the array.
      Integer declared = old.dtype() == null ? null : old.dtype().code();
      if (v.dtype() != null && !v.dtype().equals(declared) && v.dtype() != a.dtype().code()) {
        DType t = DType.fromCode(v.dtype());
        f.problem(where + ", dtype", "expected " + a.dtype().nd4jName() + ", the type of its array, found "
            + (t == null ? v.dtype().toString() : t.nd4jName()) + " (write an array of that type first)");
      }
      if (v.shape() != null && !Arrays.equals(v.shape(), old.effectiveShape())
          && !Arrays.equals(v.shape(), a.shape())) {
        f.problem(where + ", shape", "expected " + Arrays.toString(a.shape()) + ", the shape of its array, found "
            + Arrays.toString(v.shape()));
      }
    }
  }

  private int variable(Var v, Map<String, Var> byName, OpJsonReader ops) throws ModelFormatException {
    int name = b.createString(v.name());
    int id = IntPair.createIntPair(b, v.id()[0], v.id()[1]);
    long[] declared = v.shape();
    Variable old = tag.variable(v.name());
    if (declared != null && old != null && old.shape() == null && Arrays.equals(declared, old.effectiveShape())) {
      declared = null; // shown from its array, never declared (legacy fb declares placeholders' shapes only): as it was
    }
    int shape = declared == null ? 0 : FlatVariable.createShapeVector(b, declared);
    int[] deps = new int[3];
    for (int d = 0; d < 3; d++) {
      GraphJson.Field field = GraphJson.VARIABLE_DEPS[d];
      List<String> l = v.json().containsKey(field.key()) ? strings(v.json().get(field.key()), "") : null;
      if (l != null) {
        String where = label("variable", v.name()) + ", " + field.key();
        for (String s : l) {
          if (d == 2 ? !byName.containsKey(s) : !ops.hasOp(s) && !byName.containsKey(s)) {
            f.problem(where, JsonFields.show(s) + " names no " + (d == 2 ? "variable" : "op or variable"));
          }
        }
        deps[d] = stringVector(l);
      }
    }
    FlatVariable.startFlatVariable(b);
    FlatVariable.addId(b, id);
    FlatVariable.addName(b, name);
    if (v.dtype() != null) {
      FlatVariable.addDtype(b, (byte) (int) v.dtype());
    }
    if (shape != 0) {
      FlatVariable.addShape(b, shape);
    }
    if (v.device() != null) {
      b.forceDefaults(true);
      FlatVariable.addDevice(b, v.device());
      b.forceDefaults(false);
    }
    FlatVariable.addVariabletype(b, (byte) v.kind().code());
    for (int d = 0; d < 3; d++) {
      if (deps[d] != 0) {
        b.addOffset(V_CONTROL_DEPS + d, deps[d], 0);
      }
    }
    return FlatVariable.endFlatVariable(b);
  }

  int stringVector(List<String> l) {
    int[] offs = new int[l.size()];
    for (int i = 0; i < offs.length; i++) {
      offs[i] = b.createString(l.get(i));
    }
    return FlatGraph.createPlaceholdersVector(b, offs);
  }

  // --- the graph's lists and configuration ---

  /** The graph's outputs: variable names as IntPairs of their ids; copied when shown unchanged. */
  private int outputs(Map<String, Object> top, Map<String, Var> byName) throws ModelFormatException {
    if (!top.containsKey("outputs")) {
      return 0;
    }
    List<String> names = strings(top.get("outputs"), "graph.json outputs");
    if (names == null) {
      return 0;
    }
    FbVector stored = root == null ? null : root.getVector(G_OUTPUTS, "outputs", 4);
    if (stored != null && names.equals(shown.get("outputs")) && sameIds(names, byName)) {
      return copy().tableVector(stored, FbCopy.INT_PAIR, null);
    }
    int[] offs = new int[names.size()];
    for (int i = 0; i < offs.length; i++) {
      int[] id = idOf(names.get(i), byName, listOf(shown.get("outputs")), "graph.json outputs");
      offs[i] = id == null ? 0 : IntPair.createIntPair(b, id[0], id[1]);
    }
    return FlatGraph.createOutputsVector(b, offs);
  }

  /** {@code placeholders} or {@code lossVariables}: variable names; copied (or left absent) when shown unchanged. */
  private int names(Map<String, Object> top, String key, int slot, Map<String, Var> byName, boolean placeholders)
      throws ModelFormatException {
    if (!top.containsKey(key)) {
      return 0;
    }
    List<String> names = strings(top.get(key), "graph.json " + key);
    if (names == null) {
      return 0;
    }
    for (String n : names) {
      Var v = byName.get(n);
      if (v == null) {
        f.problem("graph.json " + key, JsonFields.show(n) + " names no variable");
      } else if (placeholders && v.kind() != VarKind.PLACEHOLDER) {
        f.problem("graph.json " + key, JsonFields.show(n) + " is a " + v.kind() + ", not a PLACEHOLDER");
      }
    }
    if (names.equals(shown.get(key))) {
      FbVector stored = root == null ? null : root.getVector(slot, key, 4);
      return stored == null ? (root == null && !names.isEmpty() ? stringVector(names) : 0)
          : copy().stringVector(stored, true);
    }
    return stringVector(names);
  }

  private int configuration(Map<String, Object> top) throws ModelFormatException {
    if (!top.containsKey("configuration")) {
      return 0;
    }
    Map<String, Object> c = f.object(top.get("configuration"), "graph.json configuration");
    if (c == null) {
      return 0;
    }
    f.onlyKeys(c, CONFIGURATION_KEYS, "graph.json configuration");
    FbTable stored = root == null ? null : root.getTable(G_CONFIGURATION, "configuration");
    if (stored != null && c.equals(shown.get("configuration"))) {
      return copy().table(stored, FbCopy.FLAT_CONFIGURATION);
    }
    String at = "graph.json configuration";
    long id = c.containsKey("id") ? orZero(f.integer(c.get("id"), Long.MIN_VALUE, Long.MAX_VALUE, at + ", id")) : 0;
    int exec = named(c, "executionMode", GraphJson.EXECUTION_MODES, at);
    int prof = named(c, "profilingMode", GraphJson.PROFILING_MODES, at);
    int outMode = named(c, "outputMode", GraphJson.OUTPUT_MODES, at);
    Boolean timestats = c.containsKey("timestats") ? f.bool(c.get("timestats"), at + ", timestats") : Boolean.FALSE;
    long fwd = c.containsKey("footprintForward")
        ? orZero(f.integer(c.get("footprintForward"), Long.MIN_VALUE, Long.MAX_VALUE, at + ", footprintForward")) : 0;
    long bwd = c.containsKey("footprintBackward")
        ? orZero(f.integer(c.get("footprintBackward"), Long.MIN_VALUE, Long.MAX_VALUE, at + ", footprintBackward")) : 0;
    int dir = named(c, "direction", GraphJson.DIRECTIONS, at);
    return FlatConfiguration.createFlatConfiguration(b, id, (byte) exec, (byte) prof, (byte) outMode,
        Boolean.TRUE.equals(timestats), fwd, bwd, (byte) dir);
  }

  /** An enum field: its name, or its number (as graph.json shows an unknown one); absent = 0. */
  int named(Map<String, Object> m, String key, String[] names, String at) {
    if (!m.containsKey(key)) {
      return 0;
    }
    Object v = m.get(key);
    if (v instanceof String s) {
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(s)) {
          return i;
        }
      }
      f.problem(at + ", " + key, JsonFields.show(s) + " is not one of " + String.join(", ", names));
      return 0;
    }
    return (int) orZero(f.integer(v, 0, 255, at + ", " + key));
  }

  private static long orZero(Long l) {
    return l == null ? 0 : l;
  }

  // --- shared with OpJsonReader ---

  /**
   * The id of the variable {@code name} names; {@code #node:index} (how graph.json shows an id no
   * variable has) only where the tag's graph shows it in the same list ({@code shownList}).
   */
  int[] idOf(String name, Map<String, Var> byName, List<Object> shownList, String where) {
    Var v = byName.get(name);
    if (v != null && v.id() != null) {
      return v.id();
    }
    if (name.startsWith("#") && shownList.contains(name)) {
      int colon = name.indexOf(':');
      try {
        return new int[] {Integer.parseInt(name.substring(1, colon)), Integer.parseInt(name.substring(colon + 1))};
      } catch (RuntimeException e) {
        // falls through to the problem below
      }
    }
    f.problem(where, JsonFields.show(name) + " names no variable");
    return null;
  }

  /** Whether each of {@code names} has the same id in the JSON as in the tag's graph. */
  boolean sameIds(List<String> names, Map<String, Var> byName) {
    storedIds();
    for (String n : names) {
      Var v = byName.get(n);
      List<Object> s = storedIdsByName.get(n);
      if (v == null) {
        if (!n.startsWith("#")) {
          return false;
        }
      } else if (s == null || !s.equals(List.of((long) v.id()[0], (long) v.id()[1]))) {
        return false;
      }
    }
    return true;
  }

  static List<Object> listOf(Object o) {
    @SuppressWarnings("unchecked")
    List<Object> l = o instanceof List<?> list ? (List<Object>) list : List.of();
    return l;
  }

  private FbCopy copy;
  /** Node ids in use, and the ones given to what the document leaves without an id. */
  private final IdPool ids = new IdPool();

  IdPool ids() {
    return ids;
  }

  /** One copier from the tag's graph into the builder (it copies a shared table once); null without a graph. */
  FbCopy copy() throws ModelFormatException {
    if (copy == null && root != null) {
      copy = new FbCopy(b, root.buffer(), GraphNames.renames(tag, root));
    }
    return copy;
  }

  private Budget decode;

  /** What decoding the stored graph's op arrays may cost, for every copy of this read (docs/FORMATS.md §12). */
  Budget decodeBudget() {
    if (decode == null && root != null) {
      decode = Budget.read(root.buffer());
    }
    return decode;
  }

  String file() {
    return file;
  }

  JsonFields fields() {
    return f;
  }

  FlatBufferBuilder builder() {
    return b;
  }

  Convention convention() {
    return conv;
  }

  FbTable root() {
    return root;
  }

  Map<String, Object> shown() {
    return shown;
  }

  static long key(int node, int index) {
    return (long) node << 32 | (index & 0xffffffffL);
  }

  private static Set<String> keys(String... k) {
    return Collections.unmodifiableSet(new LinkedHashSet<>(List.of(k)));
  }

}
