package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Fixtures;

/**
 * {@code graph MODEL[#TAG] [--json]}: graph.json byte for byte, the per-op summary (named and
 * positional arguments), tag selection, the documented edit ({@code graph --json}, an edit,
 * {@code cp} back), errors, and that the summary streams.
 */
class GraphCommandTest {
  @TempDir Path tmp;

  /** Runs the CLI; stdout as bytes. */
  private static byte[] stdout(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** graph.json of {@code tag} as a read-only mount of {@code model} reads it. */
  private static byte[] mounted(Path model, String tag) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.readAllBytes(fs.getPath("/tags", tag, "graph.json"));
    }
  }

  private Path copy(String fixture) throws IOException {
    Path m = tmp.resolve("m.fb");
    Files.copy(Fixtures.get(fixture), m, StandardCopyOption.REPLACE_EXISTING);
    return m;
  }

  @Test
  void jsonIsTheMountsGraphJsonForEveryFixture() throws Exception {
    List<Path> all = Fixtures.all();
    assertTrue(all.size() >= 13 && all.stream().anyMatch(p -> p.toString().contains("tf-import")), all.toString());
    for (Path fb : all) {
      byte[] expected = mounted(fb, "default");
      assertTrue(expected.length > 0, fb.toString());
      assertArrayEquals(expected, stdout("graph", fb.toString(), "--json"), fb.toString());
    }
  }

  @Test
  void summaryShowsNamedArgumentsOfCustomOps() {
    MainTest.Result r = MainTest.run("graph", Fixtures.get("mlp_adam.fb").toString());
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("matmul  matmul(transX=0, transY=0, transZ=0, alpha=1.0, beta=0.0)  input, layer0/W -> matmul",
        lines.get(0));
    assertTrue(lines.contains("softmax  softmax(dimension=1)  logits -> output"), r.out());
    assertTrue(lines.contains("add_1  add()  matmul_1, \"&MyParam*\" -> logits"), r.out());
    assertTrue(lines.contains("softmax_cross_entropy_loss  softmax_cross_entropy_loss(lossReduce=3,"
        + " labelsSmoothing=0.0)  logits, sd_var, label -> loss"), r.out());
    assertEquals(List.of("placeholders: input, label", "loss variables: loss", "outputs: (none)"),
        lines.subList(lines.size() - 3, lines.size()));
    assertEquals(8 + 3, lines.size(), r.out()); // 8 ops
  }

  @Test
  void summaryShowsPositionalArgumentsOfLegacyOps() {
    MainTest.Result relu = MainTest.run("graph", Fixtures.get("mlp_adam.fb").toString());
    assertTrue(relu.out().lines().anyMatch("relu  relu(scalar=0.0)  add -> relu"::equals), relu.out());
    MainTest.Result all = MainTest.run("graph", Fixtures.get("tf-import/reduce_all_rank2_d0_keep.fb").toString());
    assertEquals(0, all.code(), all.err());
    assertEquals("All  all(bArgs=[true, true], dimensions=[0])  Variable -> All\n"
        + "placeholders: (none)\nloss variables: (none)\noutputs: (none)\n", all.out());
    MainTest.Result loop = MainTest.run("graph", Fixtures.get("tf-import/simplewhile_1.fb").toString());
    assertTrue(loop.out().lines().anyMatch("while/Enter  enter(iArgs=[27])  input_0 -> while/Enter"::equals), loop.out());
  }

  /**
   * The edit docs/CLI.md shows: {@code graph --json > g.json}, change a tArg, {@code cp g.json
   * m.fb:/tags/default/graph.json}; then graph.json is the edited file and the summary shows it.
   */
  @Test
  void editedGraphJsonCopiedBackWithCp() throws Exception {
    Path m = copy("mlp_adam.fb");
    Path g = tmp.resolve("g.json");
    Files.write(g, stdout("graph", m.toString(), "--json"));
    String json = Files.readString(g);
    int at = json.indexOf("\"alpha\": 1.0");
    assertTrue(at > 0, json);
    String edited = json.substring(0, at) + "\"alpha\": 2.5" + json.substring(at + "\"alpha\": 1.0".length());
    Files.writeString(g, edited);
    MainTest.Result cp = MainTest.run("cp", g.toString(), m + ":/tags/default/graph.json", "--quiet");
    assertEquals(0, cp.code(), cp.err());
    assertEquals(edited, new String(stdout("graph", m.toString(), "--json"), StandardCharsets.UTF_8));
    assertTrue(MainTest.run("graph", m.toString()).out().startsWith(
        "matmul  matmul(transX=0, transY=0, transZ=0, alpha=2.5, beta=0.0)  input, layer0/W -> matmul\n"));
    // the root alias is the newest tag's graph.json: the same edit through it
    Files.writeString(g, edited.replace("\"alpha\": 2.5", "\"alpha\": -1.5"));
    assertEquals(0, MainTest.run("cp", g.toString(), m + ":/graph.json", "--quiet").code());
    assertTrue(MainTest.run("graph", m.toString()).out().contains("alpha=-1.5"));
    // a refused edit changes nothing and says why
    byte[] before = Files.readAllBytes(m);
    Files.writeString(g, edited.replace("\"transX\": 0", "\"transX\": \"x\""));
    MainTest.Result bad = MainTest.run("cp", g.toString(), m + ":/tags/default/graph.json", "--quiet");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("iArgs \"transX\" (position 0): expected an integer"), bad.err());
    assertArrayEquals(before, Files.readAllBytes(m));
  }

  /** The Java docs/CLI.md shows for the same edit: {@code Files.copy} into a writable mount, committed on close. */
  @Test
  void editedGraphJsonCopiedBackWithFilesCopy() throws Exception {
    Path m = copy("mlp_adam.fb");
    Path g = tmp.resolve("g.json");
    Files.writeString(g, new String(stdout("graph", m.toString(), "--json"), StandardCharsets.UTF_8)
        .replace("\"dimension\": 1", "\"dimension\": 0"));
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.copy(g, fs.getPath("/tags/default/graph.json"), StandardCopyOption.REPLACE_EXISTING);
    }
    // softmax's property "dimension" repeats the argument and follows it (docs/GRAPH.md)
    assertTrue(new String(stdout("graph", m.toString(), "--json"), StandardCharsets.UTF_8).contains(
        "\"iArgs\": {\n        \"dimension\": 0\n      },"));
    assertTrue(MainTest.run("graph", m.toString()).out().contains("softmax  softmax(dimension=0)  logits -> output\n"));
  }

  @Test
  void hashTagPicksTheTagAndTheNewestIsTheDefault() throws Exception {
    Path sdz = tmp.resolve("m.sdz");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), sdz.toString(), "--quiet").code());
    assertEquals(0, MainTest.run("tag", "add", sdz.toString(), "v2", "--quiet").code());
    Path g = tmp.resolve("g.json");
    Files.write(g, stdout("graph", sdz + "#v2", "--json"));
    Files.writeString(g, Files.readString(g).replace("\"dimension\": 1", "\"dimension\": 0"));
    MainTest.Result cp = MainTest.run("cp", g.toString(), sdz + ":/tags/v2/graph.json", "--quiet");
    assertEquals(0, cp.code(), cp.err());

    String newest = MainTest.run("graph", sdz.toString()).out();
    assertTrue(newest.contains("softmax  softmax(dimension=0)  logits -> output\n"), newest);
    assertEquals(newest, MainTest.run("graph", sdz + "#V2").out()); // tags match in any case
    String old = MainTest.run("graph", sdz + "#default").out();
    assertTrue(old.contains("softmax  softmax(dimension=1)  logits -> output\n"), old);
    assertArrayEquals(mounted(sdz, "default"), stdout("graph", sdz + "#DEFAULT", "--json"));
    assertArrayEquals(mounted(sdz, "v2"), stdout("graph", sdz.toString(), "--json"));
    assertFalse(Arrays.equals(mounted(sdz, "default"), mounted(sdz, "v2")));
  }

  @Test
  void errorsNameTheFileAndExit2() throws Exception {
    Path m = copy("mlp_adam.fb");
    byte[] before = Files.readAllBytes(m);
    MainTest.Result tag = MainTest.run("graph", m + "#nope");
    assertEquals(2, tag.code());
    assertEquals("modelfs graph: no such file: " + m + ": no tag 'nope' (its tags: default)\n", tag.err());
    assertEquals("", tag.out());

    Path text = tmp.resolve("notes.fb");
    Files.writeString(text, "not a model at all, just some text in a file");
    MainTest.Result notModel = MainTest.run("graph", text.toString(), "--json");
    assertEquals(2, notModel.code());
    assertTrue(notModel.err().startsWith("modelfs graph: " + text + ": ") && notModel.err().contains("not a SameDiff model"),
        notModel.err());

    MainTest.Result missing = MainTest.run("graph", tmp.resolve("gone.fb").toString());
    assertEquals(2, missing.code());
    assertTrue(missing.err().startsWith("modelfs graph: no such file: " + tmp.resolve("gone.fb")), missing.err());

    MainTest.Result usage = MainTest.run("graph", m.toString(), "extra");
    assertEquals(2, usage.code());
    assertTrue(usage.err().contains("usage: modelfs graph MODEL[#TAG] [--json]"), usage.err());
    assertEquals(2, MainTest.run("graph", m.toString(), "--bytes").code());

    stdout("graph", m.toString());
    stdout("graph", m.toString(), "--json");
    assertArrayEquals(before, Files.readAllBytes(m)); // read-only: nothing written
    try (var s = Files.list(tmp)) {
      assertEquals(List.of("m.fb", "notes.fb"), s.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void listedInHelp() {
    assertTrue(MainTest.run("help").out().contains("  graph     Show a tag's graph"));
    MainTest.Result h = MainTest.run("graph", "--help");
    assertEquals(0, h.code());
    assertTrue(h.out().startsWith("usage: modelfs graph MODEL[#TAG] [--json]\n"), h.out());
    assertTrue(h.out().contains("  modelfs cp g.json model.sdz:/tags/v2/graph.json"), h.out());
  }

  /**
   * A graph of 100,000 ops: the first op's line is out before a tenth of the document has been
   * read, and list values past {@link GraphCommand#MAX_VALUES} are counted, not shown.
   */
  @Test
  void summaryStreams() throws Exception {
    int ops = 100_000;
    long[] read = {0};
    long[] readAtFirstLine = {-1};
    Reader doc = new Reader() {
      private int op = -1; // -1: the head, ops, then the tail
      private String chunk = "{\n  \"variables\": [{\"name\": \"x\", \"shape\": [1]}],\n  \"ops\": [\n";
      private int pos;

      @Override
      public int read(char[] buf, int off, int len) {
        if (pos == chunk.length()) {
          if (++op > ops) {
            return -1;
          }
          pos = 0;
          chunk = op < ops
              ? (op > 0 ? ",\n" : "") + "{\"name\": \"op" + op + "\", \"opName\": \"add\", \"inputs\": [\"x\", \"y\"],"
                  + " \"outputs\": [\"op" + op + "\"], \"iArgs\": [" + "7, ".repeat(40) + "7], \"tArgs\": {\"alpha\": NaNX}"
                  .replace("NaNX", "\"NaN\"") + ", \"properties\": [{\"name\": \"p\", \"d\": [1.5]}]}"
              : "\n  ],\n  \"placeholders\": [\"x\"],\n  \"lossVariables\": [],\n  \"outputs\": [\"op7\"]\n}\n";
        }
        int n = Math.min(len, chunk.length() - pos);
        chunk.getChars(pos, pos + n, buf, off);
        pos += n;
        read[0] += n;
        return n;
      }

      @Override
      public void close() {}
    };
    long[] lines = {0};
    String[] first = {null};
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    OutputStream counting = new OutputStream() {
      @Override
      public void write(int b) {
        if (b == '\n') {
          if (lines[0]++ == 0) {
            readAtFirstLine[0] = read[0];
            first[0] = line.toString(StandardCharsets.UTF_8);
          }
        } else if (lines[0] == 0) {
          line.write(b);
        }
      }
    };
    GraphCommand.summarize(new JsonStream(new BufferedReader(doc, 8192), "big"), new PrintStream(counting, true,
        StandardCharsets.UTF_8));
    assertEquals(ops + 3, lines[0]);
    assertEquals("op0  add(iArgs=[7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, … (25 more)], alpha=NaN)  x, y -> op0",
        first[0]);
    assertTrue(readAtFirstLine[0] > 0 && readAtFirstLine[0] < read[0] / 10, readAtFirstLine[0] + " of " + read[0]);
  }

  @Test
  void malformedJsonIsRefusedWithLineAndColumn() {
    for (String[] c : List.of(
        new String[] {"{\"ops\": [\n  {\"name\": \"a\"} {\"name\": \"b\"}]}", "line 2, column 17: expected ','"},
        new String[] {"{\"outputs\": [1,]}", "line 1, column 16: unexpected ']'"},
        new String[] {"{\"ops\": []} x", "text after the end"},
        new String[] {"{\"ops\": [{\"name\": tru}]}", "expected 'true'"},
        new String[] {"{\"outputs\": [01]}", "malformed number '01'"})) {
      IOException e = assertThrows(IOException.class, () -> GraphCommand.summarize(
          new JsonStream(new StringReader(c[0]), "g.json"), new PrintStream(OutputStream.nullOutputStream())), c[0]);
      assertTrue(e.getMessage().startsWith("g.json: not valid JSON at ") && e.getMessage().contains(c[1]),
          e.getMessage());
    }
  }
}
