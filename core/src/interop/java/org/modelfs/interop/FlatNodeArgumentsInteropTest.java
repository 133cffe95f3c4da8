package org.modelfs.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.FbBuffer;
import org.modelfs.format.fb.FbTable;
import org.modelfs.format.fb.FbVector;
import org.modelfs.format.fb.Slots;
import org.modelfs.io.HeapSource;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The facts of docs/GRAPH.md §1.7, kept true: which bytes of a FlatNode DL4J 1.0.0-M2.1 executes.
 * Each case patches a few bytes of a DL4J-saved fb in place (positions from ModelFS's own reader:
 * {@link FbTable}, {@link FbVector}), loads it with {@code SameDiff.fromFlatFile} and compares what
 * DL4J computes, exactly, with DL4J's result for the graph built with the new constant
 * ({@link GraphJsonEditInteropTest#graph}) or with the unpatched file.
 *
 * <p>If a DL4J upgrade makes one of these fail, §1.7 and the graph.json write path that relies on
 * it (named arguments are written to the positional fields, properties are not what DL4J runs,
 * op names must not be variable names) need a second look.
 */
@Tag("interop")
class FlatNodeArgumentsInteropTest {
  @TempDir Path tmp;

  private static final GraphJsonEditInteropTest.Consts ORIGINAL = GraphJsonEditInteropTest.Consts.ORIGINAL;
  // FlatNode slots (docs/FORMATS.md §3.4)
  private static final int N_NAME = 1;
  private static final int N_PROPERTIES = 4;
  private static final int N_EXTRA_PARAMS = 8;
  private static final int N_EXTRA_INTEGER = 9;
  private static final int N_OP_NAME = 16;
  private static final int N_SCALAR = 18;
  // FlatProperties slots (docs/FORMATS.md §3.5)
  private static final int P_NAME = 0;
  private static final int P_LONGS = 2;
  private static final int P_DOUBLES = 3;

  /** The bytes DL4J saved for the original graph. */
  private byte[] saved;
  private Map<String, INDArray> before;

  @BeforeEach
  void save() throws IOException {
    Path fb = tmp.resolve("dl4j.fb");
    GraphJsonEditInteropTest.graph(ORIGINAL).asFlatFile(fb.toFile());
    saved = Files.readAllBytes(fb);
    before = GraphJsonEditInteropTest.run(fb);
  }

  /** The FlatNode whose {@code opName} is {@code opName} in {@code bytes} (a whole fb file). */
  private static FbTable node(byte[] bytes, String opName) throws ModelFormatException {
    FbTable root = new FbBuffer(new HeapSource("patched.fb", bytes), 0, bytes.length, "patched.fb").root("FlatGraph");
    FbVector nodes = root.getVector(Slots.G_NODES, "nodes", 4);
    for (int i = 0; i < nodes.length(); i++) {
      if (opName.equals(nodes.getTable(i).getString(N_OP_NAME, "opName"))) {
        return nodes.getTable(i);
      }
    }
    return fail("no node with opName " + opName);
  }

  /** A FlatNode's FlatProperties entry {@code name}. */
  private static FbTable property(FbTable node, String name) throws ModelFormatException {
    FbVector props = node.getVector(N_PROPERTIES, "properties", 4);
    for (int i = 0; props != null && i < props.length(); i++) {
      if (name.equals(props.getTable(i).getString(P_NAME, "name"))) {
        return props.getTable(i);
      }
    }
    return fail("no property " + name);
  }

  private static ByteBuffer le(byte[] bytes) {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Element {@code i} of a vector of doubles or longs: its position in the file. */
  private static int at(FbVector v, int i) {
    return Math.toIntExact(v.absoluteDataOffset() + 8L * i);
  }

  /** Replaces a FlatNode's {@code name} by one of the same UTF-8 length, in place. */
  private static void rename(byte[] bytes, FbTable node, String to) {
    ByteBuffer b = le(bytes);
    int table = Math.toIntExact(node.absolutePosition());
    int vtable = table - b.getInt(table);
    int field = table + b.getShort(vtable + 4 + 2 * N_NAME);
    int string = field + b.getInt(field);
    byte[] name = to.getBytes(StandardCharsets.UTF_8);
    assertEquals(b.getInt(string), name.length, "a same-length name");
    System.arraycopy(name, 0, bytes, string + 4, name.length);
  }

  private Path write(String name, byte[] bytes) throws IOException {
    return Files.write(tmp.resolve(name + ".fb"), bytes);
  }

  private Map<String, INDArray> expected(GraphJsonEditInteropTest.Consts c) throws IOException {
    Path fb = tmp.resolve("expected.fb");
    Files.deleteIfExists(fb);
    GraphJsonEditInteropTest.graph(c).asFlatFile(fb.toFile());
    return GraphJsonEditInteropTest.run(fb);
  }

  private static void assertSame(Map<String, INDArray> expected, Map<String, INDArray> actual, String what) {
    for (Map.Entry<String, INDArray> e : expected.entrySet()) {
      assertArrayEquals(e.getValue().dup().data().asFloat(), actual.get(e.getKey()).dup().data().asFloat(), what + ": " + e.getKey());
    }
  }

  private void assertChangesSomething(Map<String, INDArray> expected) {
    assertFalse(expected.keySet().stream().allMatch(k -> Arrays.equals(
        expected.get(k).dup().data().asFloat(), before.get(k).dup().data().asFloat())), "the patch changes an output");
  }

  @Test
  void clipByValueRunsItsTArgsNotItsProperties() throws Exception {
    assertEquals(2, node(saved, "ClipByValue").getVector(N_EXTRA_PARAMS, "extraParams", 8).length(),
        "sd.math.clipByValue writes opName ClipByValue with two tArgs");

    byte[] tArgs = saved.clone();
    FbVector t = node(tArgs, "ClipByValue").getVector(N_EXTRA_PARAMS, "extraParams", 8);
    le(tArgs).putDouble(at(t, 0), -0.5).putDouble(at(t, 1), 0.5);
    Map<String, INDArray> want = expected(ORIGINAL.withClip(-0.5, 0.5));
    assertChangesSomething(want);
    assertSame(want, GraphJsonEditInteropTest.run(write("targs", tArgs)), "tArgs patched");

    byte[] props = saved.clone();
    FbTable n = node(props, "ClipByValue");
    for (String[] p : new String[][] {{"clipValueMin", "-0.5"}, {"clipValueMax", "0.5"}}) {
      FbVector d = property(n, p[0]).getVector(P_DOUBLES, "d", 8);
      assertEquals(1, d.length(), p[0] + " is a property of one double");
      le(props).putDouble(at(d, 0), Double.parseDouble(p[1]));
    }
    Path patched = write("props", props);
    SameDiff loaded = SameDiff.fromFlatFile(patched.toFile());
    Object op = loaded.getOpById("ClipByValue");
    Field min = op.getClass().getDeclaredField("clipValueMin");
    min.setAccessible(true);
    assertEquals(-0.5, min.get(op), "the property reached the Java field");
    assertArrayEquals(new double[] {-1.0, 1.0}, ((DynamicCustomOp) op).tArgs(), "the tArgs are the file's");
    assertSame(before, GraphJsonEditInteropTest.run(loaded), "properties patched: nothing changes");
  }

  /** The backward pass too: the gradient of {@code sum(clipByValue(v))} follows the tArgs, not the properties. */
  @Test
  void clipByValuesGradientFollowsItsTArgs() throws Exception {
    SameDiff g = SameDiff.create();
    SDVariable v = g.var("v", Nd4j.createFromArray(new float[] {-3f, -0.75f, 0.25f, 0.75f, 2f}));
    g.math.clipByValue("c", v, -1.0, 1.0).sum("loss");
    g.setLossVariables("loss");
    Path fb = tmp.resolve("grad.fb");
    g.asFlatFile(fb.toFile());
    byte[] original = Files.readAllBytes(fb);
    assertArrayEquals(new float[] {0, 1, 1, 1, 0}, gradient(fb), "the original's gradient");

    byte[] tArgs = original.clone();
    FbVector t = node(tArgs, "ClipByValue").getVector(N_EXTRA_PARAMS, "extraParams", 8);
    le(tArgs).putDouble(at(t, 0), -0.5).putDouble(at(t, 1), 0.5);
    assertArrayEquals(new float[] {0, 0, 1, 0, 0}, gradient(write("grad-targs", tArgs)), "tArgs patched");

    byte[] props = original.clone();
    FbTable n = node(props, "ClipByValue");
    le(props).putDouble(at(property(n, "clipValueMin").getVector(P_DOUBLES, "d", 8), 0), -0.5);
    le(props).putDouble(at(property(n, "clipValueMax").getVector(P_DOUBLES, "d", 8), 0), 0.5);
    assertArrayEquals(new float[] {0, 1, 1, 1, 0}, gradient(write("grad-props", props)), "properties patched");
  }

  private static float[] gradient(Path fb) throws IOException {
    INDArray grad = SameDiff.fromFlatFile(fb.toFile()).calculateGradients(Map.of(), "v").get("v");
    assertNotNull(grad, "DL4J computes the gradient of v");
    return grad.dup().data().asFloat();
  }

  /** A legacy scalar op's value is its node's {@code scalar} array (stored big-endian in a DL4J fb). */
  @Test
  void aScalarOpRunsItsScalarArray() throws Exception {
    byte[] bytes = saved.clone();
    FbTable node = node(bytes, "add_scalar");
    FbVector ep = node.getVector(N_EXTRA_PARAMS, "extraParams", 8);
    assertEquals(0, ep == null ? 0 : ep.length(), "add_scalar has no extraParams");
    FbTable scalar = node.getTable(N_SCALAR, "scalar");
    FbVector buffer = scalar.getVector(Slots.A_BUFFER, "buffer", 1);
    assertArrayEquals(new byte[] {0x40, 0, 0, 0}, buffer.bytes(), "2.0f, big-endian");
    assertEquals(1, scalar.getByte(Slots.A_BYTE_ORDER, (byte) 0), "byteOrder BE");
    ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN).putFloat(Math.toIntExact(buffer.absoluteDataOffset()), 5f);
    Map<String, INDArray> want = expected(ORIGINAL.withAdd(5.0));
    assertChangesSomething(want);
    assertSame(want, GraphJsonEditInteropTest.run(write("scalar", bytes)), "scalar patched");
  }

  /** softmax's {@code dimension} and cumsum's {@code exclusive}: the iArgs run, the properties of the same names do not. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"softmax", "cumsum"})
  void iArgsRunAndTheirPropertiesDoNot(String opName) throws Exception {
    boolean softmax = opName.equals("softmax");
    String arg = softmax ? "dimension" : "exclusive";
    long value = softmax ? 0 : 1;

    byte[] iArgs = saved.clone();
    FbVector ia = node(iArgs, opName).getVector(N_EXTRA_INTEGER, "extraInteger", 8);
    assertEquals(softmax ? List.of(1L) : List.of(0L, 0L, 1L), Arrays.stream(ia.longs(8)).boxed().toList(),
        opName + "'s iArgs as DL4J saved them");
    le(iArgs).putLong(at(ia, 0), value);
    Map<String, INDArray> want = expected(softmax ? ORIGINAL.withSoftmaxDim(0) : ORIGINAL.withCumsumExclusive(true));
    assertChangesSomething(want);
    assertSame(want, GraphJsonEditInteropTest.run(write("iargs-" + opName, iArgs)), "iArgs patched");

    byte[] props = saved.clone();
    FbVector l = property(node(props, opName), arg).getVector(P_LONGS, "l", 8);
    assertEquals(1, l.length(), arg + " is a property of one long");
    le(props).putLong(at(l, 0), value);
    assertSame(before, GraphJsonEditInteropTest.run(write("props-" + opName, props)), "property patched: nothing changes");
  }

  /** An op's name is its FlatNode's {@code name}: renamed, DL4J finds it under the new name and computes the same. */
  @Test
  void aRenamedOpRunsUnderItsNewName() throws Exception {
    byte[] bytes = saved.clone();
    rename(bytes, node(bytes, "ClipByValue"), "myClipOp_01");
    SameDiff loaded = SameDiff.fromFlatFile(write("renamed", bytes).toFile());
    assertEquals(List.of("myClipOp_01", "add_scalar", "mul_scalar", "matmul", "softmax", "cumsum"),
        List.copyOf(loaded.getOps().keySet()));
    assertEquals("ClipByValue", loaded.getOpById("myClipOp_01").opName());
    assertEquals(List.of("clip"), loaded.getOps().get("myClipOp_01").getOutputsOfOp());
    assertEquals("myClipOp_01", loaded.getVariables().get("clip").getOutputOfOp());
    assertSame(before, GraphJsonEditInteropTest.run(loaded), "renamed");
  }

  /**
   * An op named like another op's output variable takes that variable as its output
   * ({@code SameDiff.fromFlatBuffers} looks up variables by the op's name first): {@code matmul}
   * renamed {@code scaled} makes {@code scaled} its own input and output, and DL4J computes
   * nothing from there on.
   */
  @Test
  void anOpNamedLikeAVariableTakesItAsItsOutput() throws Exception {
    byte[] bytes = saved.clone();
    rename(bytes, node(bytes, "matmul"), "scaled");
    SameDiff loaded = SameDiff.fromFlatFile(write("clash", bytes).toFile());
    assertEquals("scaled", loaded.getVariables().get("scaled").getOutputOfOp(), "scaled is made by the renamed matmul");
    assertEquals(List.of("scaled"), loaded.getOps().get("scaled").getOutputsOfOp());
    Map<String, INDArray> out = loaded.output(Map.of("x", GraphJsonEditInteropTest.input()), "clip", "sm");
    assertNotNull(out.get("clip"), "what comes before still runs");
    assertNull(out.get("sm"), "nothing after the clash is computed");
  }
}
