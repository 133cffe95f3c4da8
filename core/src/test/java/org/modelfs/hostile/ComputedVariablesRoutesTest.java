package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.hostile.GraphRulesRoutesTest.assertSameFiles;
import static org.modelfs.hostile.GraphRulesRoutesTest.files;
import static org.modelfs.hostile.GraphRulesRoutesTest.refusedAtCommit;
import static org.modelfs.hostile.GraphRulesRoutesTest.run;
import static org.modelfs.testing.JsonTrees.list;
import static org.modelfs.testing.JsonTrees.variable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.fb.GraphJson;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.format.fb.GraphJsonReader;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.hostile.GraphRulesRoutesTest.Format;
import org.modelfs.hostile.GraphRulesRoutesTest.Result;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.JsonTrees;
import org.modelfs.verify.Problem;
import org.modelfs.verify.Verifier;

/**
 * The variables DL4J computes (docs/GRAPH.md §5.5, {@code format.fb.ComputedVariables}) through
 * every route that can break them, in every format: an array given to an op's output (copy, new
 * file, channel, the CLI's cp and import), graph.json naming a non-ARRAY loss, dropping the op
 * that computes a variable, or declaring a variable another type than its op's outputTypes.
 * Regression scripts 18–22, 34, 35, 39, 40 and 46 of {@code Dl4jOracleInteropTest} are the
 * same models measured against DL4J.
 */
class ComputedVariablesRoutesTest {
  static final String LOSS_OP = "op '" + GraphRulesRoutesTest.LOSS + "' (" + GraphRulesRoutesTest.LOSS + ")";
  static final String HOLDS = "; DL4J computes it, it cannot hold an array";

  @TempDir Path tmp;

  // ---- an array given to an op's output --------------------------------------------------------

  @ParameterizedTest
  @EnumSource(Format.class)
  void aParameterCopiedOntoTheLoss(Format f) throws IOException {
    refusedAtCommit(GraphRulesRoutesTest.model(tmp, f), fs -> Files.copy(fs.getPath("/tags/default/params/layer0/b"),
        fs.getPath("/tags/default/params/loss")), "/tags/default/params/loss: the output of " + LOSS_OP + HOLDS);
  }

