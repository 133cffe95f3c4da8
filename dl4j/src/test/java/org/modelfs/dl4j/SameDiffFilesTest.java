package org.modelfs.dl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Every DL4J M2.1 fixture (core's src/test/resources/fixtures/dl4j-1.0.0-M2.1, with the
 * TF-imported ones) loaded by DL4J, saved by the bridge in every format ModelFS writes and loaded
 * back by the bridge: the same variables, arrays, updater state, training configuration and
 * outputs; the fb the bridge writes loads in plain {@code SameDiff.load} to the same.
 */
class SameDiffFilesTest {
  /** Every format ModelFS writes, with a file name of its kind. */
  static final Map<String, String> FORMATS = new LinkedHashMap<>();

  static {
    FORMATS.put("fb", "model.fb");
    FORMATS.put("sdnb", "model.sdnb");
    FORMATS.put("sdnb-sharded", "model.sdnb");
    FORMATS.put("sdz", "model.sdz");
    FORMATS.put("zip-tags", "model.zip");
    FORMATS.put("container", "model.sdmc");
    FORMATS.put("container-sharded", "model.sdmc");
  }

  @TempDir Path dir;

  static Stream<Path> fixtures() throws IOException {
    Path root = Path.of(System.getProperty("modelfs.fixtures"));
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      s.filter(p -> p.toString().endsWith(".fb")).sorted().forEach(out::add);
    }
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void everyFormatRoundTrips(Path fixture) throws IOException {
    SameDiff original = SameDiff.load(fixture.toFile(), true);
    Map<String, String> state = Dl4jState.of(original);
    Map<String, INDArray> inputs = Dl4jState.placeholders(original);
    Map<String, String> outputs = Dl4jState.outputs(original, inputs);
    System.out.println(fixture.getFileName() + ": " + state.size() + " entries, outputs "
        + outputs);
    for (Map.Entry<String, String> f : FORMATS.entrySet()) {
      Path d = Files.createDirectory(dir.resolve(f.getKey()));
      Path target = d.resolve(f.getValue());
      Map<String, Object> env = f.getKey().endsWith("sharded")
          ? Map.of("format", f.getKey(), "maxShardBytes", 512) : Map.of("format", f.getKey());
      SameDiffFiles.save(original, target, env);
      SameDiff back = SameDiffFiles.load(target);
      String what = fixture.getFileName() + " as " + f.getKey();
      assertEquals(state, Dl4jState.of(back), what);
      assertEquals(outputs, Dl4jState.outputs(back, inputs), what + ": outputs");
      if (f.getKey().equals("fb")) {
        assertEquals(state, Dl4jState.of(SameDiff.load(target.toFile(), true)), what + " loaded by SameDiff.load");
      }
    }
    assertEquals(state, Dl4jState.of(original), "the saved SameDiff is unchanged");
    assertNotNull(state);
  }
}
