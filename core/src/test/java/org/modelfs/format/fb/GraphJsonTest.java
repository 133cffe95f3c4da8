package org.modelfs.format.fb;

import java.nio.charset.CharacterCodingException;
import org.modelfs.format.JsonText;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.ModelFormatException;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.format.fb.gen.FlatNode;
import org.modelfs.format.fb.gen.IntPair;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.GraphRef;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.testing.Fixtures;

/**
 * The JSON rendering of every DL4J fixture graph, as read and after conversion to SDNB, parses
 * and agrees with the model index and the FlatGraph; malformed graphs give format errors.
 */
class GraphJsonTest {
  @TempDir Path tmp;

  static List<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (Path fb : Fixtures.all()) {
      for (String format : List.of("legacy", "sdnb")) {
        out.add(Arguments.of(Fixtures.dir().relativize(fb).toString(), format));
      }
    }
    return out;
  }

  /** Renders a fixture's newest tag, after converting it to SDNB when asked, and checks it. */
  private Map<String, Object> render(String fixture, String format) throws IOException {
    Path file = Fixtures.get(fixture);
    if (format.equals("sdnb")) {
      Path sdnb = tmp.resolve("out.sdnb");
      try (Model m = Models.open(file)) {
        ModelFiles.write(m.newest(), sdnb, WriteOptions.of(ModelFormat.SDNB));
      }
      file = sdnb;
    }
    try (Model m = Models.open(file)) {
      Tag tag = m.newest();
      Map<String, Object> json = object(Json.parse(GraphJson.render(tag, fixture)));
      checkAgainst(tag, json);
      return json;
    }
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("cases")
  void rendersWhatTheGraphHolds(String fixture, String format) throws IOException {
    Map<String, Object> json = render(fixture, format);
    // the same graph renders the same whatever container convention holds it (a copied tag's
    // graph.json equals its source's: docs/FILESYSTEM.md §7.1)
    assertFalse(json.containsKey("format"));
  }

  private static void checkAgainst(Tag tag, Map<String, Object> json) {
    List<Object> vars = list(json.get("variables"));
    assertEquals(tag.variables().size(), vars.size());
    Set<String> names = new HashSet<>();
    for (int i = 0; i < vars.size(); i++) {
      Variable v = tag.variables().get(i);
      Map<String, Object> jv = object(vars.get(i));
      assertEquals(v.name(), jv.get("name"));
      assertEquals(v.kind().name(), jv.get("kind"));
      assertEquals(v.dtype() == null ? null : v.dtype().nd4jName(), jv.get("dtype"));
      assertEquals(v.effectiveShape() == null ? null : longs(v.effectiveShape()), jv.get("shape"), v.name());
      assertEquals(2, list(jv.get("id")).size(), v.name());
      names.add(v.name());
    }

    FlatGraph fg = flatGraph(tag.graph());
    List<Object> ops = list(json.get("ops"));
    assertEquals(fg.nodesLength(), ops.size());
    for (int i = 0; i < ops.size(); i++) {
      Map<String, Object> op = object(ops.get(i));
      FlatNode node = fg.nodes(i);
      assertEquals(node.name(), op.get("name"));
      assertEquals(node.opName(), op.get("opName"));
      assertTrue(op.get("opType") instanceof String, "opType of " + node.name());
      assertEquals((long) node.id(), op.get("id"));
      assertEquals(node.inputPairedLength(), list(op.get("inputs")).size());
      for (Object in : list(op.get("inputs"))) {
        assertTrue(names.contains(in), "input " + in + " of " + node.name());
      }
      assertEquals(node.outputNamesLength(), list(op.get("outputs")).size());
      for (Object o : list(op.get("outputs"))) {
        assertTrue(names.contains(o), "output " + o + " of " + node.name());
      }
    }

    Set<String> placeholders = new HashSet<>();
    for (Variable v : tag.variables()) {
      if (v.kind() == VarKind.PLACEHOLDER) {
        placeholders.add(v.name());
      }
    }
    assertEquals(placeholders, new HashSet<>(list(json.get("placeholders"))));
    assertTrue(names.containsAll(list(json.get("lossVariables"))));
    assertTrue(names.containsAll(list(json.get("outputs"))));
    assertTrue(json.containsKey("configuration"));
    assertFalse(json.containsKey("trainingConfig"), "training.json holds the training configuration");
  }

  @Test
  void showsOpArguments() throws IOException {
    for (String format : List.of("legacy", "sdnb")) {
      Map<String, Object> json = render("mlp_adam.fb", format);
      assertEquals(List.of("loss"), json.get("lossVariables"), format);
      assertEquals(List.of("input", "label"), json.get("placeholders"), format);
      Map<String, Object> matmul = op(json, "matmul_1");
      assertEquals("matmul", matmul.get("opName"));
      assertEquals("CUSTOM", matmul.get("opType"));
      assertEquals(-273014250715117663L, matmul.get("opNum"));
      assertEquals(List.of("multiply", "layer1/W"), matmul.get("inputs"));
      assertEquals(List.of("matmul_1"), matmul.get("outputs"));
      assertEquals(Map.of("transX", 0L, "transY", 0L, "transZ", 0L), matmul.get("iArgs")); // named by its descriptor
      assertEquals(List.of("alpha", "beta"), List.copyOf(object(matmul.get("tArgs")).keySet()));
      assertEquals(Map.of("alpha", 1.0, "beta", 0.0), matmul.get("tArgs"));
      assertEquals(List.of("FLOAT"), matmul.get("outputTypes"));
      assertEquals(List.of(false), property(matmul, "transposeB").get("b"));
      Map<String, Object> softmax = op(json, "softmax");
      assertEquals(Map.of("dimension", 1L), softmax.get("iArgs"));
      assertEquals(List.of(1L), property(softmax, "dimension").get("l"));
      Map<String, Object> config = object(json.get("configuration"));
      assertEquals("VARIABLE_SPACE", config.get("outputMode"));
      assertEquals(true, config.get("timestats"));
    }
    for (String format : List.of("legacy", "sdnb")) {
      // op arguments are re-encoded in the SDNB FlatArray convention when converting (not copied)
      Map<String, Object> relu = op(render("mlp_adam.fb", format), "relu");
      assertEquals("SCALAR", relu.get("opType"));
      assertEquals(Map.of("dtype", "FLOAT", "shape", List.of(), "values", List.of(0.0)), relu.get("scalar"), format);
      assertEquals(List.of(), relu.get("tArgs"), "a legacy op: positional");
    }
  }

  @Test
  void showsReduceDimensionsAndPropertyArrays() throws IOException {
    for (String format : List.of("legacy", "sdnb")) {
      Map<String, Object> reduce = op(render("tf-import/reduce_all_rank2_d0_keep.fb", format), "all");
      assertEquals(List.of(Map.of("dtype", "INT", "shape", List.of(1L), "values", List.of(0L))), property(reduce, "dimensionz").get("a"),
          format);
    }
    Map<String, Object> reduce = op(render("tf-import/reduce_all_rank2_d0_keep.fb", "legacy"), "all");
    assertEquals("REDUCE_BOOL", reduce.get("opType"));
    assertEquals(List.of(0L), reduce.get("dimensions"));
    assertEquals(List.of(true, true), reduce.get("bArgs"), "a legacy op type: positional");
    assertFalse(reduce.containsKey("sArgs"), "absent field shown");
    assertEquals(List.of(true), property(reduce, "keepDims").get("b"));
    assertEquals(List.of(Map.of("dtype", "INT", "shape", List.of(1L), "values", List.of(0L))), property(reduce, "dimensionz").get("a"));
  }

  @Test
  void showsControlDependencies() throws IOException {
    Map<String, Object> json = render("tf-import/simplewhile_1.fb", "legacy");
    Map<String, Object> merge = op(json, "merge");
    assertEquals("LOGIC", merge.get("opType"));
    assertEquals(List.of("while/Const"), merge.get("controlDepFor"));
    Map<String, Object> enter = op(json, "enter");
    assertEquals(List.of("while/while/"), property(enter, "frameName").get("s"));
    boolean varDeps = false;
    for (Object v : list(json.get("variables"))) {
      varDeps |= object(v).containsKey("controlDeps");
    }
    assertTrue(varDeps);
  }

  private static Map<String, Object> property(Map<String, Object> op, String name) {
    for (Object p : list(op.get("properties"))) {
      if (name.equals(object(p).get("name"))) {
        return object(p);
      }
    }
    return fail("no property " + name + " in " + op.get("name"));
  }

  /** The first op with this name, else the first with this op name. */
  private static Map<String, Object> op(Map<String, Object> json, String name) {
    for (String key : List.of("name", "opName")) {
      for (Object o : list(json.get("ops"))) {
        if (name.equals(object(o).get(key))) {
          return object(o);
        }
      }
    }
    return fail("no op " + name);
  }

  @Test
  void rendersVariablesOnlyWithoutGraph() throws IOException {
    try (Model m = Models.open(Fixtures.get("mlp_noupdater.fb"))) {
      Tag t = m.newest();
      List<Variable> vars = new ArrayList<>();
      for (Variable v : t.variables()) {
        vars.add(new Variable(v.name(), v.kind(), v.dtype(), v.shape(), v.array(), -1));
      }
      Tag bare = new Tag("default", null, vars, List.of(), null, Map.of());
      Map<String, Object> json = object(Json.parse(GraphJson.render(bare, "x")));
      assertFalse(json.containsKey("format"));
      assertEquals(t.variables().size(), list(json.get("variables")).size());
      assertEquals(List.of(), json.get("ops"));
      assertFalse(json.containsKey("configuration"));
      assertEquals(List.of("input", "label"), json.get("placeholders"));
    }
  }

  @Test
  void writerEscapesAndKeepsNonFiniteDoublesValid() throws IOException {
    JsonOut out = new JsonOut(1 << 20, "f", 0);
    out.beginObject().key("d").beginArray(true).value(Double.NaN).value(Double.POSITIVE_INFINITY)
        .value(Double.NEGATIVE_INFINITY).value(-0.0).value(1e-300).endArray();
    out.key("s").value("q\"b\\c\u0000\u001f\n\u00e9\u2028\ud83d\ude00");
    out.key("e").beginArray(false).endArray().key("o").beginObject().endObject().endObject();
    byte[] bytes = out.toBytes();
    String text = new String(bytes, StandardCharsets.UTF_8);
    assertTrue(text.contains("\\u0000") && text.contains("\\u001f") && text.contains("\\n"), text);
    Map<String, Object> json = object(Json.parse(bytes));
    assertEquals(List.of("NaN", "Infinity", "-Infinity", -0.0, 1e-300), json.get("d"));
    assertEquals("q\"b\\c\u0000\u001f\n\u00e9\u2028\ud83d\ude00", json.get("s"));
    assertEquals(List.of(), json.get("e"));
    assertEquals(Map.of(), json.get("o"));
    assertEquals("{\n  \"d\": [\"NaN\", \"Infinity\", \"-Infinity\", -0.0, 1.0E-300],", text.substring(0, text.indexOf('\n', 3)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("conventions")
  void truncatedOrGarbledGraphsGiveFormatErrors(String format) throws IOException {
    Path file = Fixtures.get("tf-import/simplewhile_1.fb");
    if (format.equals("sdnb")) {
      file = tmp.resolve("in.sdnb");
      try (Model m = Models.open(Fixtures.get("tf-import/simplewhile_1.fb"))) {
        ModelFiles.write(m.newest(), file, WriteOptions.of(ModelFormat.SDNB));
      }
    }
    byte[] orig = Files.readAllBytes(file);
    Tag tag;
    try (Model m = Models.open(file)) {
      tag = m.newest();
    }
    int start = (int) tag.graph().offset();
    int length = (int) tag.graph().length();
    int refused = 0;
    Random rnd = new Random(42);
    for (int round = 0; round < 400; round++) {
      byte[] bytes = orig.clone();
      int len = length;
      if (round % 2 == 0) {
        len = rnd.nextInt(length);
      } else {
        for (int k = 0; k < 1 + rnd.nextInt(8); k++) {
          bytes[start + rnd.nextInt(length)] = (byte) rnd.nextInt(256);
        }
      }
      if (refusal(bytes, start, len, tag) != null) {
        refused++;
      }
    }
    assertTrue(refused > 100, refused + " of 400 refused");
  }

  static List<String> conventions() {
    return List.of("legacy", "sdnb");
  }

  /**
   * Renders the graph at {@code bytes[start, start + len)} with the convention and variables of
   * {@code like}; returns the refusal, or null when the output parses.
   */
  private ModelFormatException refusal(byte[] bytes, int start, int len, Tag like) throws IOException {
    Path f = tmp.resolve("graph.fb");
    Files.write(f, bytes);
    Convention conv = like.graph() == null ? Convention.LEGACY : like.graph().convention();
    try (ChannelSource src = ChannelSource.open(f)) {
      Tag t = new Tag("default", new GraphRef(src, start, len, conv), like.variables(), List.of(), null, Map.of());
      try {
        Json.parse(GraphJson.render(t, "graph.fb"));
        return null;
      } catch (ModelFormatException e) {
        assertTrue(e.getMessage().startsWith("graph.fb: ") && e.getMessage().contains(" at offset "), e.getMessage());
        return e;
      }
    }
  }

  @Test
  void sharedStructuresCannotBlowUpTheOutput() throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder();
    int big = b.createString("x".repeat(1 << 16));
    int[] same = new int[2000];
    Arrays.fill(same, big);
    int outputNames = FlatNode.createOutputNamesVector(b, same);
    FlatNode.startFlatNode(b);
    FlatNode.addOutputNames(b, outputNames);
    int node = FlatNode.endFlatNode(b);
    int[] nodes = new int[2000];
    Arrays.fill(nodes, node);
    int nodesVec = FlatGraph.createNodesVector(b, nodes);
    FlatGraph.startFlatGraph(b);
    FlatGraph.addNodes(b, nodesVec);
    b.finish(FlatGraph.endFlatGraph(b));
    byte[] bytes = b.sizedByteArray();
    ModelFormatException e = refusal(bytes, 0, bytes.length, new Tag("t", null, List.of(), List.of(), null, Map.of()));
    assertTrue(e != null && e.getMessage().contains("JSON rendering exceeds"), String.valueOf(e));
  }

  @Test
  void handBuiltNodeShowsUnknownCodesUnresolvedInputsAndNonFiniteArguments() throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder();
    int name = b.createString("odd\u0001\"op");
    int in = FlatNode.createInputPairedVector(b, new int[] {IntPair.createIntPair(b, 7, 1)});
    int params = FlatNode.createExtraParamsVector(b, new double[] {Double.NaN, Double.NEGATIVE_INFINITY, 2.5});
    int types = FlatNode.createOutputTypesVector(b, new byte[] {0, 9});
    FlatNode.startFlatNode(b);
    FlatNode.addName(b, name);
    FlatNode.addOpType(b, (byte) 99);
    FlatNode.addInputPaired(b, in);
    FlatNode.addExtraParams(b, params);
    FlatNode.addOutputTypes(b, types);
    FlatNode.addScopeId(b, 3);
    int node = FlatNode.endFlatNode(b);
    int nodes = FlatGraph.createNodesVector(b, new int[] {node});
    int outputs = FlatGraph.createOutputsVector(b, new int[] {IntPair.createIntPair(b, 8, 0)});
    FlatGraph.startFlatGraph(b);
    FlatGraph.addNodes(b, nodes);
    FlatGraph.addOutputs(b, outputs);
    b.finish(FlatGraph.endFlatGraph(b));
    byte[] bytes = b.sizedByteArray();
    Path f = tmp.resolve("hand.fb");
    Files.write(f, bytes);
    try (ChannelSource src = ChannelSource.open(f)) {
      Tag t = new Tag("t", new GraphRef(src, 0, bytes.length, Convention.LEGACY), List.of(), List.of(), null, Map.of());
      Map<String, Object> json = object(Json.parse(GraphJson.render(t, "hand.fb")));
      Map<String, Object> op = object(list(json.get("ops")).get(0));
      assertEquals("odd\u0001\"op", op.get("name"));
      assertNull(op.get("opName"));
      assertEquals(99L, op.get("opType"));
      assertEquals(List.of("#7:1"), op.get("inputs"));
      assertEquals(List.of(), op.get("outputs"));
      assertEquals(List.of("NaN", "-Infinity", 2.5), op.get("tArgs"));
      assertEquals(List.of(0L, "INT"), op.get("outputTypes"));
      assertEquals(3L, op.get("scopeId"));
      assertFalse(op.containsKey("iArgs") || op.containsKey("device") || op.containsKey("properties"));
      assertEquals(List.of("#8:0"), json.get("outputs"));
      assertEquals(List.of(), json.get("placeholders"));
      assertFalse(json.containsKey("configuration"));
    }
  }

  private static FlatGraph flatGraph(GraphRef g) {
    ByteBuffer bb = ByteBuffer.allocate((int) g.length()).order(ByteOrder.LITTLE_ENDIAN);
    try {
      g.source().readFully(bb, g.offset());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    bb.flip();
    return FlatGraph.getRootAsFlatGraph(bb);
  }

  private static List<Object> longs(long[] a) {
    List<Object> out = new ArrayList<>();
    for (long x : a) {
      out.add(x);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    assertTrue(o instanceof Map, "expected an object: " + o);
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    assertTrue(o instanceof List, "expected an array: " + o);
    return (List<Object>) o;
  }

  /** The rendering parsed strictly (every key once per object), as {@link JsonText} does. */
  static final class Json {
    private Json() {}

    static Object parse(byte[] utf8) {
      String text;
      try {
        text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(utf8)).toString();
      } catch (CharacterCodingException e) {
        throw new AssertionError("not UTF-8", e);
      }
      try {
        return JsonText.parse(text, 1024, true);
      } catch (IllegalArgumentException e) {
        throw new AssertionError("invalid JSON: " + e.getMessage(), e);
      }
    }
  }
}
