package org.modelfs.provider;

import org.modelfs.format.fb.GraphJson;
import org.modelfs.format.fb.GraphReader;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Tag;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.FixtureRoundTripTest;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.testing.BytesChannel;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.TreeTsv;

/**
 * Every DL4J-written fixture, as DL4J wrote it and converted into every format we write, mounted
 * as a file system: walking {@code tags/default/params} and {@code updater} through
 * {@code Files.*} and the {@code samediff} view shows exactly what DL4J reads
 * ({@code .expected.tsv}), and the root aliases show the same.
 */
class FixtureTreeTest {
  @TempDir Path tmp;

  /** Every fixture as DL4J wrote it and in every format we write: name, target, options, file name. */
  static List<Arguments> cases() throws Exception {
    List<Arguments> out = new ArrayList<>();
    for (Path fb : Fixtures.all()) {
      String name = Fixtures.dir().relativize(fb).toString();
      out.add(Arguments.of(name, "original", null, null));
      for (Object[] t : FixtureRoundTripTest.targets()) {
        out.add(Arguments.of(name, t[0], t[1], t[2]));
      }
    }
    return out;
  }

  private static void assertGraphFileParses(byte[] graph, String fixture) throws Exception {
    ByteSource src = ChannelSource.of("graph",
        new BytesChannel(graph));
    var content = GraphReader.read(
        new GraphRef(src, 0, graph.length, GraphRef.Convention.SDNB), "graph");
    GraphJson.render(new Tag("t",
        new GraphRef(src, 0, graph.length, GraphRef.Convention.SDNB),
        content.variables(), List.of(), null, Map.of()), "graph");
    assertTrue(!content.variables().isEmpty() || fixture.isEmpty(), fixture);
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("cases")
  void treeShowsWhatDl4jReads(String fixture, String target, WriteOptions opts, String outName) throws Exception {
    Path fb = Fixtures.get(fixture);
    String expected = TreeTsv.arraysOnly(ModelTsv.read(Fixtures.expected(fb)));
    Path file = fb;
    if (opts != null) {
      file = tmp.resolve(outName);
      try (Model m = Models.open(fb)) {
        ModelFiles.write(m.newest(), file, opts);
      }
    }
    try (FileSystem fs = ModelFileSystems.open(file, Map.of())) {
      Path tag = fs.getPath("/tags/default");
      assertTrue(Files.isDirectory(tag), "tags/default exists");
      assertEquals(expected, TreeTsv.of(tag), fixture + " mounted as " + target);
      assertEquals(expected, TreeTsv.of(fs.getPath("/")), "root aliases of " + fixture + " as " + target);
      assertTrue(Files.isRegularFile(fs.getPath("/graph")));
      // the graph file is a complete FlatGraph: a model made of it alone has every variable
      assertGraphFileParses(Files.readAllBytes(fs.getPath("/graph")), fixture);
      assertTrue(Files.size(fs.getPath("/tags/default/graph.json")) > 0);
    }
  }
}
