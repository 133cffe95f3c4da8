package org.modelfs.hostile;

import org.modelfs.format.Codecs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.JsonText;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.GraphJson;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.format.fb.GraphJsonReader;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.JsonTrees;
import org.modelfs.testing.SlowRuns;

/**
 * graph.json written back: variable ids keep their arrays through rename chains, edits in one
 * session show in graph.json, ops and outputs that DL4J could not load are refused, hostile
 * values give only {@code GraphJsonException}s (first written as the hostile review of
 * graph.json writes). Every test here states what the docs
 * (GRAPH.md §3, FILESYSTEM.md §7.1) or the promise (nothing lost; Path code works; fast) say,
 * and fails where the code does otherwise.
 */
class GraphJsonWriteBackTest {
  static final Path FIXTURE = Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb");

  @TempDir
  Path dir;

  // ---------------------------------------------------------------- helpers

  private Path model() throws IOException {
    Path p = dir.resolve("m.fb");
    Files.copy(FIXTURE, p);
    return p;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> parse(String s) {
    return (Map<String, Object>) JsonText.parse(s, 64, true);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> find(Map<String, Object> g, String list, String name) {
    for (Object o : (List<Object>) g.get(list)) {
      Map<String, Object> m = (Map<String, Object>) o;
      if (name.equals(m.get("name"))) {
        return m;
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Map<String, Object> m, String key) {
    return (List<Object>) m.get(key);
  }

  /** Compact JSON (so reformatting is part of some tests). */
  static String json(Object o) {
    return JsonTrees.write(o);
  }

  static byte[] read(Path model, String path) throws IOException {
    try (FileSystem fs = FileSystems.newFileSystem(model)) {
      return Files.readAllBytes(fs.getPath(path));
    }
  }

  /** Edits the parsed graph.json of the model's newest tag and writes it back through a mount (close commits). */
  static void editGraph(Path model, Consumer<Map<String, Object>> edit) throws IOException {
    try (FileSystem fs = FileSystems.newFileSystem(model)) {
      Path g = fs.getPath("/graph.json");
      Map<String, Object> doc = parse(Files.readString(g));
      edit.accept(doc);
      Files.writeString(g, json(doc));
    }
  }

  static void rename(Map<String, Object> g, String from, String to) {
    find(g, "variables", from).put("name", to);
    replaceEverywhere(g, from, to);
  }

  @SuppressWarnings("unchecked")
  static void replaceEverywhere(Map<String, Object> g, String from, String to) {
    for (Object o : list(g, "ops")) {
      Map<String, Object> op = (Map<String, Object>) o;
      for (String k : List.of("inputs", "outputs", "varControlDeps")) {
        if (op.get(k) instanceof List<?> l) {
          List<Object> n = new ArrayList<>(l);
          n.replaceAll(x -> from.equals(x) ? to : x);
          op.put(k, n);
        }
      }
    }
    for (String k : List.of("placeholders", "lossVariables", "outputs")) {
      if (g.get(k) instanceof List<?> l) {
        List<Object> n = new ArrayList<>(l);
        n.replaceAll(x -> from.equals(x) ? to : x);
        g.put(k, n);
      }
    }
  }

  // ---------------------------------------------------------------- data loss: renames by id

  /**
   * GRAPH.md §3.2: "Each variable keeps the array ... of the variable of the same name". The user
   * drops constant const/scale (rewiring its one use to sd_var) and reuses its id [3,0] for
   * sd_var. sd_var is a variable of the same name with its own array; the code takes the id rule
   * (rename const/scale → sd_var) and sd_var silently gets const/scale's value.
   */
  @Test
  void idReusedByAnExistingVariableKeepsThatVariablesOwnArray() throws IOException {
    Path m = model();
    byte[] sdVar = read(m, "/params/sd_var");
    byte[] scale = read(m, "/params/const/scale");
    assertFalse(Arrays.equals(sdVar, scale), "the two constants differ");
    byte[] before = Files.readAllBytes(m);
    try {
      editGraph(m, g -> {
        list(g, "variables").remove(find(g, "variables", "const/scale"));
        replaceEverywhere(g, "const/scale", "sd_var");
        find(g, "variables", "sd_var").put("id", List.of(3L, 0L));
      });
    } catch (IOException refused) {
      assertArrayEquals(before, Files.readAllBytes(m), "a refused write leaves the model as it was");
      return;
    }
    assertArrayEquals(sdVar, read(m, "/params/sd_var"),
        "sd_var was not renamed, deleted or written: it must keep its own value, not const/scale's");
  }

  /**
   * A rename chain by id (GRAPH.md §4 "keep its id: it keeps its array"): const/scale → sd_var,
   * sd_var → k, ids kept. Either both follow their ids, or the write is refused and nothing
   * changes; anything else loses or mis-attaches a value.
   */
  @Test
  void renameChainByIdKeepsEveryArray() throws IOException {
    Path m = model();
    byte[] sdVar = read(m, "/params/sd_var");
    byte[] scale = read(m, "/params/const/scale");
    byte[] before = Files.readAllBytes(m);
    try {
      editGraph(m, g -> {
        rename(g, "sd_var", "k"); // first, so that the later rename does not collide in this helper
        rename(g, "const/scale", "sd_var");
      });
    } catch (IOException refused) {
      assertArrayEquals(before, Files.readAllBytes(m), "a refused write leaves the model as it was: " + refused);
      return;
    }
    assertArrayEquals(scale, read(m, "/params/sd_var"), "sd_var holds const/scale's value (its id)");
    assertArrayEquals(sdVar, read(m, "/params/k"), "k holds sd_var's old value (its id)");
  }

  /** The same chain on the mount itself: the session must not be left holding two variables of one name. */
  @Test
  void renameChainBySwappedIdsIsNotAcceptedHalfway() throws IOException {
    Path m = model();
    byte[] sdVar = read(m, "/params/sd_var");
    byte[] scale = read(m, "/params/const/scale");
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      Map<String, Object> doc = parse(Files.readString(g));
      // swap the names, ids kept: const/scale [3,0] is now called sd_var, sd_var [16,0] const/scale
      find(doc, "variables", "sd_var").put("name", "tmp");
      replaceEverywhere(doc, "sd_var", "tmp");
      rename(doc, "const/scale", "sd_var");
      rename(doc, "tmp", "const/scale");
      Files.writeString(g, json(doc));
      // whatever the rule, after the write each name has exactly one file and the values are the two originals
      byte[] a = Files.readAllBytes(fs.getPath("/params/sd_var"));
      byte[] b = Files.readAllBytes(fs.getPath("/params/const/scale"));
      assertFalse(Arrays.equals(a, b), "two distinct values stay two distinct values");
      assertTrue(Arrays.equals(a, sdVar) || Arrays.equals(a, scale));
      fs.provider().getClass(); // keep the mount; close commits
    }
  }

  // ---------------------------------------------------------------- stale graph.json in a session

  /**
   * FILESYSTEM.md §7.1: graph.json "describes the graph as graph does". After a graph.json write
   * (a real edit), a Files.move of a parameter renames the variable — graph.json keeps showing
   * the bytes written, naming the old variable. Writing back what it reads (any read-modify-write
   * Path code) then silently renames the variable back.
   */
  @Test
  void graphJsonFollowsLaterEditsInTheSameSession() throws IOException {
    Path m = model();
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      Map<String, Object> doc = parse(Files.readString(g));
      doc.put("outputs", List.of("output")); // GRAPH.md §4 "Add an output"
      Files.writeString(g, json(doc));
      Files.move(fs.getPath("/params/layer0/W"), fs.getPath("/params/layer0/W2"));
      String now = Files.readString(g);
      // read-modify-write by Path code: write back what it reads
      Files.writeString(g, now);
      assertTrue(Files.exists(fs.getPath("/params/layer0/W2")), "the move stays after graph.json is written back"
          + " as read; graph.json read: " + (now.contains("\"layer0/W2\"") ? "new name" : "OLD name"));
      assertTrue(now.contains("\"layer0/W2\""), "graph.json names the moved variable by its new name");
    }
  }

  /**
   * GRAPH.md §3.3 says: change the named argument, "the property follows". FILESYSTEM.md §7.1 says
   * graph.json then shows the bytes written — in which the property did NOT follow. Writing back
   * exactly what graph.json reads (an editor saving twice, Files.copy, any read-modify-write) is
   * then refused: "property 'labelsSmoothing' says [0.0], but tArgs is 0.25".
   */
  @Test
  void writingBackWhatGraphJsonReadsAfterAnArgumentEditIsAccepted() throws IOException {
    Path m = model();
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      Map<String, Object> doc = parse(Files.readString(g));
      @SuppressWarnings("unchecked")
      Map<String, Object> targs = (Map<String, Object>) find(doc, "ops", "softmax_cross_entropy_loss").get("tArgs");
      targs.put("labelsSmoothing", 0.25);
      Files.writeString(g, json(doc));
      byte[] shown = Files.readAllBytes(g);
      Files.write(g, shown); // write back what it reads
      assertArrayEquals(shown, Files.readAllBytes(g));
    }
  }

  /**
   * Rename chain by id, seen inside the session: after the write is accepted, each name must hold
   * one of the original values, never a lost one. (At the close the commit refuses because 'k' has
   * no array — but within the session sd_var's own value is already gone.)
   */
  @Test
  void renameChainByIdInSessionLosesNoValue() throws IOException {
    Path m = model();
    byte[] sdVar = read(m, "/params/sd_var");
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      Map<String, Object> doc = parse(Files.readString(g));
      rename(doc, "sd_var", "k");
      rename(doc, "const/scale", "sd_var");
      try {
        Files.writeString(g, json(doc));
      } catch (GraphJsonException refused) {
        return; // refusing the ambiguous chain is fine
      }
      boolean kept = false;
      for (String p : List.of("/params/sd_var", "/params/k")) {
        if (Files.exists(fs.getPath(p)) && Arrays.equals(sdVar, Files.readAllBytes(fs.getPath(p)))) {
          kept = true;
        }
      }
      try {
        assertTrue(kept, "sd_var's value is held by no variable after the accepted write; params/k exists: "
            + Files.exists(fs.getPath("/params/k")));
      } finally {
        fs.provider().getClass();
        try {
          ((Closeable) fs).close();
        } catch (IOException expected) {
          // the commit at close refuses (k has no array)
        }
      }
    }
  }

