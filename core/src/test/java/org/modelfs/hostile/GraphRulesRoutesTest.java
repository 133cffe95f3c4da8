package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.JsonTrees.list;
import static org.modelfs.testing.JsonTrees.op;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.modelfs.CommitRefusedException;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.container.ModelWriter;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.Dl4jGraphRules;
import org.modelfs.format.fb.FbFormat;
import org.modelfs.format.fb.GraphJson;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.format.fb.GraphJsonReader;
import org.modelfs.format.fb.GraphReader;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.GraphRef;
import org.modelfs.verify.Problem;
import org.modelfs.verify.Verifier;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.JsonTrees;

/**
 * Issue 29 items 1–3 through every route that can make the damage, in every format: each is
 * refused (at the graph.json write, else at the commit) with the tag, the variable or op and
 * the reason, and the model's files stay byte-identical. The rules themselves are
 * {@link Dl4jGraphRules}; what DL4J does with each such model is measured by
 * {@code GraphRulesInteropTest} (docs/GRAPH.md §5).
 */
class GraphRulesRoutesTest {
  /** The loss op of {@code mlp_adam.fb}: a variable given its name becomes its output in DL4J. */
  static final String LOSS = "softmax_cross_entropy_loss";
  static final String NAMED_LIKE = "/tags/default/params/" + LOSS + ": a variable named like op '" + LOSS + "' (" + LOSS
      + ") that does not produce it: DL4J would make it that op's output";

  @TempDir Path tmp;

  /** The formats a route is tried in, with the file each model is written as. */
  enum Format {
    FB("m.fb", null),
    SDNB("m.sdnb", WriteOptions.of(ModelFormat.SDNB)),
    SHARDED("s.sdnb", WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(200)),
    SDZ("m.sdz", WriteOptions.of(ModelFormat.SDZ)),
    ZIP_TAGS("m.zip", WriteOptions.of(ModelFormat.ZIP_TAGS)),
    CONTAINER("m.sdmc", WriteOptions.of(ModelFormat.CONTAINER));

    final String file;
    final WriteOptions options;

    Format(String file, WriteOptions options) {
      this.file = file;
      this.options = options;
    }
  }

  private Path model(Format f) throws IOException {
    return model(tmp, f);
  }

