package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.JsonTrees.copy;
import static org.modelfs.testing.JsonTrees.list;
import static org.modelfs.testing.JsonTrees.listOf;
import static org.modelfs.testing.JsonTrees.object;
import static org.modelfs.testing.JsonTrees.objectOf;
import static org.modelfs.testing.JsonTrees.op;
import static org.modelfs.testing.JsonTrees.variable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.JournaledFileSystem;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.JsonTrees;

/**
 * Issue 19's validation proof: a table of edits of the graph.json that DL4J 1.0.0-M2.1 wrote
 * for {@code mlp_adam.fb} (matmul with tArgs alpha/beta and iArgs transX/Y/Z, softmax with iArgs
 * dimension and its echoing property, a SCALAR relu, placeholders input/label), each made as a
 * user makes it — a text edit of the rendered file or a script's edit of its parsed tree — and
 * written with {@code Files.write} through a mount opened by {@code FileSystems.newFileSystem}.
 *
 * <p>A bad edit is refused when the file is closed with a {@link GraphJsonException} whose message
 * names the op (name and opName), the argument, what was expected (type, the descriptor's
 * argument list, the position) — for malformed JSON the line and column; the mount has nothing
 * to commit, graph.json reads as before, and after the mount closes the model file is
 * byte-identical and its graph.json still the one it had. A few good edits go through the same
 * machinery to show the boundary: they are accepted and the reopened model shows them.
 *
 * <p><b>FAILED on 7ab3a5c (fixed): "malformed: not UTF-8"</b> — the refusal says "graph.json is UTF-8 text: Input
 * length = 1", the JDK decoder's words, with no line, column or byte offset: a user with a
 * 30 000-line file cannot find the byte (cause: {@code GraphJsonReader.read}, GraphJsonReader.java:103–104, decodes with
 * {@code CharsetDecoder.decode(ByteBuffer)}, whose {@code MalformedInputException} carries only
 * the length; fix: decode with {@code decode(in, out, true)} and, on an error result, say the byte
 * offset {@code in.position()} and the line and column of the characters decoded so far).
 *
 * <p><b>FAILED on 7ab3a5c (fixed): "an output another op gives too"</b> — {@code add_1}'s output set to {@code add},
 * which op {@code add} gives: accepted and committed. DL4J M2.1 wires a variable named like the
 * op first (docs/GRAPH.md §1.7: variable {@code add_1} stays {@code add_1}'s output), so the
 * graph.json says one thing and DL4J computes another; had the op another name, two ops would
 * produce {@code add}. Cause: {@code OpJsonReader.op} (OpJsonReader.java:205–214) checks only that
 * each output names a variable. Fix: refuse a variable that two ops give as an output (one map
 * variable → producing op while building), naming both ops.
 *
 * <p><b>FAILED on 7ab3a5c (fixed): "a variable's dtype as a code of no data type"</b> — {@code "dtype": 200}
 * (graph.json shows an unknown stored code as a number, so {@code JsonFields.dtypeCode} takes any
 * 0–255) is refused, but by a {@code ModelFormatException} "/graph.json:
 * FlatGraph.variables[1].dtype at offset 4100: unknown data type code 200" from reading the built
 * graph — no variable named, an offset of a buffer the user never saw, not a
 * {@link GraphJsonException}. <b>"an op's outputTypes as a code of no data type"</b>: {@code [99]}
 * is accepted and committed. Cause: {@code JsonFields.dtypeCode} (JsonFields.java:119–121) accepts
 * every code. Fix: accept a number only where the tag's graph shows the same one at that place
 * (as {@code "#node:index"} names are), else record "no data type has code 200; expected one
 * of …" at {@code where}.
 *
 * <p>The table, case by case, is in {@link #cases()}; the "#n" case needs an op that holds more
 * values than its descriptor names, which no fixture has, so it is a test of its own
 * ({@code GraphJsonBeyondTheDescriptorTest}).
 */
class GraphJsonBadEditTest {

  @TempDir
  Path dir;

