package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.format.fb.OpDescriptors.Arg;
import org.modelfs.format.fb.OpDescriptors.ArgType;
import org.modelfs.format.fb.OpDescriptors.Declaration;
import org.modelfs.format.fb.OpDescriptors.Op;

/**
 * {@link OpDescriptors}: the shipped table gives DL4J 1.0.0-M2.1's descriptors of real ops (the
 * expected values are the pbtxt's, read by eye; the interop test {@code
 * OpDescriptorTableInteropTest} checks every op against nd4j's own classes), and the parser
 * refuses every kind of bad table with its line.
 */
class OpDescriptorsTest {
  private static Op op(String name) {
    return OpDescriptors.find(name).orElseThrow(() -> new AssertionError("no descriptor for " + name));
  }

  private static List<String> names(List<Arg> args) {
    return args.stream().map(Arg::name).toList();
  }

  @Test
  void theTableHasEveryOpOfThePbtxt() {
    assertEquals(713, OpDescriptors.size());
  }

  @Test
  void clipbyvalueHasItsBoundsAsTArgs() {
    Op clip = op("clipbyvalue");
    assertEquals(Declaration.CONFIGURABLE_OP_IMPL, clip.declaration());
    assertEquals(List.of("left", "right"), names(clip.args(ArgType.DOUBLE)));
    assertEquals(new Arg("right", ArgType.DOUBLE, 1), clip.arg(ArgType.DOUBLE, 1).orElseThrow());
    assertEquals(List.of("input"), names(clip.args(ArgType.INPUT_TENSOR)));
    assertEquals(List.of("outputs"), names(clip.args(ArgType.OUTPUT_TENSOR)));
    assertEquals(List.of(), clip.args(ArgType.INT64));
    assertTrue(clip.arg(ArgType.DOUBLE, 2).isEmpty());
    assertTrue(clip.arg(ArgType.DOUBLE, -1).isEmpty());
    // the pbtxt's order: input, left, right, outputs
    assertEquals(List.of("input", "left", "right", "outputs"), names(clip.args()));
  }

  @Test
  void opNamesAreCaseSensitive() {
    // ClipByValue is another op of the pbtxt, with other argument names
    assertEquals(List.of("clipValueMin", "clipValueMax"), names(op("ClipByValue").args(ArgType.DOUBLE)));
    assertEquals(List.of("inPlace"), names(op("ClipByValue").args(ArgType.BOOL)));
    assertTrue(OpDescriptors.find("CLIPBYVALUE").isEmpty());
  }

  @Test
  void conv2dHasTenIArgsThreeInputsAndADataType() {
    Op conv = op("conv2d");
    assertEquals(Declaration.CUSTOM_OP_IMPL, conv.declaration());
    assertEquals(List.of("kH", "kW", "sH", "sW", "pH", "pW", "dH", "dW", "isSameMode", "isNCHW"),
        names(conv.args(ArgType.INT64)));
    for (int i = 0; i < 10; i++) {
      assertEquals(i, conv.args(ArgType.INT64).get(i).index());
    }
    assertEquals(List.of("input", "weights", "bias"), names(conv.args(ArgType.INPUT_TENSOR)));
    assertEquals(List.of("dtype"), names(conv.args(ArgType.DATA_TYPE)));
    assertEquals(15, conv.args().size());
  }

  @Test
  void aScalarOpIsALegacyOp() {
    Op add = op("add_scalar");
    assertEquals(Declaration.LEGACY_XYZ, add.declaration());
    assertEquals(List.of("input"), names(add.args(ArgType.INPUT_TENSOR)));
    assertEquals(List.of("inPlace"), names(add.args(ArgType.BOOL)));
    assertEquals(List.of(), add.args(ArgType.DOUBLE));
  }

  @Test
  void anArgumentNameMayRepeatUnderAnotherType() {
    Op mean = op("reduce_mean");
    assertEquals(new Arg("dimensions", ArgType.INT64, 0), mean.arg(ArgType.INT64, 0).orElseThrow());
    assertEquals(new Arg("dimensions", ArgType.INPUT_TENSOR, 1), mean.arg(ArgType.INPUT_TENSOR, 1).orElseThrow());
  }

  @Test
  void anOpWithoutArgumentsIsKnown() {
    Op placeholder = op("placeholder");
    assertEquals(Declaration.LOGIC_OP_IMPL, placeholder.declaration());
    assertEquals(List.of(), placeholder.args());
  }

  @Test
  void anUnknownOpHasNoDescriptor() {
    assertTrue(OpDescriptors.find("no_such_op").isEmpty());
    assertTrue(OpDescriptors.find("").isEmpty());
  }

  @Test
  void eachTypeNamesItsDl4jArrayAndFlatNodeSlot() {
    assertEquals("iArgs", ArgType.INT64.dl4jName());
    assertEquals(9, ArgType.INT64.nodeSlot());
    assertEquals("tArgs", ArgType.DOUBLE.dl4jName());
    assertEquals(8, ArgType.DOUBLE.nodeSlot());
    assertEquals("bArgs", ArgType.BOOL.dl4jName());
    assertEquals(10, ArgType.BOOL.nodeSlot());
    assertEquals("dArgs", ArgType.DATA_TYPE.dl4jName());
    assertEquals(22, ArgType.DATA_TYPE.nodeSlot());
  }

  // ---- the parser, on small tables

  private static Map<String, Op> parse(String table) throws IOException {
    return OpDescriptors.parse(new BufferedReader(new StringReader(table)));
  }

