package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.format.JsonText;
import org.modelfs.format.fb.GraphJsonException;

/**
 * The common edits of docs/GRAPH.md §4, each made as a user would — the text of graph.json
 * edited and written back with {@code Files.writeString} through a mount opened with
 * {@code FileSystems.newFileSystem} — and checked after the commit, on a fresh mount: the graph
 * says what the edit says, and the arrays and updater state are where the edit puts them. (That
 * DL4J computes what the edited graph says is {@code GraphJsonEditInteropTest}, {@code -Pinterop}.)
 */
class GraphJsonEditTest {
  @TempDir
  Path dir;

  private Path model() throws IOException {
    return ProviderTestModels.copy(dir, "m.fb");
  }

  /** Edits graph.json's text with {@code edit} and writes it back; the mount's close commits. */
  private static void edit(Path model, UnaryOperator<String> edit) throws IOException {
    try (FileSystem fs = FileSystems.newFileSystem(model)) {
      Path g = fs.getPath("/graph.json");
      String before = Files.readString(g);
      String after = edit.apply(before);
      assertFalse(before.equals(after), "the edit changes the text");
      Files.writeString(g, after);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> graph(Path model) throws IOException {
    try (FileSystem fs = FileSystems.newFileSystem(model)) {
      return (Map<String, Object>) JsonText.parse(Files.readString(fs.getPath("/graph.json")), 32, true);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> find(Map<String, Object> graph, String list, String name) {
    for (Object o : (List<Object>) graph.get(list)) {
      Map<String, Object> m = (Map<String, Object>) o;
      if (name.equals(m.get("name"))) {
        return m;
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> property(Map<String, Object> op, String name) {
    for (Object o : (List<Object>) op.get("properties")) {
      if (name.equals(((Map<String, Object>) o).get("name"))) {
        return (Map<String, Object>) o;
      }
    }
    return null;
  }

  private static byte[] read(Path model, String path) throws IOException {
    try (FileSystem fs = FileSystems.newFileSystem(model)) {
      return Files.readAllBytes(fs.getPath(path));
    }
  }

  @Test
  void aNamedArgumentChangesAndItsEchoingPropertyFollows() throws IOException {
    Path m = model();
    edit(m, s -> s.replace("\"dimension\": 1\n", "\"dimension\": 0\n")); // softmax's iArgs
    Map<String, Object> softmax = find(graph(m), "ops", "softmax");
    assertEquals(Map.of("dimension", 0L), softmax.get("iArgs"));
    assertEquals(List.of(0L), property(softmax, "dimension").get("l"), "the property DL4J repeats it in follows");
  }

  @Test
  void aPositionalArgumentAndAScalarValueChange() throws IOException {
    Path m = model();
    edit(m, s -> s.replaceFirst("\"alpha\": 1\\.0,", "\"alpha\": 2.5,") // the first matmul
        .replace("\"values\": [0.0]", "\"values\": [0.25]"));
    Map<String, Object> g = graph(m);
    assertEquals(2.5, ((Map<?, ?>) find(g, "ops", "matmul").get("tArgs")).get("alpha"));
    assertEquals(1.0, ((Map<?, ?>) find(g, "ops", "matmul_1").get("tArgs")).get("alpha"), "the other matmul is as it was");
    assertEquals(List.of(0.25), ((Map<?, ?>) find(g, "ops", "relu").get("scalar")).get("values"), "relu's cutoff");
  }

  @Test
  void editingOnlyAnEchoingPropertyIsRefusedAndChangesNothing() throws IOException {
    Path m = model();
    byte[] before = Files.readAllBytes(m);
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      Path g = fs.getPath("/graph.json");
      String s = Files.readString(g);
      String edited = s.replace("\"l\": [1],", "\"l\": [0],"); // softmax's property "dimension" only
      GraphJsonException e = assertThrows(GraphJsonException.class, () -> Files.writeString(g, edited));
      assertTrue(e.getMessage().contains("op 'softmax' (softmax), property 'dimension'"), e.getMessage());
      assertTrue(e.getMessage().contains("DL4J computes with iArgs"), e.getMessage());
    }
    assertArrayEquals(before, Files.readAllBytes(m));
  }

  @Test
  void anOpIsRenamedAndKeepsItsWiring() throws IOException {
    Path m = model();
    edit(m, s -> s.replace("\"name\": \"add_1\",", "\"name\": \"logits_add\","));
    Map<String, Object> g = graph(m);
    Map<String, Object> op = find(g, "ops", "logits_add");
    assertNotNull(op);
    assertEquals(List.of("matmul_1", "&MyParam*"), op.get("inputs"));
    assertEquals(List.of("logits"), op.get("outputs"));
    assertEquals(null, find(g, "ops", "add_1"));
  }

  @Test
  void aVariableIsRenamedEverywhereAndKeepsItsArrayAndUpdaterState() throws IOException {
    Path m = model();
    byte[] w = read(m, "/params/layer0/W");
    byte[] mState = read(m, "/updater/layer0/W/M");
    edit(m, s -> s.replace("\"layer0/W\"", "\"encoder/W\""));
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      assertArrayEquals(w, Files.readAllBytes(fs.getPath("/params/encoder/W")));
      assertArrayEquals(mState, Files.readAllBytes(fs.getPath("/updater/encoder/W/M")));
      assertFalse(Files.exists(fs.getPath("/params/layer0/W")));
    }
    assertEquals(List.of("input", "encoder/W"), find(graph(m), "ops", "matmul").get("inputs"));
  }

  @Test
  void aPlaceholdersShapeChangesAndAnOutputIsAdded() throws IOException {
    Path m = model();
    edit(m, s -> s.replace("\"shape\": [-1, 4],", "\"shape\": [16, 4],")
        .replace("\"outputs\": [],\n  \"configuration\"", "\"outputs\": [\"output\"],\n  \"configuration\""));
    Map<String, Object> g = graph(m);
    assertEquals(List.of(16L, 4L), find(g, "variables", "input").get("shape"));
    assertEquals(List.of("output"), g.get("outputs"));
  }

  @Test
  void anOpIsAddedWithANewOutputVariable() throws IOException {
    Path m = model();
    edit(m, s -> {
      String op = "    {\n      \"name\": \"relu2\",\n      \"opName\": \"relu\",\n      \"opType\": \"SCALAR\",\n"
          + "      \"opNum\": 39,\n      \"id\": 100,\n      \"inputs\": [\"output\"],\n      \"outputs\": [\"relu2\"],\n"
          + "      \"scalar\": {\"dtype\": \"FLOAT\", \"shape\": [], \"values\": [0.0]}\n    },\n";
      String var = "    {\"name\": \"relu2\", \"kind\": \"ARRAY\", \"dtype\": \"FLOAT\", \"shape\": null},\n";
      return s.replace("  \"ops\": [\n", "  \"ops\": [\n" + op).replace("  \"variables\": [\n", "  \"variables\": [\n" + var);
    });
    Map<String, Object> g = graph(m);
    assertEquals(List.of("output"), find(g, "ops", "relu2").get("inputs"));
    assertEquals(List.of(100L, 0L), find(g, "variables", "relu2").get("id"), "an op's output gets [op id, index]");
  }

  @Test
  void theTrainingConfigurationIsDroppedByDeletingTrainingJson() throws IOException {
    Path m = model();
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      // updater state needs a training configuration: its files go first, then training.json
      for (String p : new String[] {"/updater", "/training.json"}) {
        try (var walk = Files.walk(fs.getPath(p))) {
          for (Path x : walk.sorted(Comparator.reverseOrder()).toList()) {
            if (!x.toString().equals("/updater")) {
              Files.delete(x);
            }
          }
        }
      }
    }
    try (FileSystem fs = FileSystems.newFileSystem(m)) {
      assertFalse(Files.exists(fs.getPath("/training.json")));
      assertTrue(Files.exists(fs.getPath("/graph.json")));
    }
  }

  @Test
  void anOpAndItsOutputAreRemoved() throws IOException {
    Path m = model();
    edit(m, s -> {
      Map<String, Object> g = asMap(s);
      assertNotNull(find(g, "ops", "softmax_cross_entropy_loss"));
      int op = s.indexOf("    {\n      \"name\": \"softmax_cross_entropy_loss\"");
      int end = s.indexOf("\n    }", op) + "\n    }".length();
      String t = s.substring(0, op - 2) + s.substring(end); // the op and the comma before it
      int v = t.indexOf("    {\n      \"name\": \"loss\",");
      int vEnd = t.indexOf("\n    },\n", v) + "\n    },\n".length();
      t = t.substring(0, v) + t.substring(vEnd);
      return t.replace("\"lossVariables\": [\n    \"loss\"\n  ]", "\"lossVariables\": []");
    });
    Map<String, Object> g = graph(m);
    assertEquals(null, find(g, "ops", "softmax_cross_entropy_loss"));
    assertEquals(null, find(g, "variables", "loss"));
    assertEquals(List.of(), g.get("lossVariables"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(String json) {
    return (Map<String, Object>) JsonText.parse(json, 32, true);
  }
}