  /** What a case expects: a refusal saying each of {@code says(edited text)}, or an acceptance {@code check}ed after reopening. */
  record Outcome(Function<String, List<String>> says, Consumer<Map<String, Object>> check) {
    static Outcome refused(String... fragments) {
      return new Outcome(t -> List.of(fragments), null);
    }

    static Outcome refusedAt(Function<String, List<String>> says) {
      return new Outcome(says, null);
    }

    /** Accepted; {@code check} sees graph.json of the reopened model, parsed. */
    static Outcome accepted(Consumer<Map<String, Object>> check) {
      return new Outcome(null, check);
    }
  }

  /** One row: the edit (rendered text → bytes written) and what it must give. */
  record Case(Function<String, byte[]> edit, Outcome outcome) {}

  static Stream<Arguments> cases() {
    List<Arguments> t = new ArrayList<>();

    // --- arguments: types, names, positions, counts ------------------------------------------
    t.add(row("wrong type: a string for a tArg", tree(d -> object(op(d, "matmul"), "tArgs").put("alpha", "one")),
        Outcome.refused("op 'matmul' (matmul), tArgs \"alpha\" (position 0)", "expected a number", "found \"one\"")));
    t.add(row("wrong type: a number for a bArg", tree(d -> op(d, "matmul").put("bArgs", objectOf("transposeX", 1L))),
        Outcome.refused("op 'matmul' (matmul), bArgs \"transposeX\" (position 0)", "expected true or false, found 1")));
    t.add(row("wrong type: a bad dtype name in dArgs", tree(d -> op(d, "matmul").put("dArgs", objectOf("dtype", "FLOAT33"))),
        Outcome.refused("op 'matmul' (matmul), dArgs \"dtype\" (position 0)", "\"FLOAT33\" is no data type",
            "FLOAT, DOUBLE")));
    t.add(row("wrong type: an integer iArg as a fraction", text("\"transY\": 0", "\"transY\": 0.5"),
        Outcome.refused("op 'matmul' (matmul), iArgs \"transY\" (position 1)", "expected an integer, found 0.5")));
    t.add(row("unknown argument name", tree(d -> object(op(d, "matmul"), "iArgs").put("transQ", 0L)),
        Outcome.refused("op 'matmul' (matmul), iArgs", "no argument \"transQ\"",
            "matmul's iArgs are transX (INT64), transY (INT64), transZ (INT64)")));
    t.add(row("a name of another op's argument", tree(d -> object(op(d, "matmul"), "tArgs").put("labelsSmoothing", 0.0)),
        Outcome.refused("op 'matmul' (matmul), tArgs", "no argument \"labelsSmoothing\"",
            "matmul's tArgs are alpha (DOUBLE), beta (DOUBLE)")));
    t.add(row("a name of the same op's argument of another type", tree(d -> object(op(d, "matmul"), "iArgs")
            .put("alpha", 1L)),
        Outcome.refused("op 'matmul' (matmul), iArgs", "no argument \"alpha\"", "matmul's iArgs are transX (INT64)")));
    t.add(row("a gap in positions: transposeY without transposeX",
        tree(d -> op(d, "matmul").put("bArgs", objectOf("transposeY", true))),
        Outcome.refused("op 'matmul' (matmul), bArgs", "\"transposeY\" is position 1, but 1 values are given",
            "matmul's bArgs are transposeX (BOOL), transposeY (BOOL), transposeZ (BOOL)")));
    t.add(row("too many: \"#3\" past what the op held", tree(d -> object(op(d, "matmul"), "iArgs").put("#3", 1L)),
        Outcome.refused("op 'matmul' (matmul), iArgs", "4 values, but matmul takes 3 iArgs",
            "transX (INT64), transY (INT64), transZ (INT64)")));
    t.add(row("too many: a positional array longer than the descriptor",
        tree(d -> op(d, "softmax").put("iArgs", listOf(1L, 0L))),
        Outcome.refused("op 'softmax' (softmax), iArgs", "2 values, but softmax takes 1 iArgs",
            "softmax's iArgs are dimension (INT64)")));
    t.add(row("too many: tArgs for an op whose descriptor takes none",
        tree(d -> object(op(d, "softmax"), "tArgs").put("#0", 1.0)),
        Outcome.refused("op 'softmax' (softmax), tArgs", "1 values, but softmax takes 0 tArgs")));
    t.add(row("named arguments for a legacy op (positional)", tree(d -> op(d, "relu").put("tArgs", objectOf("cutoff", 0.0))),
        Outcome.refused("op 'relu' (relu), tArgs", "positional", "write an array")));

    // --- wiring and names ----------------------------------------------------------------------
    t.add(row("an input naming no variable", tree(d -> list(op(d, "matmul"), "inputs").set(1, "layer0/Wx")),
        Outcome.refused("op 'matmul' (matmul), inputs[1]", "\"layer0/Wx\" names no variable")));
    t.add(row("an output naming no variable", tree(d -> list(op(d, "softmax"), "outputs").set(0, "outputx")),
        Outcome.refused("op 'softmax' (softmax), outputs[0]", "\"outputx\" names no variable")));
    t.add(row("a duplicate op name", tree(d -> op(d, "add_1").put("name", "softmax")),
        Outcome.refused("op 'softmax'", "ops[5] and ops[6] are both named 'softmax'")));
    t.add(row("a duplicate op id", tree(d -> op(d, "add_1").put("id", 2L)),
        Outcome.refused("op 'add_1' (add), id", "2 is the id of another op too")));
    t.add(row("a duplicate variable name", tree(d -> list(d, "variables").add(copy(variable(d, "layer0/W")))),
        Outcome.refused("variable 'layer0/W'", "named twice")));
    t.add(row("a duplicate variable id", tree(d -> variable(d, "layer0/b").put("id", listOf(6L, 0L))),
        Outcome.refused("variable 'layer0/b'", "id [6, 0] is also the id of variable 'layer0/W'", "'layer0/W'")));
    t.add(row("an unknown opName on a CUSTOM op added", tree(d -> {
      list(d, "variables").add(objectOf("name", "extra", "kind", "ARRAY", "dtype", "FLOAT"));
      list(d, "ops").add(objectOf("name", "extra", "opName", "Softmax", "opType", "CUSTOM",
          "inputs", listOf("logits"), "outputs", listOf("extra")));
    }), Outcome.refused("op 'extra' (Softmax), opName", "\"Softmax\" is no op of DL4J 1.0.0-M2.1", "case-sensitive")));
    t.add(row("an op renamed to another variable's name", tree(d -> op(d, "matmul_1").put("name", "layer0/W")),
        Outcome.refused("params/layer0/W: a variable named like op 'layer0/W' (matmul) that does not produce it",
            "DL4J would make it that op's output")));

    t.add(row("an output another op gives too", tree(d -> list(op(d, "add_1"), "outputs").set(0, "add")),
        Outcome.refused("op 'add_1' (add), outputs[0]", "'add'")));

    // --- variables against their arrays, lists -----------------------------------------------
    t.add(row("a variable's dtype that disagrees with its array", tree(d -> variable(d, "layer0/W").put("dtype", "DOUBLE")),
        Outcome.refused("variable 'layer0/W', dtype", "expected FLOAT, the type of its array, found DOUBLE")));
    t.add(row("a variable's shape that disagrees with its array",
        tree(d -> variable(d, "layer0/W").put("shape", listOf(8L, 4L))),
        Outcome.refused("variable 'layer0/W', shape", "expected [4, 8], the shape of its array, found [8, 4]")));
    t.add(row("a variable's dtype as a code of no data type",
        tree(d -> variable(d, "add").put("dtype", 200L)),
        Outcome.refused("variable 'add', dtype", "200")));
    t.add(row("an op's outputTypes as a code of no data type",
        tree(d -> op(d, "add").put("outputTypes", listOf(99L))),
        Outcome.refused("op 'add' (add), outputTypes[0]", "99")));
    t.add(row("PLACEHOLDER for a variable with an array", tree(d -> variable(d, "layer0/W").put("kind", "PLACEHOLDER")),
        Outcome.refused("variable 'layer0/W', kind", "PLACEHOLDER holds no array", "params/layer0/W")));
    t.add(row("placeholders naming a non-placeholder", tree(d -> list(d, "placeholders").add("layer0/W")),
        Outcome.refused("graph.json placeholders", "\"layer0/W\" is a VARIABLE, not a PLACEHOLDER")));
    t.add(row("lossVariables naming no variable", tree(d -> list(d, "lossVariables").set(0, "losss")),
        Outcome.refused("graph.json lossVariables", "\"losss\" names no variable")));

    // --- unknown keys, properties -----------------------------------------------------------
    t.add(row("an unknown top-level key", tree(d -> d.put("comment", "mine")),
        Outcome.refused("graph.json: unknown key \"comment\"", "variables, ops")));
    t.add(row("an unknown op key", tree(d -> op(d, "matmul").put("attrs", objectOf())),
        Outcome.refused("op 'matmul' (matmul): unknown key \"attrs\"", "iArgs")));
    t.add(row("an unknown variable key", tree(d -> variable(d, "layer0/W").put("trainable", true)),
        Outcome.refused("variable 'layer0/W': unknown key \"trainable\"", "dtype")));
    t.add(row("a property edited to disagree with its named argument", tree(d -> {
      @SuppressWarnings("unchecked")
      Map<String, Object> p = (Map<String, Object>) list(op(d, "softmax"), "properties").get(0);
      p.put("l", listOf(0L));
    }), Outcome.refused("op 'softmax' (softmax), property 'dimension'", "says [0], but iArgs \"dimension\" is 1")));
    t.add(row("an argument and its property changed to disagree", tree(d -> {
      object(op(d, "softmax"), "iArgs").put("dimension", 0L);
      @SuppressWarnings("unchecked")
      Map<String, Object> p = (Map<String, Object>) list(op(d, "softmax"), "properties").get(0);
      p.put("l", listOf(-1L));
    }), Outcome.refused("op 'softmax' (softmax), property 'dimension'", "says [-1], but iArgs \"dimension\" is 0")));

    // --- malformed JSON: line and column ------------------------------------------------------
    t.add(row("malformed: truncated", raw(s -> s.substring(0, s.indexOf("\"transY\": ") + "\"transY\": ".length())),
        Outcome.refusedAt(s -> List.of("malformed JSON", "the text ends where a value should be", at(s, s.length())))));
    t.add(row("malformed: a trailing comma", text("\"outputIds\": [10]\n", "\"outputIds\": [10],\n"),
        Outcome.refusedAt(s -> List.of("malformed JSON", "a key must be a string", at(s, skipSpace(s, s.indexOf("[10],") + 5))))));
    t.add(row("malformed: a NaN literal", text("\"alpha\": 1.0", "\"alpha\": NaN"),
        Outcome.refusedAt(s -> List.of("malformed JSON", "unexpected 'N'", at(s, s.indexOf("NaN"))))));
    t.add(row("malformed: a duplicate key", text("\"transX\": 0,", "\"transX\": 0,\n        \"transX\": 1,"),
        Outcome.refusedAt(s -> List.of("malformed JSON", "the key \"transX\" twice in one object",
            at(s, s.indexOf("\"transX\"", s.indexOf("\"transX\"") + 1) + "\"transX\"".length())))));
    t.add(row("malformed: not UTF-8", GraphJsonBadEditTest::notUtf8,
        Outcome.refusedAt(s -> List.of("UTF-8", at(s, s.indexOf("\"scopeName\": \"") + "\"scopeName\": \"".length())))));

    // --- good edits through the same machinery -----------------------------------------------
    t.add(row("GOOD: a named tArg edited", text("\"alpha\": 1.0", "\"alpha\": 0.5"),
        Outcome.accepted(d -> assertEquals(0.5, object(op(d, "matmul"), "tArgs").get("alpha")))));
    t.add(row("GOOD: a named iArg edited, its echoing property follows", tree(d -> object(op(d, "softmax"), "iArgs")
            .put("dimension", 0L)),
        Outcome.accepted(d -> {
          assertEquals(0L, object(op(d, "softmax"), "iArgs").get("dimension"));
          @SuppressWarnings("unchecked")
          Map<String, Object> p = (Map<String, Object>) list(op(d, "softmax"), "properties").get(0);
          assertEquals(List.of(0L), p.get("l"), "the property follows its argument");
        })));
    t.add(row("GOOD: an op renamed to a fresh name", tree(d -> op(d, "matmul_1").put("name", "second_matmul")),
        Outcome.accepted(d -> assertEquals("matmul", op(d, "second_matmul").get("opName")))));
    t.add(row("GOOD: the same graph, reformatted (nothing to commit)", tree(d -> { }), Outcome.accepted(null)));
    return t.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aWrittenGraphJsonIsCheckedWhole(String name, Case c) throws IOException {
    Path model = Files.copy(Fixtures.get("mlp_adam.fb"), dir.resolve("m.fb"));
    byte[] before = Files.readAllBytes(model);
    String shown;
    byte[] written;
    try (FileSystem fs = FileSystems.newFileSystem(model)) {
      Path gj = fs.getPath("/graph.json");
      shown = Files.readString(gj);
      written = c.edit().apply(shown);
      assertFalse(Arrays.equals(written, shown.getBytes(StandardCharsets.UTF_8)), "the edit changed the text");
      if (c.outcome().says() != null) {
        GraphJsonException e = assertThrows(GraphJsonException.class, () -> Files.write(gj, written));
        String text = new String(written, StandardCharsets.UTF_8);
        for (String fragment : c.outcome().says().apply(text)) {
          assertTrue(e.getMessage().contains(fragment), "expected «" + fragment + "» in: " + e.getMessage());
        }
        assertEquals(shown, Files.readString(gj), "graph.json reads as before");
        assertFalse(((JournaledFileSystem) fs).hasPendingChanges(), "nothing to commit");
      } else {
        Files.write(gj, written);
        assertEquals(c.outcome().check() != null, ((JournaledFileSystem) fs).hasPendingChanges());
      }
    }
    String after;
    try (FileSystem fs = FileSystems.newFileSystem(model)) {
      after = Files.readString(fs.getPath("/graph.json"));
    }
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(model), left.toList(), "nothing beside the model: no journal, lock or temporary left");
    }
    if (c.outcome().check() == null) {
      assertArrayEquals(before, Files.readAllBytes(model), "the model file is byte-identical");
      assertEquals(shown, after, "graph.json after the mount closed");
    } else {
      assertNotEquals(shown, after);
      c.outcome().check().accept(JsonTrees.parse(after));
    }
  }

  // --- how a row is made ----------------------------------------------------------------------

  private static Arguments row(String name, Function<String, byte[]> edit, Outcome outcome) {
    return Arguments.of(name, new Case(edit, outcome));
  }

  /** An edit of the parsed tree, written back as compact JSON. */
  private static Function<String, byte[]> tree(Consumer<Map<String, Object>> edit) {
    return s -> JsonTrees.edit(s, edit).getBytes(StandardCharsets.UTF_8);
  }

  /** A text edit: the first occurrence of {@code from} replaced (it must occur). */
  private static Function<String, byte[]> text(String from, String to) {
    return s -> {
      int i = s.indexOf(from);
      assertTrue(i >= 0, "the rendered graph.json has " + from);
      return (s.substring(0, i) + to + s.substring(i + from.length())).getBytes(StandardCharsets.UTF_8);
    };
  }

  private static Function<String, byte[]> raw(Function<String, String> edit) {
    return s -> edit.apply(s).getBytes(StandardCharsets.UTF_8);
  }

  /** The first {@code "scopeName": ""} given the bytes C3 28 (a lead byte, then no continuation). */
  private static byte[] notUtf8(String s) {
    String key = "\"scopeName\": \"";
    int i = s.indexOf(key) + key.length();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(s.substring(0, i).getBytes(StandardCharsets.UTF_8));
    out.write(0xC3);
    out.write(0x28);
    out.writeBytes(s.substring(i).getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** JsonText's "(line L, column C)" of character index {@code i} of {@code s}. */
  static String at(String s, int i) {
    int line = 1 + (int) s.substring(0, i).chars().filter(ch -> ch == '\n').count();
    int col = i - s.lastIndexOf('\n', i - 1);
    return "(line " + line + ", column " + col + ")";
  }

  private static int skipSpace(String s, int i) {
    while (Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return i;
  }
}
