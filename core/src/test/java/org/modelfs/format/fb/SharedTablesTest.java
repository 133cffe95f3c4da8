package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.BudgetExceededException;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;

/**
 * FlatGraphs that share one table many times (a DAG, which FlatBuffers allows): a copy costs
 * the shared table once, and a walk that would unfold it beyond the budget proportional to the
 * file (docs/FORMATS.md §2.1) is refused with a {@link ModelFormatException} naming the file,
 * the structure and its offset.
 */
class SharedTablesTest {
  @TempDir Path tmp;

  /** 2,000 nodes that are one node of 2,000 values: 16 KB shared, 32 MB unfolded. */
  @Test
  void aSharedNodeIsCopiedOnceByACommit() throws Exception {
    Path model = SharedGraphs.sharedNode(tmp.resolve("dag.fb"), 2000, 2000);
    long before = Files.size(model);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.write(fs.getPath("/params/w"), new byte[8]);
    }
    long after = Files.size(model);
    assertTrue(after < 2 * before, "the commit wrote " + after + " bytes from a " + before + "-byte file");
    try (ChannelSource src = ChannelSource.open(model)) {
      FbTable root = new FbBuffer(src, 0, src.size(), "dag.fb").root("FlatGraph");
      FbVector nodes = root.getVector(Slots.G_NODES, "nodes", 4);
      assertEquals(2000, nodes.length());
      for (int i = 0; i < nodes.length(); i += 499) {
        FbVector extra = nodes.getTable(i).getVector(9, "extraInteger", 8);
        assertEquals(2000, extra.length());
        assertEquals(1999, extra.getLong(1999));
        assertEquals("op", nodes.getTable(i).getString(1, "name"));
      }
    }
  }

  /** The graph file a mount shows is built by the same copy: once per shared table. */
  @Test
  void aSharedNodeIsCopiedOnceIntoTheGraphFile() throws Exception {
    Path model = SharedGraphs.sharedNode(tmp.resolve("dag.fb"), 2000, 2000);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      long graph = Files.size(fs.getPath("/tags/default/graph"));
      assertTrue(graph < 2 * Files.size(model), "graph file of " + graph + " bytes");
    }
  }

  /** 600 updater states that are one state with 600 keys: 360,000 arrays unfolded. */
  @Test
  void anUpdaterStateSharedManyTimesIsRefusedOnOpen() throws Exception {
    Path model = SharedGraphs.sharedUpdater(tmp.resolve("updater.fb"), 600, 600);
    ModelFormatException e = assertThrows(BudgetExceededException.class,
        () -> Models.open(model).close());
    // fb is recognised by reading it; a budget refusal is not "not a SameDiff model": it is one
    assertTrue(!e.getMessage().contains("not a SameDiff model"), e.getMessage());
    assertTrue(e.getMessage().contains("updater.fb: FlatGraph.updaterState["), e.getMessage());
    assertTrue(e.getMessage().contains("bytes allowed for a " + Files.size(model) + "-byte FlatGraph"), e.getMessage());
    assertTrue(e.offset() > 0, e.getMessage());
  }

  /** 700 ops that are one op with 700 inputs naming no variable: 490,000 findings unfolded. */
  @Test
  void danglingInputsOfASharedOpAreRefusedNotUnfolded() throws Exception {
    Path model = SharedGraphs.sharedInputs(tmp.resolve("inputs.fb"), 700, 700);
    try (Model m = Models.open(model)) {
      Tag t = m.newest();
      ModelFormatException e = assertThrows(ModelFormatException.class, () -> Dl4jGraphRules.graphProblems(t, "inputs.fb"));
      assertTrue(e.getMessage().startsWith("inputs.fb: FlatGraph.nodes["), e.getMessage());
      assertThrows(ModelFormatException.class, () -> GraphNames.users(t, Set.of("w"), "inputs.fb"));
    }
  }

  /** 60,000 distinct ops (several MB, beyond the fixed allowance) copy, render and list within their budgets. */
  @Test
  void anHonestGraphOfManyOpsIsWithinEveryBudget() throws Exception {
    Path model = SharedGraphs.distinctNodes(tmp.resolve("many.fb"), 60_000);
    assertTrue(Files.size(model) > 3 * Budget.ALLOWANCE, Files.size(model) + " bytes");
    try (Model m = Models.open(model)) {
      Tag t = m.newest();
      assertTrue(GraphJson.render(t, "many.fb").length > 0);
      GraphWriter.build(t, GraphWriter.Mode.LEGACY, null, Map.of(), "many.fb");
      GraphWriter.build(t, GraphWriter.Mode.SDNB, null, Map.of(), "many.fb");
      assertEquals(List.of("op0"), GraphNames.users(t, Set.of("w"), "many.fb").get("w"));
      List<Dl4jGraphRules.Problem> dangling = Dl4jGraphRules.graphProblems(t, "many.fb");
      assertEquals(Dl4jGraphRules.MAX_REPORTED + 1, dangling.size());
      assertEquals("and " + (59_999 - Dl4jGraphRules.MAX_REPORTED) + " more problems of these kinds",
          dangling.get(Dl4jGraphRules.MAX_REPORTED).reason());
    }
  }

  /** A little sharing is within every budget: graph.json shows each reference, the copy holds the node once. */
  @Test
  void aSmallSharedGraphIsWithinTheBudget() throws Exception {
    Path model = SharedGraphs.sharedNode(tmp.resolve("small.fb"), 20, 20);
    try (Model m = Models.open(model)) {
      String json = new String(GraphJson.render(m.newest(), "small.fb"), StandardCharsets.UTF_8);
      assertEquals(20, json.split("\"opName\": \"noop\"", -1).length - 1);
      GraphWriter.Built b = GraphWriter.build(m.newest(), GraphWriter.Mode.LEGACY, null, Map.of(), "small.fb");
      assertTrue(b.bytes().length < 2 * Files.size(model));
    }
  }
}
