package org.modelfs.hostile;

import com.google.common.io.MoreFiles;
import org.apache.commons.io.file.PathUtils;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.format.Codecs;
import static org.junit.jupiter.api.Assertions.*;
import static org.modelfs.testing.JsonTrees.list;
import static org.modelfs.testing.JsonTrees.object;
import static org.modelfs.testing.JsonTrees.op;
import static org.modelfs.testing.JsonTrees.variable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.CommitRefusedException;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.store.ModelFiles;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.JsonTrees;

/**
 * A written graph.json's renames (cycles, tags sharing arrays, training.json's names, updater
 * states), op ids, copies of a tag file by file and across tags, graph.json and a parameter
 * written by two threads, size budgets (first written as the second hostile review of
 * graph.json writes). Each test states what GRAPH.md §3 / FILESYSTEM.md §7.1 or the promise says.
 */
public class GraphJsonRenamesAndCopiesTest {
  @TempDir
  Path tmp;

  // ---------------------------------------------------------------- helpers

  private Path fb(String name) throws IOException {
    Path d = Files.createDirectories(tmp.resolve(name));
    return Files.copy(Fixtures.get("mlp_adam.fb"), d.resolve("m.fb"));
  }

  /** mlp_adam written by ModelFS as {@code format} (as GraphJsonRoundTripTest does). */
  private Path as(String name, String format) throws IOException {
    if (format.equals("fb")) {
      return fb(name);
    }
    Path d = Files.createDirectories(tmp.resolve(name));
    ModelFormat f = Codecs.fromToken(format);
    Path model = d.resolve(f == ModelFormat.CONTAINER ? "m.sdmc" : f == ModelFormat.ZIP_TAGS ? "m.zip"
        : "m." + format.replace("-sharded", ""));
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      WriteOptions o = WriteOptions.of(f);
      if (f == ModelFormat.SHARDED_SDNB) {
        o = o.withMaxShardBytes(64);
      }
      ModelFiles.write(m.newest(), model, o);
    }
    return model;
  }

  /** Every regular file below {@code root}, path relative to it → bytes. */
  static Map<String, byte[]> files(FileSystem fs, String root) throws IOException {
    Map<String, byte[]> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(fs.getPath(root))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          m.put(p.toString().substring(root.length()), Files.readAllBytes(p));
        }
      }
    }
    return m;
  }

  static Map<String, byte[]> files(Path model, String root) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      return files(fs, root);
    }
  }

  /** A simultaneous rename (old → new, ids kept) of every pair of {@code renames}. */
  static Consumer<Map<String, Object>> renaming(Map<String, String> renames) {
    return g -> {
      Map<String, String> tmpNames = new LinkedHashMap<>();
      int i = 0;
      for (Map.Entry<String, String> e : renames.entrySet()) {
        String t = "\u0001tmp" + i++;
        tmpNames.put(t, e.getValue());
        JsonTrees.renameEverywhere(g, e.getKey(), t);
      }
      tmpNames.forEach((t, to) -> JsonTrees.renameEverywhere(g, t, to));
    };
  }

  static void writeGraphJson(FileSystem fs, String tag, Consumer<Map<String, Object>> edit) throws IOException {
    Path g = fs.getPath("/tags/" + tag + "/graph.json");
    Files.writeString(g, JsonTrees.edit(Files.readString(g), edit));
  }

  static String tagOf(Path model) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      try (Stream<Path> s = Files.list(fs.getPath("/tags"))) {
        return s.map(p -> p.getFileName().toString()).findFirst().orElseThrow();
      }
    }
  }

  // ---------------------------------------------------------------- renames by id

  /**
   * A 3-cycle of parameters (layer0/W → layer0/b → layer1/W → layer0/W, ids kept) plus a rename of
   * an op output (relu → act), in one write. The review first read GRAPH.md as "chains and swaps
   * are renames by id"; its second round showed that reading swaps the values of a graph.json
   * copied between tags whose ids differ (copyingAnotherTagsGraphJsonKeepsEachVariablesOwnValue),
   * so the rule is now: a rename only when unambiguous (the old name gone from the document, the
   * new one new to the tag), arrays by name otherwise (GRAPH.md §3.2). Here every cycled name keeps
   * its own array, whose shape the moved entries contradict: refused, in every format, with the
   * model byte-identical — never an array silently moved to another name.
   */
  @ParameterizedTest
  @ValueSource(strings = {"fb", "sdnb", "sdnb-sharded", "sdz", "container", "zip-tags"})
  void aThreeCycleOfRenamesInOneWriteIsRefusedAndMovesNothing(String format) throws IOException {
    Path m = as("cycle-" + format, format);
    String tag = tagOf(m);
    Map<String, byte[]> before = files(m, "/tags/" + tag);
    List<byte[]> modelBefore = new ArrayList<>();
    try (Stream<Path> s = Files.list(m.getParent())) {
      for (Path p : s.sorted().toList()) {
        modelBefore.add(Files.readAllBytes(p));
      }
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      GraphJsonException e = assertThrows(GraphJsonException.class,
          () -> writeGraphJson(fs, tag, renaming(new LinkedHashMap<>(Map.of("layer0/W", "layer0/b", "layer0/b",
              "layer1/W", "layer1/W", "layer0/W", "relu", "act")))));
      assertTrue(e.getMessage().contains("shape: expected"), e.getMessage());
    }
    Map<String, byte[]> after = files(m, "/tags/" + tag);
    assertEquals(before.keySet(), after.keySet());
    before.forEach((p, b) -> assertArrayEquals(b, after.get(p), format + " " + p + " untouched"));
    List<byte[]> modelAfter = new ArrayList<>();
    try (Stream<Path> s = Files.list(m.getParent())) {
      for (Path p : s.sorted().toList()) {
        modelAfter.add(Files.readAllBytes(p));
      }
    }
    assertEquals(modelBefore.size(), modelAfter.size());
    for (int k = 0; k < modelBefore.size(); k++) {
      assertArrayEquals(modelBefore.get(k), modelAfter.get(k), format + ": the model's files are byte-identical");
    }
  }

  /**
   * Two tags of one sdz / zip-tags model sharing their arrays (the second a copy of the first):
   * a rename in one tag's graph.json renames there only (arrays and Adam state follow); the other
   * tag keeps every file.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sdz", "zip-tags", "container"})
  void aRenameInOneOfTwoTagsSharingArraysLeavesTheOtherTag(String format) throws IOException {
    Path m = as("two-" + format, format);
    String tag = tagOf(m);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Path from = fs.getPath("/tags/" + tag);
      Path to = fs.getPath("/tags/v2");
      Files.createDirectory(to);
      for (String rel : files(fs, "/tags/" + tag).keySet()) {
        Path target = fs.getPath("/tags/v2" + rel);
        Files.createDirectories(target.getParent());
        Files.copy(fs.getPath("/tags/" + tag + rel), target);
      }
      assertEquals(from.getFileSystem(), to.getFileSystem());
    }
    Map<String, byte[]> source = files(m, "/tags/" + tag);
    Map<String, byte[]> copy = files(m, "/tags/v2");
    assertEquals(source.keySet(), copy.keySet(), "the copy is whole");
    try (FileSystem fs = ModelFileSystems.open(m)) {
      // an unambiguous rename (layer0/W → enc/W: the old name gone, the new one new); a swap of two
      // names both kept is no rename (arrays stay by name), so it is left out here
      writeGraphJson(fs, "v2", renaming(new LinkedHashMap<>(Map.of("layer0/W", "enc/W"))));
    }
    Map<String, byte[]> after = files(m, "/tags/" + tag);
    assertEquals(source.keySet(), after.keySet());
    source.forEach((p, b) -> assertArrayEquals(b, after.get(p), format + ": the other tag's " + p));
    Map<String, byte[]> v2 = files(m, "/tags/v2");
    assertArrayEquals(copy.get("/params/layer0/W"), v2.get("/params/enc/W"));
    assertFalse(v2.containsKey("/params/layer0/W"));
    assertArrayEquals(copy.get("/params/layer1/W"), v2.get("/params/layer1/W"));
    assertArrayEquals(copy.get("/updater/layer0/W/V"), v2.get("/updater/enc/W/V"));
  }

  /**
   * GRAPH.md §4 "Rename a variable: change its name everywhere in the document … it keeps its
   * array and updater state". A placeholder and the loss variable are named in training.json too
   * (dataSetFeatureMapping, dataSetLabelMapping, lossVariables: DL4J's TrainingConfig). A rename
   * through graph.json is committed with training.json still naming the old variables: the
   * model's training configuration names variables the graph no longer has.
   */
  @Test
  void renamingAPlaceholderOrTheLossLeavesNoTrainingJsonNamingTheOldVariable() throws IOException {
    Path m = fb("ph");
    String training;
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      training = Files.readString(fs.getPath("/training.json"));
    }
    assertTrue(training.contains("\"input\"") && training.contains("\"label\""), training);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      writeGraphJson(fs, "default", renaming(new LinkedHashMap<>(Map.of("input", "features", "label", "target"))));
    } catch (IOException refused) {
      return; // refused is fine too
    }
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      String g = Files.readString(fs.getPath("/graph.json"));
      assertTrue(g.contains("\"features\"") && !g.contains("\"input\""), "renamed in the graph");
      String t = Files.readString(fs.getPath("/training.json"));
      assertFalse(t.contains("\"input\"") || t.contains("\"label\""),
          "training.json names variables the committed graph does not have: " + t);
    }
  }

  /**
   * An updater state written before its parameter (allowed: a copy in any order) under the name a
   * graph.json rename then gives a parameter: the renamed parameter's Adam M and V must not be
   * lost silently, and nothing may escape as an unchecked exception.
   */
  @Test
  void aRenameOntoTheNameOfAnOrphanUpdaterStateLosesNoState() throws IOException {
    Path m = fb("orphan");
    Map<String, byte[]> before = files(m, "/tags/default");
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.createDirectories(fs.getPath("/updater/enc/W"));
      Files.write(fs.getPath("/updater/enc/W/M"), before.get("/updater/layer1/W/M"));
      try {
        writeGraphJson(fs, "default", renaming(Map.of("layer0/W", "enc/W")));
      } catch (IOException refused) {
        ((JournaledFileSystem) fs).rollback();
        return;
      } catch (RuntimeException e) {
        fail("an unchecked exception escaped a graph.json write", e);
      }
      byte[] v = Files.readAllBytes(fs.getPath("/updater/enc/W/V"));
      assertArrayEquals(before.get("/updater/layer0/W/V"), v, "layer0/W's V followed its rename");
      try (Stream<Path> s = Files.list(fs.getPath("/updater/enc/W"))) {
        assertEquals(2, s.count(), "one M and one V under enc/W");
      }
      ((JournaledFileSystem) fs).rollback();
    }
  }

  /**
   * GRAPH.md §3.1 "ops: id unique". An op added without an id gets "max + 1"; past
   * Integer.MAX_VALUE that wraps to MIN_VALUE — the id another op of the document gives
   * explicitly — and the graph is accepted with two ops of one id (which a later reformatted
   * write-back of that graph.json then refuses).
   */
  @Test
  void anOpIdLeftOutNeverDuplicatesAnotherOpsId() throws IOException {
    Path m = fb("opid");
    byte[] json;
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      json = JsonTrees.edit(Files.readString(fs.getPath("/graph.json")), g -> {
        Map<String, Object> relu = op(g, "relu");
        int k = 0;
        for (Object id : new Object[] {(long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE, null}) {
          Map<String, Object> o = JsonTrees.copy(relu);
          String name = "extra" + k;
          o.put("name", name);
          o.put("outputs", List.of(name));
          if (id == null) {
            o.remove("id");
          } else {
            o.put("id", id);
          }
          Map<String, Object> v = JsonTrees.copy(variable(g, "relu"));
          v.put("name", name);
          v.put("id", List.of(1000L + k, 0L));
          list(g, "ops").add(o);
          list(g, "variables").add(v);
          k++;
        }
      }).getBytes(StandardCharsets.UTF_8);
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      try {
        Files.write(fs.getPath("/graph.json"), json);
      } catch (IOException refused) {
        return;
      }
      Map<String, Object> g = JsonTrees.parse(Files.readString(fs.getPath("/graph.json")));
      List<Object> ids = new ArrayList<>();
      for (Object o : list(g, "ops")) {
        ids.add(((Map<?, ?>) o).get("id"));
      }
      assertEquals(ids.size(), new HashSet<>(ids).size(), "op ids are unique: " + ids);
    }
  }

  /**
   * A graph.json write channel open across a commit (another thread commits meanwhile): its
   * bytes, closed after the commit, are installed, shown and committed next — not lost.
   */
  @Test
  void graphJsonClosedAfterAnotherCommitIsNotLost() throws IOException {
    Path m = fb("across");
    byte[] json;
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      json = JsonTrees.edit(Files.readString(fs.getPath("/graph.json")),
          g -> list(g, "outputs").add("output")).getBytes(StandardCharsets.UTF_8);
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/graph.json"), StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        ch.write(ByteBuffer.wrap(json));
        Files.write(fs.getPath("/params/sd_var"), new byte[] {0, 0, (byte) 0x80, 0x3f});
        ((JournaledFileSystem) fs).commit();
      }
      assertTrue(Files.readString(fs.getPath("/graph.json")).contains("\"outputs\": [\"output\"]")
          || JsonTrees.parse(Files.readString(fs.getPath("/graph.json"))).get("outputs").equals(List.of("output")));
    }
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      assertEquals(List.of("output"), JsonTrees.parse(Files.readString(fs.getPath("/graph.json"))).get("outputs"));
      assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3f}, Files.readAllBytes(fs.getPath("/params/sd_var")));
    }
  }

  // ---------------------------------------------------------------- copies verified by Path tools

  static Stream<Arguments> fixturesAndOrders() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (Path p : Fixtures.all()) {
      String n = p.getFileName().toString();
      if (n.equals("dtypes.fb") || n.equals("non2d_1.fb")) {
        continue; // an empty array: their copy fails without graph.json too (see preexistingEmptyArrayCopy…)
      }
      for (String order : List.of("lexical", "reverse", "graphJsonFirst", "paramsFirst", "graphJsonLast")) {
        for (boolean crossMount : new boolean[] {false, true}) {
          out.add(Arguments.of(p.getFileName().toString(), p, order, crossMount));
        }
      }
    }
    return out.stream();
  }

  static List<String> ordered(List<String> rel, String order) {
    List<String> l = new ArrayList<>(rel);
    switch (order) {
      case "reverse" -> Collections.reverse(l);
      case "graphJsonFirst" -> l.sort(Comparator.comparing(s -> s.equals("/graph.json") ? 0 : 1));
      case "paramsFirst" -> l.sort(Comparator.comparing(s -> s.startsWith("/params/") ? 0
          : s.startsWith("/updater/") ? 1 : s.equals("/graph.json") ? 2 : 3));
      case "graphJsonLast" -> l.sort(Comparator.comparing(s -> s.equals("/graph.json") ? 1 : 0));
      default -> { }
    }
    return l;
  }

  /**
   * FILESYSTEM.md §7.1 / GRAPH.md §3.2: a tag copied file by file into a new tag, in any order,
   * is the same tag; and each copied file verifies as a copy right after it is made (Files.mismatch,
   * commons-io PathUtils.fileContentEquals, Guava contentEquals), graph.json included — within one
   * mount and from another mount; then committed, every file is the source's.
   */
  @ParameterizedTest(name = "{0} {2} crossMount={3}")
  @MethodSource("fixturesAndOrders")
  void aTagCopiedFileByFileVerifiesInEveryOrder(String label, Path fixture, String order, boolean crossMount)
      throws IOException {
    Path d = Files.createDirectories(tmp.resolve("copy"));
    Path m = d.resolve("m.sdz");
    try (Model mm = Models.open(fixture)) {
      ModelFiles.write(mm.newest(), m, WriteOptions.of(ModelFormat.SDZ));
    }
    Path src = m;
    if (crossMount) {
      src = d.resolve("src.sdz");
      Files.copy(m, src);
    }
    String tag = tagOf(src);
    Map<String, byte[]> source = files(src, "/tags/" + tag);
    try (FileSystem sfs = crossMount ? ModelFileSystems.open(src, Map.of("readOnly", true)) : null;
        FileSystem fs = ModelFileSystems.open(m)) {
      FileSystem from = crossMount ? sfs : fs;
      Files.createDirectory(fs.getPath("/tags/v2"));
      for (String rel : ordered(new ArrayList<>(source.keySet()), order)) {
        Path a = from.getPath("/tags/" + tag + rel);
        Path b = fs.getPath("/tags/v2" + rel);
        if (b.getParent() != null && !Files.isDirectory(b.getParent())) {
          Files.createDirectories(b.getParent());
        }
        Files.copy(a, b);
        assertEquals(-1L, Files.mismatch(a, b), rel + " verifies as a copy (Files.mismatch)");
        assertTrue(PathUtils.fileContentEquals(a, b), rel + " (commons-io)");
        assertTrue(MoreFiles.asByteSource(a).contentEquals(
            MoreFiles.asByteSource(b)), rel + " (Guava)");
      }
      Map<String, byte[]> copy = files(fs, "/tags/v2");
      assertEquals(source.keySet(), copy.keySet(), "in the session");
      source.forEach((p, bytes) -> assertArrayEquals(bytes, copy.get(p), "in the session: " + p));
    }
    Map<String, byte[]> committed = files(m, "/tags/v2");
    assertEquals(source.keySet(), committed.keySet(), "committed");
    source.forEach((p, bytes) -> assertArrayEquals(bytes, committed.get(p), "committed: " + p));
  }

  // ---------------------------------------------------------------- two threads

  /**
   * Two threads of one mount: one writes graph.json edits (matmul's alpha), one writes
   * params/layer1/W, 40 times each. Each thread's last write is what the tree shows and what is
   * committed; nothing escapes as an unchecked exception.
   */
  @Test
  void graphJsonAndAParameterWrittenByTwoThreads() throws Exception {
    Path m = fb("threads");
    String shown;
    byte[] w;
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      shown = Files.readString(fs.getPath("/graph.json"));
      w = Files.readAllBytes(fs.getPath("/params/layer1/W"));
    }
    int n = 40;
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    byte[][] last = new byte[1][];
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Thread a = new Thread(() -> {
        try {
          for (int i = 0; i < n; i++) {
            double alpha = 1.0 + i;
            Files.writeString(fs.getPath("/graph.json"), JsonTrees.edit(shown,
                g -> object(op(g, "matmul"), "tArgs").put("alpha", alpha)));
          }
        } catch (Throwable t) {
          failures.add(t);
        }
      });
      Thread b = new Thread(() -> {
        try {
          for (int i = 0; i < n; i++) {
            byte[] x = w.clone();
            x[0] = (byte) i;
            Files.write(fs.getPath("/params/layer1/W"), x);
            last[0] = x;
          }
        } catch (Throwable t) {
          failures.add(t);
        }
      });
      a.start();
      b.start();
      a.join();
      b.join();
      assertEquals(List.of(), failures);
      assertArrayEquals(last[0], Files.readAllBytes(fs.getPath("/params/layer1/W")));
    }
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      assertArrayEquals(last[0], Files.readAllBytes(fs.getPath("/params/layer1/W")));
      assertEquals(40.0, object(op(JsonTrees.parse(Files.readString(fs.getPath("/graph.json"))), "matmul"), "tArgs")
          .get("alpha"));
    }
  }

  /**
   * NOT issue 19 (pre-existing, reported for completeness; kept as the known gap it is): a tag
   * holding an empty array
   * (non2d_1's Reshape/shape, dtypes' empty) copied file by file into a new tag WITHOUT graph.json
   * is not the same tag — its graph file differs in the session and the commit is refused
   * ("holds 0 bytes, but FLOAT[] needs 4"). The graph.json orders of
   * aTagCopiedFileByFileVerifiesInEveryOrder fail the same way for these two fixtures.
   */
  @ParameterizedTest
  @ValueSource(strings = {"tf-import/non2d_1.fb", "dtypes.fb"})
  void preexistingEmptyArrayCopyFailsWithoutGraphJsonToo(String fixture) throws IOException {
    Path d = Files.createDirectories(tmp.resolve("pre"));
    Path m = d.resolve("m.sdz");
    try (Model mm = Models.open(Fixtures.get(fixture))) {
      ModelFiles.write(mm.newest(), m, WriteOptions.of(ModelFormat.SDZ));
    }
    String tag = tagOf(m);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Map<String, byte[]> source = files(fs, "/tags/" + tag);
      Files.createDirectory(fs.getPath("/tags/v2"));
      for (String rel : source.keySet()) {
        if (rel.equals("/graph.json")) {
          continue;
        }
        Path b = fs.getPath("/tags/v2" + rel);
        if (!Files.isDirectory(b.getParent())) {
          Files.createDirectories(b.getParent());
        }
        Files.copy(fs.getPath("/tags/" + tag + rel), b);
      }
      // Known gap (RELIABILITY.md "Known gaps", older than issue 19): an empty array of shape []
      // copied as a 0-byte file is not taken as empty (a written 0-byte file is empty only where the
      // shape has no elements, ArrayRules), so the copy is refused at the commit — nothing is lost
      CommitRefusedException e = assertThrows(CommitRefusedException.class,
          () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().contains("holds 0 bytes, but"), e.getMessage());
      ((JournaledFileSystem) fs).rollback();
    }
  }

  /**
   * Two tags of one model whose graphs number the same variables differently (DL4J numbers
   * variables at each save: a checkpoint saved after a variable was added has every id shifted;
   * here made by two graph.json writes that give const/scale and sd_var each other's id numbers
   * without renaming anything). Copying one tag's graph.json onto the other's — a Path copy of a
   * file, "like any file" (issue 19, item 3), the text twin of copying {@code graph} — must keep
   * each variable's own value as copying {@code graph} does ("Arrays follow names", GRAPH.md
   * §3.2). The id rule instead renames sd_var → const/scale and const/scale → sd_var: the two
   * values are silently swapped (same shape and type, so nothing refuses it).
   */
  @ParameterizedTest
  @ValueSource(strings = {"graph", "graph.json"})
  void copyingAnotherTagsGraphJsonKeepsEachVariablesOwnValue(String file) throws IOException {
    Path m = as("ids-" + file.replace('.', '_'), "sdz");
    String tag = tagOf(m);
    byte[] seven = {0, 0, (byte) 0xe0, 0x40};
    byte[] nine = {0, 0, 0x10, 0x41};
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.createDirectory(fs.getPath("/tags/v2"));
      for (String rel : files(fs, "/tags/" + tag).keySet()) {
        Path b = fs.getPath("/tags/v2" + rel);
        if (!Files.isDirectory(b.getParent())) {
          Files.createDirectories(b.getParent());
        }
        Files.copy(fs.getPath("/tags/" + tag + rel), b);
      }
    }
    try (FileSystem fs = ModelFileSystems.open(m)) { // v2 renumbered: new ids first (no rename), then the other's
      writeGraphJson(fs, "v2", g -> {
        variable(g, "const/scale").put("id", List.of(100L, 0L));
        variable(g, "sd_var").put("id", List.of(101L, 0L));
      });
      writeGraphJson(fs, "v2", g -> {
        variable(g, "const/scale").put("id", List.of(16L, 0L));
        variable(g, "sd_var").put("id", List.of(3L, 0L));
      });
      Files.write(fs.getPath("/tags/v2/params/const/scale"), seven);
      Files.write(fs.getPath("/tags/v2/params/sd_var"), nine);
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertEquals(List.of(16L, 0L), variable(JsonTrees.parse(Files.readString(fs.getPath("/tags/v2/graph.json"))),
          "const/scale").get("id"), "v2 numbers const/scale 16");
      assertArrayEquals(seven, Files.readAllBytes(fs.getPath("/tags/v2/params/const/scale")));
      Files.copy(fs.getPath("/tags/" + tag + "/" + file), fs.getPath("/tags/v2/" + file),
          StandardCopyOption.REPLACE_EXISTING);
      assertArrayEquals(seven, Files.readAllBytes(fs.getPath("/tags/v2/params/const/scale")),
          "copying " + file + " keeps v2's const/scale value");
      assertArrayEquals(nine, Files.readAllBytes(fs.getPath("/tags/v2/params/sd_var")),
          "copying " + file + " keeps v2's sd_var value");
    }
  }

  /**
   * GRAPH.md §3.1 bounds a written graph.json at 96 MiB, "so every rendering can be written back".
   * Within that bound, 33 million empty objects ({@code [{},{},…]}, 3 bytes each) are parsed into
   * one LinkedHashMap each before a single check runs: an OutOfMemoryError (at -Xmx2g, the test
   * heap) on close instead of a refusal — hostile bytes written through a mount take the JVM's
   * heap, and with it every other thread of the application.
   */
  @Test
  void ninetyMegabytesOfEmptyObjectsAreRefusedNotAnOutOfMemoryError() throws IOException {
    Path m = fb("oom");
    byte[] before = Files.readAllBytes(m);
    int n = (int) ((96L << 20) - 64) / 3;
    byte[] json = new byte[n * 3 + 32];
    int at = 0;
    for (byte c : "{\"variables\":[".getBytes(StandardCharsets.US_ASCII)) {
      json[at++] = c;
    }
    for (int i = 0; i < n - 1; i++) {
      json[at++] = '{';
      json[at++] = '}';
      json[at++] = ',';
    }
    for (byte c : "{}],\"ops\":[]}".getBytes(StandardCharsets.US_ASCII)) {
      json[at++] = c;
    }
    byte[] exact = Arrays.copyOf(json, at);
    json = null;
    try (FileSystem fs = ModelFileSystems.open(m)) {
      try {
        Files.write(fs.getPath("/graph.json"), exact);
        fail("a graph.json of no named variable is refused");
      } catch (IOException refused) {
        // expected
      } catch (OutOfMemoryError e) {
        exact = null;
        fail("a 96 MiB graph.json exhausted the heap: " + e);
      }
    }
    assertArrayEquals(before, Files.readAllBytes(m));
  }

  /**
   * The documented departure (GRAPH.md §3.2, "an editor's own formatting is not kept"), shown
   * with the Path idiom it breaks: Files.copy of a hand-formatted graph.json from the default file
   * system into the mount, then Files.mismatch to verify the copy, reports a difference although
   * the copy was accepted.
   */
  @Test
  void aHandFormattedGraphJsonCopiedInVerifiesAsACopy() throws IOException {
    Path m = fb("hand");
    Path local = tmp.resolve("g.json");
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      Files.writeString(local, JsonTrees.edit(Files.readString(fs.getPath("/graph.json")),
          g -> list(g, "outputs").add("output")));
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Path g = fs.getPath("/graph.json");
      Files.copy(local, g, StandardCopyOption.REPLACE_EXISTING);
      // the documented departure (GRAPH.md §3.2): graph.json shows the graph the write made, in its
      // canonical form — not the compact text copied in — so a byte comparison reports a difference,
      // while the JSON values are the same
      assertNotEquals(-1L, Files.mismatch(local, g), "graph.json reads back canonical");
      assertEquals(JsonTrees.parse(Files.readString(local)), JsonTrees.parse(Files.readString(g)),
          "the same values");
    }
  }

  /**
   * GRAPH.md §3.2 "Nothing changed, nothing to commit … the same JSON reformatted by an editor".
   * After {@code graph} is deleted, graph.json shows the tag's variables (no ops, no ids). Written
   * back reformatted (any JSON library), it is not recognised as unchanged: the tag is given a new
   * graph (hidden, §7.1), and the commit differs from the commit of the deletion alone.
   */
  @Test
  void aGraphlessTagsGraphJsonWrittenBackReformattedChangesNothing() throws IOException {
    Path a = as("graphless-a", "sdz");
    Path b = as("graphless-b", "sdz");
    String tag = tagOf(a);
    try (FileSystem fs = ModelFileSystems.open(a)) {
      Files.delete(fs.getPath("/tags/" + tag + "/graph"));
    }
    try (FileSystem fs = ModelFileSystems.open(b)) {
      Files.delete(fs.getPath("/tags/" + tag + "/graph"));
      Path g = fs.getPath("/tags/" + tag + "/graph.json");
      String shown = Files.readString(g);
      Files.writeString(g, JsonTrees.edit(shown, d -> { })); // the same JSON, reformatted
      assertEquals(shown, Files.readString(g), "graph.json reads as before the write-back");
    }
    Map<String, byte[]> fa = files(a, "/tags/" + tag);
    Map<String, byte[]> fb = files(b, "/tags/" + tag);
    assertEquals(fa.keySet(), fb.keySet());
    fa.forEach((p, bytes) -> {
      if (!p.equals("/metadata/creation.time")) { // the time of each commit (two commits here)
        assertEquals(new String(bytes, StandardCharsets.UTF_8), new String(fb.get(p), StandardCharsets.UTF_8),
            "the write-back changed the commit: " + p);
      }
    });
  }

  /**
   * GRAPH.md §4: a variable renamed by id frees its old name; a new variable may take it. A new
   * PLACEHOLDER named like a parameter renamed away in the same document is refused, checked
   * against the array that the rename moves to the other name (LOW: a false refusal).
   */
  @Test
  void aNewVariableTakingTheNameOfARenamedOneIsNoRename() throws IOException {
    Path m = fb("freed");
    byte[] before = Files.readAllBytes(m);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      // layer0/W renamed enc/W, and a new placeholder named layer0/W: the old name stays in the
      // document, so this is no rename (GRAPH.md §3.2) — layer0/W keeps its array, which a
      // placeholder cannot hold: refused, naming it
      GraphJsonException e = assertThrows(GraphJsonException.class,
          () -> writeGraphJson(fs, "default", g -> {
            renaming(Map.of("layer0/W", "enc/W")).accept(g);
            Map<String, Object> ph = JsonTrees.copy(variable(g, "input"));
            ph.put("name", "layer0/W");
            ph.remove("id");
            list(g, "variables").add(ph);
          }));
      assertTrue(e.getMessage().contains("variable 'layer0/W', kind: PLACEHOLDER holds no array"), e.getMessage());
    }
    assertArrayEquals(before, Files.readAllBytes(m));
  }

}
