package org.modelfs.provider;

import org.modelfs.format.Codecs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.container.Models;
import org.modelfs.format.fb.GraphJson;
import org.modelfs.format.fb.GraphJsonReader;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.model.Tag;
import org.modelfs.testing.Fixtures;

/**
 * Issue 19's round trip: for every DL4J-written fixture, and every model the tests generate in
 * each format, the graph.json of each tag read back ({@link GraphJsonReader}) and made the
 * tag's graph — without the shortcut that keeps a tag whose JSON did not change — gives a tag
 * whose graph.json is byte-identical and whose FlatGraph, as every writer lays it out (fb's
 * legacy layout, SDNB, a shard set's graph shard), is byte-identical to the one the unedited tag
 * gives. The same JSON written into an empty tag (a tag being copied file by file) gives the same
 * graph.json.
 */
class GraphJsonRoundTripTest {

  @TempDir
  Path dir;

  /** The fixtures as DL4J wrote them, and each converted by ModelFS to sdnb, a sharded sdnb, sdz and the container. */
  static Stream<Arguments> models() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (Path p : Fixtures.all()) {
      for (String format : new String[] {"fb", "sdnb", "sdnb-sharded", "sdz", "container", "zip-tags"}) {
        out.add(Arguments.of(p, format));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("models")
  void renderParseBuildGivesIdenticalGraphBytes(Path fixture, String format) throws IOException {
    Path model = fixture;
    if (!format.equals("fb")) {
      try (Model m = Models.open(fixture)) {
        ModelFormat f = Codecs.fromToken(format);
        WriteOptions o = WriteOptions.of(f);
        if (f == ModelFormat.SHARDED_SDNB) {
          o = o.withMaxShardBytes(1024);
        }
        model = dir.resolve(f == ModelFormat.CONTAINER ? "m.sdmc" : f == ModelFormat.ZIP_TAGS ? "m.zip"
            : "m." + format.replace("-sharded", ""));
        ModelFiles.write(m.newest(), model, o);
      }
    }
    try (Model m = Models.open(model)) {
      for (Tag t : m.tags()) {
        byte[] json = GraphJson.render(t, "f");
        Tag back = GraphJsonWrites.applied(t, GraphJsonReader.read(json, t, "graph.json"), "graph.json");
        assertEquals(new String(json, StandardCharsets.UTF_8), new String(GraphJson.render(back, "f"),
            StandardCharsets.UTF_8), model + " " + t.name());
        for (GraphWriter.Mode mode : new GraphWriter.Mode[] {
            GraphWriter.Mode.LEGACY, GraphWriter.Mode.SDNB, GraphWriter.Mode.SHARD_GRAPH}) {
          GraphWriter.Built a = GraphWriter.build(t, mode, Set.of(), Map.of(), "f");
          GraphWriter.Built b = GraphWriter.build(back, mode, Set.of(), Map.of(), "f");
          assertArrayEquals(a.bytes(), b.bytes(), model + " " + t.name() + " " + mode);
          assertEquals(a.tailEnd(), b.tailEnd());
        }
        Tag empty = new Tag(t.name(), null, List.of(), List.of(), null, Map.of());
        Tag copied = GraphJsonWrites.applied(empty, GraphJsonReader.read(json, empty, "graph.json"), "graph.json");
        assertEquals(new String(json, StandardCharsets.UTF_8), new String(GraphJson.render(copied, "f"),
            StandardCharsets.UTF_8), model + " " + t.name() + " into an empty tag");
      }
    }
  }
}
