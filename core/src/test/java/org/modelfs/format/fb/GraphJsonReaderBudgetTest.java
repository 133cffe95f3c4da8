package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.container.Models;
import org.modelfs.format.JsonText;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.JsonTrees;

/**
 * The heap bound of a written graph.json as docs/GRAPH.md §3.1 states it: a 32,000-op graph (the
 * benchmark's largest, {@code GraphJsonWriteMain}) takes about a third of
 * {@link GraphJsonReader#MAX_HEAP} once parsed — within a third, not within a quarter — so every
 * graph that size is read back with room to spare. (That megabytes of empty objects are refused
 * before they exhaust the heap: {@code GraphJsonRenamesAndCopiesTest}.)
 */
class GraphJsonReaderBudgetTest {

  @Test
  void aGraphOf32000OpsTakesAboutAThirdOfTheBudget() throws IOException {
    String big;
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      Map<String, Object> doc = JsonTrees.parse(new String(GraphJson.render(m.newest(), "f"), StandardCharsets.UTF_8));
      JsonTrees.addSoftmaxOps(doc, 32000, true);
      big = JsonTrees.write(doc);
    }
    assertTrue(big.length() > 10_000_000, "a graph.json of " + big.length() + " characters");
    assertDoesNotThrow(() -> JsonText.parse(big, GraphJsonReader.MAX_DEPTH, true, GraphJsonReader.MAX_HEAP / 3));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> JsonText.parse(big, GraphJsonReader.MAX_DEPTH, true, GraphJsonReader.MAX_HEAP / 4));
    assertTrue(e.getMessage().contains("bytes of heap once read"), e.getMessage());
  }
}
