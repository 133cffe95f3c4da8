package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.JsonTrees.object;
import static org.modelfs.testing.JsonTrees.op;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.testing.JsonTrees;

/**
 * The boundary of {@code "#<position>"} keys (docs/GRAPH.md §1.6: DL4J writes some ops with more
 * values than their descriptor names): a graph.json written into a new tag — a whole graph, as a
 * copy of a tag gives it — may hold them; once that is the tag's graph, an edit may keep and
 * change as many as the op held, and one more is refused, naming the op, the descriptor's
 * arguments and how many the op held. No fixture holds such an op, so the test makes one.
 */
class GraphJsonBeyondTheDescriptorTest {
  @TempDir
  Path dir;

  @Test
  void anOpKeepsTheValuesPastItsDescriptorThatItHeldAndNoMore() throws IOException {
    Path model = ProviderTestModels.write(dir, ProviderTestModels.Format.SDZ);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("commitOnClose", false))) {
      String shown = Files.readString(fs.getPath("/graph.json"));
      Files.createDirectory(fs.getPath("/tags/v2"));
      Path gj = fs.getPath("/tags/v2/graph.json");

      Files.writeString(gj, withIArgs(shown, Map.of("#3", 7L)));
      assertEquals(7L, iArgs(Files.readString(gj)).get("#3"), "a whole graph may hold values past the descriptor");

      Files.writeString(gj, withIArgs(Files.readString(gj), Map.of("#3", 8L)));
      assertEquals(8L, iArgs(Files.readString(gj)).get("#3"), "\"#3\" kept, and edited: accepted");

      String more = withIArgs(Files.readString(gj), Map.of("#3", 8L, "#4", 9L));
      GraphJsonException e = assertThrows(GraphJsonException.class, () -> Files.writeString(gj, more));
      for (String s : new String[] {"op 'matmul' (matmul), iArgs", "5 values, but matmul takes 3 iArgs",
          "transX (INT64), transY (INT64), transZ (INT64)", "this op held 1 more"}) {
        assertTrue(e.getMessage().contains(s), "expected «" + s + "» in: " + e.getMessage());
      }

      String padded = withIArgs(Files.readString(gj), Map.of("#03", 8L));
      e = assertThrows(GraphJsonException.class, () -> Files.writeString(gj, padded));
      assertTrue(e.getMessage().contains("no argument \"#03\""), e.getMessage());
      assertEquals(8L, iArgs(Files.readString(gj)).get("#3"), "refusals changed nothing");
    }
  }

  /** {@code json} with {@code extra} added to the first matmul's iArgs. */
  private static String withIArgs(String json, Map<String, Long> extra) {
    return JsonTrees.edit(json, d -> {
      Map<String, Object> args = object(op(d, "matmul"), "iArgs");
      args.keySet().removeIf(k -> k.startsWith("#"));
      new TreeMap<>(extra).forEach(args::put);
    });
  }

  private static Map<String, Object> iArgs(String json) {
    return object(op(JsonTrees.parse(json), "matmul"), "iArgs");
  }
}
