package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.format.fb.gen.FlatNode;
import org.modelfs.format.fb.gen.FlatVariable;
import org.modelfs.format.fb.gen.IntPair;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;

/**
 * Renames and uses in a graph (docs/FORMATS.md §3.10), on a FlatGraph built here with every
 * place a variable's name appears — none of the DL4J fixtures has variable control
 * dependencies: a renamed variable is renamed in its FlatVariable, in the variable control
 * dependencies of variables and ops, and in the placeholder and loss lists; op control
 * dependencies (op names) stay; uses come from input ids and variable control dependencies.
 */
class GraphNamesTest {
  @TempDir Path tmp;

  /**
   * Variables a (id 1), b (id 2), c (id 3, depends on a); op "a" (an op named like the
   * variable, id 4) takes b and depends on variable a and on op "a"; placeholders [a],
   * lossVariables [a, c].
   */
  private Tag graph() throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int[] vars = new int[3];
    String[] names = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
      int name = b.createString(names[i]);
      int forVar = i == 0 ? FlatVariable.createControlDepsForVarVector(b, new int[] {b.createString("c")}) : 0;
      int deps = i == 2 ? FlatVariable.createControlDepsVector(b, new int[] {b.createString("a")}) : 0;
      int id = IntPair.createIntPair(b, i + 1, 0);
      FlatVariable.startFlatVariable(b);
      FlatVariable.addId(b, id);
      FlatVariable.addName(b, name);
      FlatVariable.addDtype(b, (byte) 5);
      FlatVariable.addVariabletype(b, (byte) 0);
      if (deps != 0) {
        FlatVariable.addControlDeps(b, deps); // op names: "a" is the op here
      }
      if (forVar != 0) {
        FlatVariable.addControlDepsForVar(b, forVar);
      }
      vars[i] = FlatVariable.endFlatVariable(b);
    }
    int opName = b.createString("a");
    int in = FlatNode.createInputPairedVector(b, new int[] {IntPair.createIntPair(b, 2, 0)});
    int varDeps = FlatNode.createVarControlDepsVector(b, new int[] {b.createString("a")});
    int opDeps = FlatNode.createControlDepsVector(b, new int[] {b.createString("a")});
    FlatNode.startFlatNode(b);
    FlatNode.addId(b, 4);
    FlatNode.addName(b, opName);
    FlatNode.addInputPaired(b, in);
    FlatNode.addVarControlDeps(b, varDeps);
    FlatNode.addControlDeps(b, opDeps);
    int node = FlatNode.endFlatNode(b);
    int variables = FlatGraph.createVariablesVector(b, vars);
    int nodes = FlatGraph.createNodesVector(b, new int[] {node});
    int placeholders = FlatGraph.createPlaceholdersVector(b, new int[] {b.createString("a")});
    int loss = FlatGraph.createLossVariablesVector(b, new int[] {b.createString("a"), b.createString("c")});
    FlatGraph.startFlatGraph(b);
    FlatGraph.addVariables(b, variables);
    FlatGraph.addNodes(b, nodes);
    FlatGraph.addPlaceholders(b, placeholders);
    FlatGraph.addLossVariables(b, loss);
    b.finish(FlatGraph.endFlatGraph(b));
    Path file = Files.write(tmp.resolve("g.fb"), b.sizedByteArray());
    GraphRef ref = new GraphRef(ChannelSource.open(file), 0, Files.size(file), GraphRef.Convention.SDNB);
    return new Tag("default", ref, GraphReader.read(ref, "g.fb").variables(), List.of(), null, Map.of());
  }

  private static Tag renamed(Tag t, String from, String to) {
    List<Variable> vars = new ArrayList<>();
    for (Variable v : t.variables()) {
      vars.add(v.name().equals(from) ? new Variable(to, v.kind(), v.dtype(), v.shape(), v.array(), v.graphVariable()) : v);
    }
    return new Tag(t.name(), t.graph(), vars, t.updater(), t.trainingConfig(), t.metadata());
  }

  @Test
  void aRenamedVariableIsRenamedWhereverItsNameStandsAndOpNamesStay() throws IOException {
    Tag t = renamed(graph(), "a", "x");
    GraphWriter.Built built = GraphWriter.build(t, GraphWriter.Mode.SDNB, Set.of(), Map.of(), "g.fb");
    FlatGraph g = FlatGraph.getRootAsFlatGraph(ByteBuffer.wrap(built.bytes()));
    assertEquals("x", g.variables(0).name());
    assertEquals("c", g.variables(0).controlDepsForVar(0));
    assertEquals("a", g.variables(2).controlDeps(0), "an op name stays");
    assertEquals(2, g.variables(1).id().first(), "ids stay");
    FlatNode n = g.nodes(0);
    assertEquals("a", n.name(), "the op keeps its name");
    assertEquals("x", n.varControlDeps(0));
    assertEquals("a", n.controlDeps(0), "op control dependencies name ops");
    assertEquals(2, n.inputPaired(0).first());
    assertEquals("x", g.placeholders(0));
    assertEquals("x", g.lossVariables(0));
    assertEquals("c", g.lossVariables(1));

    String json = new String(GraphJson.render(t, "g.fb"), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"varControlDeps\": [\"x\"]"), json);
    assertTrue(json.contains("\"controlDeps\": [\"a\"]"), json);
    assertTrue(json.contains("\"placeholders\": [\n    \"x\"\n  ]"), json);
  }

  @Test
  void usesComeFromInputIdsAndVariableControlDependencies() throws IOException {
    Tag t = graph();
    assertEquals(Map.of("a", List.of("a"), "b", List.of("a")), GraphNames.users(t, Set.of("a", "b", "c"), "g.fb"));
    Tag r = renamed(t, "a", "x");
    assertEquals(Map.of("x", List.of("a")), GraphNames.users(r, Set.of("x", "c"), "g.fb"));
    assertEquals(Map.of(), GraphNames.users(r, Set.of("c"), "g.fb"));
  }
}