  @Test
  void aSmallTableParses() throws IOException {
    Map<String, Op> ops = parse("""
        # a comment
        a\tCUSTOM_OP_IMPL\tINT64\t1\ty
        a\tCUSTOM_OP_IMPL\tINT64\t0\tx
        a\tCUSTOM_OP_IMPL\tDOUBLE\t0\tx
        b\tOP_IMPL
        # end 2 3
        """);
    assertEquals(List.of("x", "y"), names(ops.get("a").args(ArgType.INT64)));
    assertEquals(List.of("y", "x", "x"), names(ops.get("a").args()));
    assertEquals(List.of(), ops.get("b").args());
  }

  static Stream<Arguments> badTables() {
    String a = "a\tCUSTOM_OP_IMPL\tINT64\t0\tx\n";
    return Stream.of(
        Arguments.of("empty", "", "line 0: the table has no end line"),
        Arguments.of("truncated", a, "line 1: the table has no end line"),
        Arguments.of("end counts ops", a + "# end 2 1\n", "line 2: the end line says"),
        Arguments.of("end counts arguments", a + "# end 1 2\n", "line 2: the end line says"),
        Arguments.of("end malformed", a + "# end 1\n", "line 2: the end line says"),
        Arguments.of("end with a sign", a + "# end +1 1\n", "line 2: not a number"),
        Arguments.of("a line after the end", a + "# end 1 1\n" + a, "line 3: a line after the end line"),
        Arguments.of("three fields", "a\tCUSTOM_OP_IMPL\tINT64\n# end 1 0\n", "line 1: 3 tab-separated fields"),
        Arguments.of("spaces for tabs", "a CUSTOM_OP_IMPL INT64 0 x\n# end 1 1\n", "line 1: 1 tab-separated fields"),
        Arguments.of("unknown type", "a\tCUSTOM_OP_IMPL\tFLOAT\t0\tx\n# end 1 1\n", "line 1: unknown argument type \"FLOAT\""),
        Arguments.of("unknown declaration", "a\tCUSTOM\tINT64\t0\tx\n# end 1 1\n", "line 1: unknown declaration type"),
        Arguments.of("lower-case type", "a\tCUSTOM_OP_IMPL\tint64\t0\tx\n# end 1 1\n", "line 1: unknown argument type"),
        Arguments.of("negative position", "a\tCUSTOM_OP_IMPL\tINT64\t-1\tx\n# end 1 1\n", "line 1: not a number"),
        Arguments.of("leading zero", "a\tCUSTOM_OP_IMPL\tINT64\t01\tx\n# end 1 1\n", "line 1: not a number"),
        Arguments.of("position too large", "a\tCUSTOM_OP_IMPL\tINT64\t1025\tx\n# end 1 1\n", "line 1: 1025 is beyond 1024"),
        Arguments.of("repeated position", a + "a\tCUSTOM_OP_IMPL\tINT64\t0\ty\n# end 1 2\n",
            "line 2: op a has two INT64 arguments at position 0: x, y"),
        Arguments.of("missing position", "a\tCUSTOM_OP_IMPL\tINT64\t1\tx\n# end 1 1\n",
            "line 1: op a has 1 INT64 arguments but none at position 0"),
        Arguments.of("an op in two runs", a + "b\tOP_IMPL\n" + a.replace("\t0\tx", "\t1\ty") + "# end 2 2\n",
            "line 3: op a appears again after other ops"),
        Arguments.of("two declarations", a + "a\tOP_IMPL\tINT64\t1\ty\n# end 1 2\n", "line 2: op a has two declaration types"),
        Arguments.of("no-arguments line beside arguments", a + "a\tCUSTOM_OP_IMPL\n# end 1 1\n",
            "line 2: op a has a line without arguments beside other lines"),
        Arguments.of("arguments after a no-arguments line", "a\tCUSTOM_OP_IMPL\n" + a + "# end 1 1\n",
            "line 2: op a has a line without arguments beside other lines"),
        Arguments.of("a comment among descriptors", a + "# note\n# end 1 1\n", "line 2: a comment line among the descriptors"),
        Arguments.of("empty argument name", "a\tCUSTOM_OP_IMPL\tINT64\t0\t\n# end 1 1\n", "line 1: an argument name of 0 characters"),
        Arguments.of("empty op name", "\tCUSTOM_OP_IMPL\tINT64\t0\tx\n# end 1 1\n", "line 1: an op name of 0 characters"),
        Arguments.of("a space in a name", "a\tCUSTOM_OP_IMPL\tINT64\t0\tx y\n# end 1 1\n", "line 1: an argument name with a space"),
        Arguments.of("a quote in a name", "a\"\tCUSTOM_OP_IMPL\n# end 1 0\n", "line 1: an op name with a space, control character, quote"),
        Arguments.of("a long name", "a\tCUSTOM_OP_IMPL\tINT64\t0\t" + "n".repeat(201) + "\n# end 1 1\n",
            "line 1: an argument name of 201 characters"),
        Arguments.of("a long line", "#" + "c".repeat(600) + "\n# end 0 0\n", "line 1: a line longer than 512"),
        Arguments.of("a long table", ("#" + "c".repeat(500) + "\n").repeat(2100) + "# end 0 0\n",
            "the table is longer than 1048576 characters"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badTables")
  void aBadTableIsRefusedWithItsLine(String what, String table, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(table));
    assertTrue(e.getMessage().contains(message), "expected \"" + message + "\" in: " + e.getMessage());
  }
}
