package org.modelfs.interop;

import java.util.ArrayList;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.ModelTsv;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Real DL4J 1.0.0-M2.1 builds and saves models; our reader must see exactly DL4J's values, and
 * the chain fb → container (stored) → container (deflate) → sdnb → sharded sdnb → sdz (stored) →
 * sdz (deflate) → fb written by us must load in DL4J with the same variables, values, updater
 * state and forward-pass output. Every DL4J-written fixture goes through container (stored,
 * deflated) → every other format → fb, and DL4J reads the final fb as it read the fixture.
 */
@Tag("interop")
class ConversionChainInteropTest {
  @TempDir Path tmp;

  record Made(SameDiff sd, boolean runnable) {}

  private Made make(String kind, Path out) {
    return switch (kind) {
      case "mlp-float-adam" -> new Made(Dl4jModels.mlp(out, DataType.FLOAT, 8, true), true);
      case "mlp-double-adam" -> new Made(Dl4jModels.mlp(out, DataType.DOUBLE, 6, true), true);
      case "mlp-half-adam" -> new Made(Dl4jModels.mlp(out, DataType.HALF, 5, true), true);
      case "all-dtypes" -> new Made(Dl4jModels.constantsOfAllDtypes(out), false);
      case "large-16mb" -> new Made(Dl4jModels.large(out, 16L << 20), true);
      case "large-100mb" -> new Made(Dl4jModels.large(out, 100L << 20), true);
      default -> throw new IllegalArgumentException(kind);
    };
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"mlp-float-adam", "mlp-double-adam", "mlp-half-adam", "all-dtypes", "large-16mb"})
  void chainPreservesEverythingDl4jSees(String kind) throws Exception {
    chain(kind);
  }

  /** The chain with a 100 MB model ({@code mvn -Pinterop,slow verify}). */
  @Test
  @Tag("slow")
  void chainOfAHundredMegabyteModel() throws Exception {
    chain("large-100mb");
  }

  private void chain(String kind) throws Exception {
    Path original = tmp.resolve(kind + ".fb");
    Made made = make(kind, original);
    Dl4jSnapshot dl4j = Dl4jSnapshot.load(original);
    String expected = dl4j.toTsv();
    assertTrue(expected.contains("/"), "model names contain '/'");

    // (a) our reader sees exactly what DL4J reads from its own file
    assertEquals(expected, ours(original), "our reading of the DL4J-saved " + kind);

    boolean large = kind.startsWith("large");
    long bytes = kind.equals("large-100mb") ? 100L << 20 : 16L << 20;
    long shard = large ? bytes * 2 / 5 : 300;
    // 100 MB: two 64 MB hidden layers, each alone, and the rest; 16 MB: one hidden layer and the rest
    int minShards = kind.equals("large-100mb") ? 4 : 3;
    List<Step> chain = List.of(
        new Step("step0.sdmc", WriteOptions.of(ModelFormat.CONTAINER)),
        new Step("step0d.sdmc", WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true).withLevel(9)),
        new Step("step1.sdnb", WriteOptions.of(ModelFormat.SDNB)),
        new Step("step2.sdnb", WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(shard)),
        new Step("step3.sdz", WriteOptions.of(ModelFormat.SDZ)),
        new Step("step4.sdz", WriteOptions.of(ModelFormat.SDZ).withDeflate(true)),
        new Step("final.fb", WriteOptions.of(ModelFormat.FB).withDropMetadata(true)));
    Path in = original;
    for (Step s : chain) {
      Path out = tmp.resolve(s.name());
      try (Model m = Models.open(in)) {
        List<Path> written = ModelFiles.write(m.newest(), out, s.options());
        if (s.options().format() == ModelFormat.SHARDED_SDNB) {
          assertTrue(written.size() >= minShards, "sharded into " + written.size() + " files");
        }
      }
      assertEquals(expected, ours(out), "our reading after writing " + s.name());
      in = out;
    }

    // (b) DL4J loads our final fb: same variables, values, updater state and training config
    Path fin = tmp.resolve("final.fb");
    Dl4jSnapshot back = Dl4jSnapshot.load(fin);
    assertEquals(expected, back.toTsv(), "DL4J's reading of our fb");
    assertEquals(dl4j.trainingConfigJson(), back.trainingConfigJson());
    assertEquals(dl4j.lossVariables(), back.lossVariables());
    if (made.runnable()) {
      Map<String, INDArray> inputs = Dl4jModels.inputs(made.sd(), 4, 42);
      INDArray before = Dl4jModels.forward(original, inputs, Dl4jModels.OUTPUT);
      INDArray after = Dl4jModels.forward(fin, inputs, Dl4jModels.OUTPUT);
      assertEquals(before, after, "forward pass of " + kind);
    }
    if (large) {
      assertTrue(Files.size(fin) >= bytes);
    }
  }

  private record Step(String name, WriteOptions options) {}

  private static String ours(Path model) throws Exception {
    try (Model m = Models.open(model)) {
      return ModelTsv.of(m.newest());
    }
  }

  static List<String> fixtures() throws Exception {
    List<String> out = new ArrayList<>();
    for (Path p : Fixtures.all()) {
      out.add(Fixtures.dir().relativize(p).toString());
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void everyFixtureThroughTheContainerAndBack(String fixture) throws Exception {
    Path original = Fixtures.get(fixture);
    String expected = ModelTsv.read(Fixtures.expected(original));
    List<Step> chain = List.of(
        new Step("a.sdmc", WriteOptions.of(ModelFormat.CONTAINER)),
        new Step("b.sdmc", WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true)),
        new Step("c.sdnb", WriteOptions.of(ModelFormat.SDNB)),
        new Step("d.sdnb", WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(300)),
        new Step("e.sdz", WriteOptions.of(ModelFormat.SDZ).withDeflate(true)),
        new Step("f.zip", WriteOptions.of(ModelFormat.ZIP_TAGS)),
        new Step("g.sdmc", WriteOptions.of(ModelFormat.CONTAINER)),
        new Step("final.fb", WriteOptions.of(ModelFormat.FB).withDropMetadata(true)));
    Path in = original;
    for (Step s : chain) {
      Path out = tmp.resolve(s.name());
      try (Model m = Models.open(in)) {
        ModelFiles.write(m.newest(), out, s.options());
      }
      assertEquals(expected, ours(out), fixture + ": our reading after writing " + s.name());
      in = out;
    }
    assertEquals(expected, Dl4jSnapshot.load(tmp.resolve("final.fb")).toTsv(), fixture + ": DL4J's reading of our fb");
  }
}