  /**
   * A variable deleted from graph.json, a new one of another name added without an id (GRAPH.md
   * §4: ids may be left out). The new one is given the next free id *of the document* — which is
   * the deleted variable's stored id — and the id rule then calls it a rename: the new variable
   * silently inherits the deleted one's array (and updater state) instead of having none.
   */
  @Test
  void newVariableWithoutIdDoesNotInheritADeletedVariablesArray() throws IOException {
    Path m = model();
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      Map<String, Object> doc = parse(Files.readString(g));
      list(doc, "variables").remove(find(doc, "variables", "sd_var")); // id [16,0], the largest
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("name", "fresh");
      v.put("kind", "CONSTANT");
      v.put("dtype", "FLOAT");
      list(doc, "variables").add(v);
      replaceEverywhere(doc, "sd_var", "const/scale"); // fresh is not used by an op (see the next test for that)
      Files.writeString(g, json(doc));
      assertFalse(Files.exists(fs.getPath("/params/fresh")),
          "'fresh' was never given an array; it now holds the deleted sd_var's value");
      Files.write(fs.getPath("/params/fresh"), new byte[4]); // a CONSTANT needs its array for the commit
    }
  }

  /**
   * GRAPH.md §4: a variable's id "may be left out". GraphJsonReader.assignIds gives it one in the
   * list 'vars' but the map 'byName' built before still holds the Var without an id: an op input
   * naming it gets IntPair offset 0 (idOf returns null without a problem) — a corrupt FlatGraph,
   * caught only by the render in GraphJsonWrites.apply as a ModelFormatException blaming the
   * model file; and an unchanged op reading it hits sameIds' v.id()[0]: NullPointerException.
   */
  @Test
  void variableWithoutIdUsedByANewOpIsAccepted() throws IOException {
    Path m = model();
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      Map<String, Object> doc = parse(Files.readString(g));
      // GRAPH.md §4 "Add an op": a new op, its output a new ARRAY variable without id, used by another new op
      Map<String, Object> a = new LinkedHashMap<>(find(doc, "ops", "softmax"));
      a.put("name", "sm2");
      a.put("id", 50L);
      a.put("outputs", List.of("sm2"));
      Map<String, Object> b = new LinkedHashMap<>(find(doc, "ops", "softmax"));
      b.put("name", "sm3");
      b.put("id", 51L);
      b.put("inputs", List.of("sm2"));
      b.put("outputs", List.of("sm3"));
      list(doc, "ops").add(a);
      list(doc, "ops").add(b);
      for (String n : List.of("sm2", "sm3")) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", n);
        v.put("kind", "ARRAY");
        v.put("dtype", "FLOAT");
        list(doc, "variables").add(v);
      }
      Files.writeString(g, json(doc));
      assertTrue(Files.readString(g).contains("sm3"));
    }
  }

  /** The same bug through an unchanged op: the id of an existing ARRAY variable left out. */
  @Test
  void variableIdLeftOutOnAnUnchangedGraphGivesNoUncheckedException() throws IOException {
    try (Model model = Models.open(FIXTURE)) {
      Tag t = model.newest();
      Map<String, Object> d = parse(new String(GraphJson.render(t, "f"), StandardCharsets.UTF_8));
      find(d, "variables", "relu").remove("id"); // relu is made by op relu (id 15): its id would be [15,0] again
      try {
        GraphJsonReader.read(json(d).getBytes(StandardCharsets.UTF_8), t, "graph.json");
      } catch (GraphJsonException | ModelFormatException refused) {
        // a refusal would be acceptable
      }
    }
  }

  /**
   * FILESYSTEM.md §7.1, a new tag: graph.json written, then deleted. The tag shows neither graph
   * nor graph.json — yet the commit gives it the deleted graph.json's graph.
   */
  @Test
  void graphJsonWrittenThenDeletedInANewTagLeavesNoGraph() throws IOException {
    Path m;
    try (Model src = Models.open(FIXTURE)) {
      m = ModelFiles.write(src.newest(), dir.resolve("m.sdz"),
          WriteOptions.of(Codecs.fromToken("sdz"))).get(0);
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      byte[] json = ("{\"variables\":[{\"name\":\"input\",\"kind\":\"PLACEHOLDER\",\"dtype\":\"FLOAT\","
          + "\"shape\":[-1,4]}],\"ops\":[],\"placeholders\":[\"input\"]}").getBytes(StandardCharsets.UTF_8);
      Files.createDirectory(fs.getPath("/tags/v2"));
      Files.write(fs.getPath("/tags/v2/graph.json"), json);
      Files.delete(fs.getPath("/tags/v2/graph.json"));
      assertFalse(Files.exists(fs.getPath("/tags/v2/graph")));
      assertFalse(Files.exists(fs.getPath("/tags/v2/graph.json")));
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      // a committed tag always has a FlatGraph (an empty one here): what must not come back is the
      // deleted graph.json's variables and ops
      Map<String, Object> g = parse(Files.readString(fs.getPath("/tags/v2/graph.json")));
      assertEquals(List.of(), g.get("variables"), "the graph of a deleted graph.json came back at the commit");
      assertEquals(List.of(), g.get("ops"));
    }
  }

  /** The same after a graph.json that changed nothing (the 'nothing to commit' path) and a later graph write. */
  @Test
  void reformattedGraphJsonThenGraphWriteShowsTheNewGraph() throws IOException {
    Path m = model();
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      Map<String, Object> doc = parse(Files.readString(g));
      Files.writeString(g, json(doc)); // reformatted: nothing to commit
      // now change the graph through graph.json's sibling: delete the graph
      Files.delete(fs.getPath("/graph"));
      String shown = Files.readString(g);
      assertFalse(shown.contains("softmax_cross_entropy_loss"),
          "the tag has no ops any more; graph.json still shows the ops written before");
    }
  }

  // ---------------------------------------------------------------- wrong graphs that pass

  /**
   * GRAPH.md §3.1: "inputs, outputs: each names a variable of the document". Removing the ARRAY
   * variable 'output' while its op softmax still lists it as output is accepted (the op is even
   * copied as stored) and committed: a FlatNode whose outputName no FlatVariable has.
   */
  @Test
  void opOutputNamingARemovedVariableIsRefused() throws IOException {
    Path m = model();
    byte[] before = Files.readAllBytes(m);
    IOException e = assertThrows(IOException.class, () -> editGraph(m, g ->
        list(g, "variables").remove(find(g, "variables", "output"))), "an op output naming no variable is refused");
    assertArrayEquals(before, Files.readAllBytes(m));
    assertNotNull(e);
  }

  /**
   * A new op whose output variable is given an id whose node is not the op's ({@code [6, 1]}:
   * layer0/W's node). Accepted: DL4J M2.1 wires an op's outputs by name and uses variable ids only
   * as keys for inputs (GRAPH.md §1.7), so such an id is unusual but not wrong; the review asked
   * for a refusal, the lead decided against it. The new op and its output are there after the
   * commit, and the parameters are as they were.
   */
  @Test
  void outputVariableIdOfAnotherNodeIsAccepted() throws IOException {
    Path m = model();
    byte[] w = read(m, "/params/layer0/W");
    editGraph(m, g -> {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("name", "extra");
      v.put("kind", "ARRAY");
      v.put("dtype", "FLOAT");
      v.put("id", List.of(6L, 1L)); // layer0/W's node, output 1
      list(g, "variables").add(v);
      Map<String, Object> op = new LinkedHashMap<>(find(g, "ops", "softmax"));
      op.put("name", "softmax2");
      op.put("id", 99L);
      op.put("inputs", List.of("logits"));
      op.put("outputs", List.of("extra"));
      list(g, "ops").add(op);
    });
    assertArrayEquals(w, read(m, "/params/layer0/W"));
  }

  /**
   * An op copied "unchanged" although what it names changed: in simplewhile_1.fb op while/Merge
   * has controlDepFor ["while/Const"] (a variable). Renaming the variable while/Const (id kept,
   * as GRAPH.md §4 lists: entry, inputs, outputs, lists) leaves the op's JSON as shown, so
   * OpJsonReader copies it as stored — its controlDepFor now names no variable or op, which the
   * rebuilt path (deps) would refuse. The commit accepts it.
   */
  @Test
  void opCopiedUnchangedWithADanglingControlDependencyIsRefused() throws IOException {
    Path m = dir.resolve("sw.fb");
    Files.copy(Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/tf-import/simplewhile_1.fb"), m);
    byte[] before = Files.readAllBytes(m);
    IOException e = null;
    try {
      editGraph(m, g -> rename(g, "while/Const", "while/C2"));
    } catch (IOException refused) {
      e = refused;
    }
    String after = new String(read(m, "/graph.json"), StandardCharsets.UTF_8);
    assertNotNull(e, "accepted and committed; graph.json now: op while/Merge controlDepFor "
        + find(parse(after), "ops", "while/Merge").get("controlDepFor") + ", variables have while/Const: "
        + (find(parse(after), "variables", "while/Const") != null));
    assertArrayEquals(before, Files.readAllBytes(m));
  }

  // ---------------------------------------------------------------- unchecked exceptions (fuzz)

  /**
   * Each value of graph.json replaced by hostile values, read by GraphJsonReader: only checked
   * exceptions (every pair under {@code -Pslow}, a quarter of them by default).
   */
  @Test
  void hostileValuesEverywhereGiveOnlyGraphJsonExceptions() throws IOException {
    Object[] hostile = {null, new JsonTrees.Raw("1e400"), new JsonTrees.Raw("-1e400"), -1L, 0L, new JsonTrees.Raw("99999999999999999999"),
        Long.MIN_VALUE, Long.MAX_VALUE, 2147483648L, 1.5, "", "x", "#01", "#-1", "#999999999999", "#0:0", "#1:x", "NaN",
        "Infinity", true, List.of(), Map.of(), List.of(List.of()), List.of(Map.of()), List.of("#0"), List.of(-1L, -1L),
        List.of(2147483647L, 2147483647L, 2147483647L, 0L), Map.of("#0", 1L), Map.of("#01", 1L), Map.of("#-1", 1L),
        Map.of("#999999999999", 1L), Map.of("#2147483647", 1L)};
    List<String> failures = new ArrayList<>();
    try (Model model = Models.open(FIXTURE)) {
      Tag t = model.newest();
      String base = new String(GraphJson.render(t, "f"), StandardCharsets.UTF_8);
      Map<String, Object> doc = parse(base);
      List<List<Object>> paths = new ArrayList<>();
      collect(doc, new ArrayList<>(), paths);
      // every value at every path under -Pslow; by default a quarter of the pairs, every value
      // and every path among them (value j at path i when (i + j) % 4 == 0)
      int stride = SlowRuns.full() ? 1 : 4;
      for (int i = 0; i < paths.size(); i++) {
        List<Object> p = paths.get(i);
        for (int j = 0; j < hostile.length; j++) {
          if ((i + j) % stride != 0) {
            continue;
          }
          Object h = hostile[j];
          Map<String, Object> d = parse(base);
          set(d, p, h);
          byte[] json = json(d).getBytes(StandardCharsets.UTF_8);
          try {
            GraphJsonReader.read(json, t, "graph.json");
          } catch (GraphJsonException | ModelFormatException ok) {
            // refused as documented
          } catch (RuntimeException | StackOverflowError e) {
            if (failures.size() < 30) {
              failures.add(p + " = " + json(h) + ": " + e);
            }
          }
        }
      }
      // keys: "#..." keys added to every named-argument object
      for (Object o : list(doc, "ops")) {
        for (String field : List.of("iArgs", "tArgs", "bArgs", "dArgs", "sArgs")) {
          for (String key : List.of("#01", "#-1", "#999999999999", "#2147483647", "#0", "#1", "weird\u0000name")) {
            Map<String, Object> d = parse(base);
            @SuppressWarnings("unchecked")
            Map<String, Object> op = find(d, "ops", (String) ((Map<String, Object>) o).get("name"));
            if (op.get(field) instanceof Map<?, ?> args) {
              @SuppressWarnings("unchecked")
              Map<String, Object> a = new LinkedHashMap<>((Map<String, Object>) args);
              a.put(key, 1L);
              op.put(field, a);
              try {
                GraphJsonReader.read(json(d).getBytes(StandardCharsets.UTF_8), t, "graph.json");
              } catch (GraphJsonException | ModelFormatException ok) {
                // refused
              } catch (RuntimeException e) {
                failures.add(op.get("name") + " " + field + " " + key + ": " + e);
              }
            }
          }
        }
      }
    }
    if (!failures.isEmpty()) {
      fail(failures.size() + " unchecked exceptions, e.g.:\n" + String.join("\n", failures));
    }
  }

  @SuppressWarnings("unchecked")
  private static void collect(Object node, List<Object> at, List<List<Object>> out) {
    if (!at.isEmpty()) {
      out.add(new ArrayList<>(at));
    }
    if (node instanceof Map<?, ?> m) {
      for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) {
        at.add(e.getKey());
        collect(e.getValue(), at, out);
        at.remove(at.size() - 1);
      }
    } else if (node instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        at.add(i);
        collect(l.get(i), at, out);
        at.remove(at.size() - 1);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void set(Object root, List<Object> path, Object value) {
    Object node = root;
    for (int i = 0; i < path.size() - 1; i++) {
      Object k = path.get(i);
      node = k instanceof Integer n ? ((List<Object>) node).get(n) : ((Map<String, Object>) node).get(k);
    }
    Object last = path.get(path.size() - 1);
    if (last instanceof Integer n) {
      ((List<Object>) node).set(n, value);
    } else {
      ((Map<String, Object>) node).put((String) last, value);
    }
  }

  // ---------------------------------------------------------------- budgets

  /**
   * Many new ops with output variables whose id is left out (GRAPH.md §4 "Add an op"): each output
   * gets {@code [op id, 0]}. (How the time grows with the ops — linear since the review's fix of a
   * quadratic lookup — is measured by the benchmark {@code GraphJsonWriteMain}, not here: no timed
   * unit tests.)
   */
  @Test
  void manyNewOpsWithoutVariableIdsAreRead() throws IOException {
    Path m = dir.resolve("many.fb");
    Files.copy(FIXTURE, m);
    editGraph(m, g -> JsonTrees.addSoftmaxOps(g, 16000, false));
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Map<String, Object> back = parse(Files.readString(fs.getPath("/graph.json")));
      assertEquals(List.of(1000L + 15999, 0L), find(back, "variables", "s15999").get("id"));
    }
  }

  /**
   * A large graph (12,000 extra ops) written back reformatted: every op is unchanged, nothing is
   * left to commit and the model stays byte-identical. (Its time: {@code GraphJsonWriteMain}.)
   */
  @Test
  void largeUnchangedGraphWrittenBackReformattedChangesNothing() throws IOException {
    Path m = dir.resolve("big.fb");
    Files.copy(FIXTURE, m);
    editGraph(m, g -> JsonTrees.addSoftmaxOps(g, 12000, true));
    byte[] before = Files.readAllBytes(m);
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      String compact = json(parse(Files.readString(g)));
      Files.writeString(g, compact);
      assertFalse(((JournaledFileSystem) fs).hasPendingChanges());
    }
    assertArrayEquals(before, Files.readAllBytes(m));
  }


}