  /** {@code mlp_adam.fb} written as {@code f}, in a directory of its own under {@code tmp}. */
  static Path model(Path tmp, Format f) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(f.name()));
    Path out = dir.resolve(f.file);
    if (f.options == null) {
      return Files.copy(Fixtures.get("mlp_adam.fb"), out);
    }
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      ModelFiles.write(m.newest(), out, f.options);
    }
    return out;
  }

  /** Every file of the model's directory, by name, with its bytes (lock, journal and temporaries included). */
  static Map<String, byte[]> files(Path model) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(model.getParent())) {
      for (Path p : s.toList()) {
        out.put(p.getFileName().toString(), Files.isRegularFile(p) ? Files.readAllBytes(p) : new byte[0]);
      }
    }
    return out;
  }

  static void assertSameFiles(Map<String, byte[]> before, Path model) throws IOException {
    Map<String, byte[]> after = files(model);
    assertEquals(before.keySet(), after.keySet());
    for (String k : before.keySet()) {
      assertArrayEquals(before.get(k), after.get(k), k);
    }
  }

  /** An edit made through a mount, then a commit that must be refused saying {@code says}. */
  static void refusedAtCommit(Path model, MountEdit edit, String... says) throws IOException {
    Map<String, byte[]> before = files(model);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      edit.apply(fs);
      CommitRefusedException e = assertThrows(CommitRefusedException.class, () -> ((JournaledFileSystem) fs).commit());
      for (String s : says) {
        assertTrue(e.getMessage().contains(s), e.getMessage());
      }
      ((JournaledFileSystem) fs).rollback();
    }
    assertSameFiles(before, model);
  }

  interface MountEdit {
    void apply(FileSystem fs) throws IOException;
  }

  // ---- item 1: a variable named like an op it is not an output of, by every route ----------

  @ParameterizedTest
  @EnumSource(Format.class)
  void aParameterMovedToAnOpsName(Format f) throws IOException {
    refusedAtCommit(model(f), fs -> Files.move(fs.getPath("/tags/default/params/layer0/W"),
        fs.getPath("/tags/default/params/" + LOSS)), NAMED_LIKE);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aParameterCopiedToAnOpsName(Format f) throws IOException {
    refusedAtCommit(model(f), fs -> Files.copy(fs.getPath("/tags/default/params/layer0/b"),
        fs.getPath("/tags/default/params/" + LOSS)), NAMED_LIKE);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aNewParameterWrittenUnderAnOpsName(Format f) throws IOException {
    refusedAtCommit(model(f), fs -> Files.write(fs.getPath("/params/" + LOSS), new byte[16]), NAMED_LIKE);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void theCliCpToAnOpsName(Format f) throws IOException {
    Path m = model(f);
    Map<String, byte[]> before = files(m);
    Result r = run("cp", m + ":/params/layer0/W", m + ":/params/" + LOSS);
    assertNotEquals(0, r.code(), r.out());
    assertTrue(r.err().contains(NAMED_LIKE), r.err());
    assertSameFiles(before, m);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void theCliImportOfAnNpyToAnOpsName(Format f) throws IOException {
    Path m = model(f);
    Path npy = npy(tmp.resolve(f + ".npy"));
    Map<String, byte[]> before = files(m);
    Result r = run("import", npy.toString(), m + ":params/" + LOSS);
    assertNotEquals(0, r.code(), r.out());
    assertTrue(r.err().contains(NAMED_LIKE), r.err());
    assertSameFiles(before, m);
  }

  @ParameterizedTest
  @EnumSource(value = Format.class, names = {"SDZ", "ZIP_TAGS", "CONTAINER"})
  void aTagCopiedWithAParameterNamedLikeAnOp(Format f) throws IOException {
    refusedAtCommit(model(f), fs -> {
      Files.createDirectory(fs.getPath("/tags/v2"));
      Files.copy(fs.getPath("/tags/default/training.json"), fs.getPath("/tags/v2/training.json"));
      Files.copy(fs.getPath("/tags/default/graph"), fs.getPath("/tags/v2/graph"));
      try (Stream<Path> params = Files.walk(fs.getPath("/tags/default/params"))) {
        for (Path p : params.filter(Files::isRegularFile).toList()) {
          Path to = fs.getPath("/tags/v2/params").resolve(fs.getPath("/tags/default/params").relativize(p).toString());
          Files.createDirectories(to.getParent());
          Files.copy(p, to);
        }
      }
      Files.copy(fs.getPath("/tags/default/params/layer0/b"), fs.getPath("/tags/v2/params/" + LOSS));
    }, "/tags/v2/params/" + LOSS + ": a variable named like op '" + LOSS + "'");
  }

  /** Whole-model writes outside a mount (convert, extract, the CLI's editing commands) pass the same rules. */
  @ParameterizedTest
  @EnumSource(Format.class)
  void aWholeModelWriteOfARenamedParameter(Format f) throws IOException {
    Path out = Files.createDirectories(tmp.resolve("out-" + f)).resolve(f.file);
    ModelWriter.Refused e;
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      Tag renamed = renamed(m.newest(), "layer0/W", LOSS);
      e = assertThrows(ModelWriter.Refused.class,
          () -> ModelFiles.write(renamed, out, f.options == null ? WriteOptions.of(ModelFormat.FB) : f.options));
    }
    assertTrue(e.problems().stream().anyMatch(pr -> pr.startsWith(NAMED_LIKE)), e.problems().toString());
    try (Stream<Path> s = Files.list(out.getParent())) {
      assertEquals(List.of(), s.toList(), "nothing written");
    }
  }

  /**
   * The class, not the case: in every DL4J fixture, a parameter moved to the name of any op that
   * does not already name a variable is refused by the commit, naming that op; the file is unchanged.
   */
  @Test
  void everyOpNameOfEveryFixtureIsRefusedAsAParameterName() throws IOException {
    int tried = 0;
    for (Path fixture : Fixtures.all()) {
      Path m = Files.copy(fixture, Files.createDirectories(tmp.resolve("every-" + tried)).resolve(fixture.getFileName()));
      List<String> opNames = new ArrayList<>();
      String param = null;
      try (Model read = Models.open(m)) {
        Tag t = read.newest();
        for (Variable v : t.variables()) {
          param = param == null && v.kind().holdsArray() && v.array() != null && !v.name().contains("%") ? v.name() : param;
        }
        String json = new String(GraphJson.render(t, "g"), StandardCharsets.UTF_8);
        for (Object o : list(JsonTrees.parse(json), "ops")) {
          String name = (String) ((Map<?, ?>) o).get("name");
          if (name != null && t.variable(name) == null && !name.contains("%") && !name.startsWith("/") && !name.endsWith("/")
              && !name.contains("//")) {
            opNames.add(name);
          }
        }
      }
      if (param == null) {
        continue;
      }
      for (String op : opNames) {
        String from = param;
        refusedAtCommit(m, fs -> Files.move(fs.getPath("/tags/default/params/" + from), fs.getPath("/tags/default/params/" + op)),
            "/tags/default/params/" + op + ": a variable named like op '" + GraphNamesCut.cut(op) + "'");
        tried++;
      }
    }
    // mlp_adam and mlp_noupdater: softmax, add_1 and the loss op; a TF import names each op's output after it
    assertTrue(tried >= 6, tried + " ops tried");
  }

  /** Names as messages show them (long ones cut, as GraphJsonReader.cut does). */
  static final class GraphNamesCut {
    static String cut(String name) {
      return name.length() > 80 ? name.substring(0, 80) : name;
    }
  }

  @Test
  void aGraphJsonRenameToTheLossOpsNameIsRefusedWhenWritten() throws IOException {
    Path m = model(Format.FB);
    Map<String, byte[]> before = files(m);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Path gj = fs.getPath("/tags/default/graph.json");
      String json = Files.readString(gj);
      String edited = JsonTrees.edit(json, d -> JsonTrees.renameEverywhere(d, "layer0/W", LOSS));
      GraphJsonException e = assertThrows(GraphJsonException.class, () -> Files.writeString(gj, edited));
      assertTrue(e.getMessage().contains("params/" + LOSS + ": a variable named like op '" + LOSS + "'"), e.getMessage());
      assertEquals(json, Files.readString(gj));
    }
    assertSameFiles(before, m);
  }

  // ---- item 2: cycles of ordinary ops ---------------------------------------------------------

  @Test
  void aGraphJsonCycleIsRefusedNamedAsAPath() throws IOException {
    GraphJsonException e = graphJsonRefused(d -> list(op(d, "matmul"), "inputs").set(0, "relu"));
    assertTrue(e.getMessage().contains("a cycle of ops through no merge: op 'matmul' (matmul) → op 'add' (add)"
        + " → op 'relu' (relu) → op 'matmul' (matmul)"), e.getMessage());
  }

  @Test
  void anOpReadingItselfIsRefused() throws IOException {
    GraphJsonException e = graphJsonRefused(d -> list(op(d, "relu"), "inputs").set(0, "relu"));
    assertTrue(e.getMessage().contains("a cycle of ops through no merge: op 'relu' (relu) → op 'relu' (relu)"),
        e.getMessage());
  }

  private GraphJsonException graphJsonRefused(Consumer<Map<String, Object>> edit) throws IOException {
    return graphJsonRefused(tmp, edit);
  }

  /** A graph.json of {@code mlp_adam.fb} edited by {@code edit}, refused when written; the model unchanged. */
  static GraphJsonException graphJsonRefused(Path tmp, Consumer<Map<String, Object>> edit) throws IOException {
    Path m = model(tmp, Format.FB);
    Map<String, byte[]> before = files(m);
    GraphJsonException e;
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Path gj = fs.getPath("/tags/default/graph.json");
      String edited = JsonTrees.edit(Files.readString(gj), edit);
      e = assertThrows(GraphJsonException.class, () -> Files.writeString(gj, edited));
    }
    assertSameFiles(before, m);
    return e;
  }

  /** Every DL4J-written fixture — a TF while loop (cycles through merge) and a cond among them — passes every rule. */
  @Test
  void everyFixturePassesTheRulesAndCommits() throws IOException {
    List<Path> all = Fixtures.all();
    assertTrue(all.stream().anyMatch(p -> p.getFileName().toString().startsWith("simplewhile")), all.toString());
    for (Path p : all) {
      try (Model m = Models.open(p)) {
        for (Tag t : m.tags()) {
          assertEquals(List.of(), Dl4jGraphRules.problems(t, true, p.toString()), p.toString());
        }
        ModelFiles.write(m.newest(), tmp.resolve(p.getFileName() + ".sdnb"), WriteOptions.of(ModelFormat.SDNB));
      }
    }
  }

  // ---- item 3: declarations against arrays ------------------------------------------------------

  @ParameterizedTest
  @EnumSource(Format.class)
  void aGraphDeclaringAnotherShapeThanTheArray(Format f) throws IOException {
    Path m = model(f);
    byte[] graph;
    try (Model read = Models.open(m)) {
      Tag t = read.newest();
      List<Variable> vars = new ArrayList<>();
      for (Variable v : t.variables()) {
        vars.add(v.name().equals("layer0/W")
            ? new Variable(v.name(), v.kind(), v.dtype(), new long[] {2, 2}, null, v.graphVariable()) : v.withArray(null));
      }
      Tag declared = new Tag(t.name(), t.graph(), vars, List.of(), t.trainingConfig(), Map.of());
      graph = GraphWriter.build(declared, GraphWriter.Mode.SHARD_GRAPH, Set.of(), Map.of(), "g").bytes();
    }
    refusedAtCommit(m, fs -> Files.write(fs.getPath("/tags/default/graph"), graph),
        "/tags/default/params/layer0/W: the graph declares FLOAT[2, 2] but the array is FLOAT[4, 8]");
  }

  // ---- verify: the same rules for a model any tool made ----------------------------------------

  @Test
  void verifyReportsAParameterNamedLikeAnOp() throws IOException {
    Path bad = tmp.resolve("named.fb");
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      writeFb(renamed(m.newest(), "layer0/W", LOSS), bad);
    }
    List<Problem> got = Verifier.verify(bad, Verifier.Options.defaults()).problems();
    assertEquals(1, got.size(), got.toString());
    assertEquals("/tags/default/params/" + LOSS, got.get(0).path());
    assertTrue(got.get(0).message().startsWith("a variable named like op '" + LOSS + "'"), got.get(0).message());
    Result r = run("verify", bad.toString());
    assertEquals(1, r.code(), r.out() + r.err());
  }

  @Test
  void verifyReportsACycle() throws IOException {
    Path bad = tmp.resolve("cycle.fb");
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      Tag t = m.newest();
      String json = new String(GraphJson.render(t, "g"), StandardCharsets.UTF_8);
      String edited = JsonTrees.edit(json, d -> list(op(d, "matmul"), "inputs").set(0, "relu"));
      writeFb(withGraph(t, GraphJsonReader.read(edited.getBytes(StandardCharsets.UTF_8), t, "graph.json").graph()), bad);
    }
    List<Problem> got = Verifier.verify(bad, Verifier.Options.defaults()).problems();
    assertEquals(List.of(new Problem("/tags/default/graph", "a cycle of ops through no merge: op 'matmul' (matmul) →"
        + " op 'add' (add) → op 'relu' (relu) → op 'matmul' (matmul): each waits for the other, so DL4J computes none"
        + " of their outputs (docs/GRAPH.md §5.2); only a loop through a merge op (a TF while loop) can run")), got);
  }

  static void writeFb(Tag t, Path out) throws IOException {
    try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      FbFormat.write(t, new CountingOutput(ch), out.toString()); // the codec alone: no commit's checks
    }
  }

  /** {@code t} with {@code graph}, each variable keeping its array by name (as a tool writing a FlatGraph would). */
  static Tag withGraph(Tag t, GraphRef graph) throws IOException {
    List<Variable> vars = new ArrayList<>();
    for (Variable v : GraphReader.read(graph, "graph").variables()) {
      Variable old = t.variable(v.name());
      vars.add(old == null || v.array() != null ? v : v.withArray(old.array()));
    }
    return new Tag(t.name(), graph, vars, t.updater(), t.trainingConfig(), t.metadata());
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** {@code t} with variable {@code from} (and its updater state) named {@code to}, as a tool outside ModelFS might. */
  static Tag renamed(Tag t, String from, String to) {
    List<Variable> vars = new ArrayList<>();
    for (Variable v : t.variables()) {
      vars.add(v.name().equals(from) ? new Variable(to, v.kind(), v.dtype(), v.shape(), v.array(), v.graphVariable()) : v);
    }
    List<UpdaterState> ups = new ArrayList<>();
    for (UpdaterState u : t.updater()) {
      ups.add(u.paramName().equals(from) ? new UpdaterState(to, u.arrays()) : u);
    }
    return new Tag(t.name(), t.graph(), vars, ups, t.trainingConfig(), t.metadata());
  }

  /** A little-endian FLOAT [4, 8] .npy file. */
  static Path npy(Path out) throws IOException {
    String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), }";
    int pad = 64 - (10 + dict.length() + 1) % 64;
    String header = dict + " ".repeat(pad) + "\n";
    ByteBuffer b = ByteBuffer.allocate(10 + header.length() + 128).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
    b.putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
    return Files.write(out, b.array());
  }

  record Result(int code, String out, String err) {}

  static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