  /** A move onto an op's output is refused by the move itself (the name is the graph's), before any commit. */
  @ParameterizedTest
  @EnumSource(Format.class)
  void aParameterMovedOntoAnOpsOutput(Format f) throws IOException {
    Path m = GraphRulesRoutesTest.model(tmp, f);
    Map<String, byte[]> before = files(m);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
          () -> Files.move(fs.getPath("/tags/default/params/layer0/b"), fs.getPath("/tags/default/params/relu")));
      assertTrue(e.getMessage().contains("a variable of the graph is named 'relu'"), e.getMessage());
    }
    assertSameFiles(before, m);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aNewFileWrittenOntoAnOpsOutput(Format f) throws IOException {
    refusedAtCommit(GraphRulesRoutesTest.model(tmp, f), fs -> Files.write(fs.getPath("/params/relu"), new byte[128]),
        "/tags/default/params/relu: the output of op 'relu' (relu)" + HOLDS);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aChannelWritingAnOpsOutput(Format f) throws IOException {
    refusedAtCommit(GraphRulesRoutesTest.model(tmp, f), fs -> {
      try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/params/matmul_1"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.allocate(96));
      }
    }, "/tags/default/params/matmul_1: the output of op 'matmul_1' (matmul)" + HOLDS);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void theCliCpAndImportOntoAnOpsOutput(Format f) throws IOException {
    Path m = GraphRulesRoutesTest.model(tmp, f);
    Map<String, byte[]> before = files(m);
    Result cp = run("cp", m + ":/params/layer1/W", m + ":/params/loss");
    assertNotEquals(0, cp.code(), cp.out());
    assertTrue(cp.err().contains("/tags/default/params/loss: the output of " + LOSS_OP + HOLDS), cp.err());
    Path npy = GraphRulesRoutesTest.npy(tmp.resolve(f + ".npy"));
    Result imp = run("import", npy.toString(), m + ":params/matmul");
    assertNotEquals(0, imp.code(), imp.out());
    assertTrue(imp.err().contains("/tags/default/params/matmul: the output of op 'matmul' (matmul)" + HOLDS), imp.err());
    assertSameFiles(before, m);
  }

  /** The class: in every DL4J fixture, a copy onto any op output is refused naming its op. */
  @Test
  void aCopyOntoEveryOpOutputOfEveryFixtureIsRefused() throws IOException {
    int tried = 0;
    for (Path fixture : Fixtures.all()) {
      Path m = Files.copy(fixture, Files.createDirectories(tmp.resolve("every-" + tried)).resolve(fixture.getFileName()));
      String param = null;
      List<String> outputs = new ArrayList<>();
      try (Model read = Models.open(m)) {
        Tag t = read.newest();
        for (Variable v : t.variables()) {
          param = param == null && v.kind().holdsArray() && v.array() != null && !v.array().empty() && !v.name().contains("%")
              ? v.name() : param;
          if (v.kind() == VarKind.ARRAY && !v.name().contains("%") && !v.name().contains(":")
              && !underAFile(t, v.name()) && outputs.size() < 4) {
            outputs.add(v.name());
          }
        }
      }
      for (String out : param == null ? List.<String>of() : outputs) {
        String from = param;
        refusedAtCommit(m, fs -> Files.copy(fs.getPath("/tags/default/params/" + from), fs.getPath("/tags/default/params/" + out)),
            "/tags/default/params/" + out + ": the output of op '");
        tried++;
      }
    }
    assertTrue(tried >= 8, tried + " outputs tried");
  }

  /** Whether a directory of {@code name}'s path is a parameter file ({@code Variable} of {@code Variable/read}). */
  private static boolean underAFile(Tag t, String name) {
    for (int i = name.indexOf('/'); i > 0; i = name.indexOf('/', i + 1)) {
      if (t.variable(name.substring(0, i)) != null) {
        return true;
      }
    }
    return false;
  }

  // ---- graph.json: losses, dropped ops, declared types -----------------------------------------

  @Test
  void aGraphJsonLossOfKindPlaceholderIsRefused() throws IOException {
    GraphJsonException e = graphJsonRefused(d -> variable(d, "loss").put("kind", "PLACEHOLDER"));
    assertTrue(e.getMessage().contains("lossVariables names 'loss', of kind PLACEHOLDER: DL4J marks only ARRAY variables"),
        e.getMessage());
  }

  @Test
  void aGraphJsonDroppingAnOpOthersReadIsRefused() throws IOException {
    GraphJsonException e = graphJsonRefused(ComputedVariablesRoutesTest::dropRelu);
    assertTrue(e.getMessage().contains("variable 'relu' (ARRAY) is produced by no op: DL4J cannot compute it"), e.getMessage());
  }

  @Test
  void aGraphJsonDtypeAgainstTheOpsOutputTypesIsRefused() throws IOException {
    GraphJsonException e = graphJsonRefused(d -> variable(d, "add").put("dtype", "LONG"));
    assertTrue(e.getMessage().contains("variable 'add' is declared LONG but op 'add' (add) declares its output 0 FLOAT"
        + " (outputTypes)"), e.getMessage());
  }

  /** The same three graphs written whole to {@code /graph} through a mount are refused at the commit, in every format. */
  @ParameterizedTest
  @EnumSource(Format.class)
  void aWholeGraphWithEachViolationIsRefusedAtTheCommit(Format f) throws IOException {
    Map<String, String> says = Map.of("loss-kind", "/tags/default/graph: lossVariables names 'loss', of kind PLACEHOLDER",
        "drop", "/tags/default/graph: variable 'relu' (ARRAY) is produced by no op",
        "dtype", "/tags/default/graph: variable 'add' is declared LONG but op 'add' (add)");
    for (Map.Entry<String, String> c : says.entrySet()) {
      Consumer<Map<String, Object>> edit = switch (c.getKey()) {
        case "loss-kind" -> d -> variable(d, "loss").put("kind", "PLACEHOLDER");
        case "drop" -> ComputedVariablesRoutesTest::dropRelu;
        default -> d -> variable(d, "add").put("dtype", "LONG");
      };
      Path m = GraphRulesRoutesTest.model(tmp.resolve(c.getKey()), f);
      byte[] graph;
      try (Model read = Models.open(m)) {
        Tag t = read.newest();
        String edited = JsonTrees.edit(new String(GraphJson.render(t, "g"), StandardCharsets.UTF_8), edit);
        Tag made = GraphRulesRoutesTest.withGraph(t, GraphJsonReader.read(edited.getBytes(StandardCharsets.UTF_8), t, "g").graph());
        List<Variable> bare = new ArrayList<>();
        made.variables().forEach(v -> bare.add(v.withArray(null)));
        graph = GraphWriter.build(new Tag(t.name(), made.graph(), bare, List.of(), t.trainingConfig(), Map.of()),
            GraphWriter.Mode.SHARD_GRAPH, Set.of(), Map.of(), "g").bytes();
      }
      refusedAtCommit(m, fs -> Files.write(fs.getPath("/tags/default/graph"), graph), c.getValue());
    }
  }

  private static void dropRelu(Map<String, Object> d) {
    list(d, "ops").removeIf(o -> "relu".equals(((Map<?, ?>) o).get("name")));
  }

  private GraphJsonException graphJsonRefused(Consumer<Map<String, Object>> edit) throws IOException {
    return GraphRulesRoutesTest.graphJsonRefused(tmp, edit);
  }

  // ---- verify: the codec alone writes each, verify reports it ----------------------------------

  @Test
  void verifyReportsAnArrayOnTheLoss() throws IOException {
    Path bad = tmp.resolve("loss.fb");
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      Tag t = m.newest();
      Variable loss = t.variable("loss");
      Variable w = t.variable("layer0/b");
      List<Variable> vars = new ArrayList<>();
      for (Variable v : t.variables()) {
        vars.add(v == loss ? new Variable("loss", VarKind.VARIABLE, w.dtype(), w.shape(), w.array(),
            v.graphVariable()) : v);
      }
      GraphRulesRoutesTest.writeFb(new Tag(t.name(), t.graph(), vars, t.updater(), t.trainingConfig(), t.metadata()), bad);
    }
    List<Problem> got = Verifier.verify(bad, Verifier.Options.defaults()).problems();
    assertTrue(got.stream().anyMatch(p -> p.path().equals("/tags/default/params/loss")
        && p.message().startsWith("the output of " + LOSS_OP + HOLDS)), got.toString());
    assertEquals(1, run("verify", bad.toString()).code());
  }

  @Test
  void verifyReportsEachGraphJsonViolationTheCodecWrites() throws IOException {
    assertVerifyReports(d -> variable(d, "loss").put("kind", "PLACEHOLDER"), "lossVariables names 'loss', of kind PLACEHOLDER");
    assertVerifyReports(ComputedVariablesRoutesTest::dropRelu, "variable 'relu' (ARRAY) is produced by no op");
    assertVerifyReports(d -> variable(d, "add").put("dtype", "LONG"), "variable 'add' is declared LONG but op 'add' (add)");
  }

  private void assertVerifyReports(Consumer<Map<String, Object>> edit, String says) throws IOException {
    Path bad = Files.createTempFile(tmp, "bad", ".fb");
    Files.delete(bad);
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      Tag t = m.newest();
      String edited = JsonTrees.edit(new String(GraphJson.render(t, "g"), StandardCharsets.UTF_8), edit);
      GraphRulesRoutesTest.writeFb(GraphRulesRoutesTest.withGraph(t,
          GraphJsonReader.read(edited.getBytes(StandardCharsets.UTF_8), t, "graph.json").graph()), bad);
    }
    List<Problem> got = Verifier.verify(bad, Verifier.Options.defaults()).problems();
    assertTrue(got.stream().anyMatch(p -> p.path().equals("/tags/default/graph") && p.message().startsWith(says)), got.toString());
  }
}
