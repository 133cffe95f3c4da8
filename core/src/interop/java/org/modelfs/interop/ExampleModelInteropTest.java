package org.modelfs.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.examples.AverageCheckpoints;
import org.modelfs.examples.CopyParameters;
import org.modelfs.examples.RenameLayer;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;

/**
 * {@code examples/mlp.fb} is what {@link ExampleModel} makes with DL4J 1.0.0-M2.1: the same
 * variables, kinds, dtypes and shapes, the same training configuration, and the same values (to
 * float rounding: another machine's BLAS may round a training step differently); DL4J loads it
 * with the values {@code examples/README.md} documents (loss, classes), and its saved Adam state
 * is the live one: one more step from the file equals one more step of the in-memory model. The
 * example programs' outputs load in DL4J too.
 */
@Tag("interop")
class ExampleModelInteropTest {
  /** The committed example (the tests run in core/; ExampleModel runs from the repository root). */
  static final Path COMMITTED = Path.of("..").resolve(ExampleModel.DEFAULT_OUT);
  static final List<String> PARAMS = List.of("layer0/W", "layer0/b", "layer1/W", "layer1/b");

  @TempDir Path tmp;

  @Test
  void theCommittedExampleIsWhatTheGeneratorMakes() {
    Path again = tmp.resolve("mlp.fb");
    ExampleModel.write(again);
    Dl4jSnapshot committed = Dl4jSnapshot.load(COMMITTED);
    Dl4jSnapshot regenerated = Dl4jSnapshot.load(again);
    assertEquals(structure(regenerated), structure(committed), "variables and updater state: kind, name, dtype, shape");
    assertEquals(regenerated.lossVariables(), committed.lossVariables());
    assertEquals(regenerated.trainingConfigJson(), committed.trainingConfigJson());

    SameDiff a = Dl4jSnapshot.loadSameDiff(COMMITTED);
    SameDiff b = Dl4jSnapshot.loadSameDiff(again);
    for (Dl4jSnapshot.Entry e : committed.entries()) {
      if (e.hasArray()) {
        INDArray x = Dl4jSnapshot.arrayOf(a, e.name());
        INDArray y = Dl4jSnapshot.arrayOf(b, e.name());
        assertTrue(x.equalsWithEps(y, 1e-5), e.name() + ":\ncommitted   " + x + "\nregenerated " + y);
      }
    }
    System.out.println("examples/mlp.fb " + (Arrays.equals(bytes(COMMITTED), bytes(again)) ? "is" : "is not")
        + " byte-identical to the regenerated file");
  }

  @Test
  void dl4jLoadsTheExampleWithTheDocumentedLayoutAndValues() {
    SameDiff sd = Dl4jSnapshot.loadSameDiff(COMMITTED);
    Dl4jSnapshot s = Dl4jSnapshot.of(sd);
    Map<String, String> arrays = new TreeMap<>();
    for (Dl4jSnapshot.Entry e : s.entries()) {
      if (e.hasArray()) {
        arrays.put(e.name(), e.kind() + " " + e.dtype() + " " + Arrays.toString(e.shape()));
      }
    }
    Map<String, String> want = new TreeMap<>();
    Map<String, String> shapes = Map.of("layer0/W", "[4, 16]", "layer0/b", "[16]", "layer1/W", "[16, 3]", "layer1/b", "[3]");
    for (String p : PARAMS) {
      want.put(p, "VARIABLE FLOAT " + shapes.get(p));
      want.put(p + "/M", "UPDATER FLOAT " + shapes.get(p));
      want.put(p + "/V", "UPDATER FLOAT " + shapes.get(p));
    }
    assertEquals(want, arrays, "four parameters and Adam's M and V of each; no constants");
    assertArrayEquals(new long[] {-1, 4}, sd.getVariable(ExampleModel.INPUT).placeholderShape());
    assertArrayEquals(new long[] {-1, 3}, sd.getVariable(ExampleModel.LABEL).placeholderShape());
    assertEquals(List.of(ExampleModel.LOSS), s.lossVariables());
    assertEquals(ExampleModel.STEPS, sd.getTrainingConfig().getIterationCount());
    for (String p : PARAMS) {
      INDArray v = Dl4jSnapshot.arrayOf(sd, p + "/V");
      assertTrue(v.amaxNumber().doubleValue() > 0, p + "/V holds real state");
    }

    // README: loss 0.0736 on the training batch after 5 steps, every point classified right
    INDArray[] data = ExampleModel.data();
    double loss = ExampleModel.loss(sd, new DataSet(data[0], data[1]));
    assertEquals(0.073630, loss, 1e-4, "loss");
    INDArray out = sd.output(Map.of(ExampleModel.INPUT, data[0]), ExampleModel.OUTPUT).get(ExampleModel.OUTPUT);
    assertEquals(data[1].argMax(1), out.argMax(1), "classes");

    // the saved Adam state is the live one: a further step from the file = a further step in memory
    SameDiff live = ExampleModel.build();
    ExampleModel.train(live, new DataSet(data[0], data[1]));
    DataSet next = new DataSet(data[0], data[1]);
    live.fit(next);
    sd.fit(next);
    for (String p : PARAMS) {
      INDArray want1 = live.getVariable(p).getArr();
      INDArray got = sd.getVariable(p).getArr();
      assertTrue(want1.equalsWithEps(got, 1e-6), p + ":\nin memory " + want1 + "\nfrom file " + got);
    }
  }

  @Test
  void theExampleProgramsWriteModelsDl4jLoads() throws Exception {
    INDArray x = ExampleModel.data()[0];
    INDArray original = Dl4jModels.forward(COMMITTED, Map.of(ExampleModel.INPUT, x), ExampleModel.OUTPUT);

    // RenameLayer: same outputs, parameters under the new names
    Path renamed = Files.copy(COMMITTED, tmp.resolve("renamed.fb"));
    quietly(() -> RenameLayer.main(new String[] {renamed.toString(), "layer0", "encoder0"}));
    SameDiff r = Dl4jSnapshot.loadSameDiff(renamed);
    assertNull(r.getVariable("layer0/W"));
    assertNotNull(r.getVariable("encoder0/W"));
    assertNotNull(r.getUpdaterMap().get("encoder0/W"), "the updater state followed");
    assertTrue(original.equalsWithEps(Dl4jModels.forward(r, Map.of(ExampleModel.INPUT, x), ExampleModel.OUTPUT), 1e-6));

    // CopyParameters into a checkpoint whose layer0 was zeroed: the original again
    Path zeroed = Files.copy(COMMITTED, tmp.resolve("zeroed.fb"));
    try (FileSystem fs = ModelFileSystems.open(zeroed)) {
      for (String p : List.of("/params/layer0/W", "/params/layer0/b")) {
        Files.write(fs.getPath(p), new byte[(int) Files.size(fs.getPath(p))]);
      }
    }
    assertFalse(original.equalsWithEps(Dl4jModels.forward(zeroed, Map.of(ExampleModel.INPUT, x), ExampleModel.OUTPUT), 1e-3));
    quietly(() -> CopyParameters.main(new String[] {COMMITTED.toString(), zeroed.toString(), "layer0"}));
    assertTrue(original.equalsWithEps(Dl4jModels.forward(zeroed, Map.of(ExampleModel.INPUT, x), ExampleModel.OUTPUT), 1e-6));

    // AverageCheckpoints of the example and a copy with every weight doubled: a new fb of 1.5 x the weights
    Path doubled = Files.copy(COMMITTED, tmp.resolve("doubled.fb"));
    try (FileSystem fs = ModelFileSystems.open(doubled)) {
      for (String p : PARAMS) {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(fs.getPath("/params", p))).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < b.capacity(); i += 4) {
          b.putFloat(i, b.getFloat(i) * 2);
        }
        Files.write(fs.getPath("/params", p), b.array());
      }
    }
    Path mean = tmp.resolve("mean.fb");
    quietly(() -> AverageCheckpoints.main(new String[] {mean.toString(), COMMITTED.toString(), doubled.toString()}));
    SameDiff m = Dl4jSnapshot.loadSameDiff(mean);
    SameDiff c = Dl4jSnapshot.loadSameDiff(COMMITTED);
    for (String p : PARAMS) {
      assertTrue(c.getVariable(p).getArr().mul(1.5).equalsWithEps(m.getVariable(p).getArr(), 1e-6), p);
    }
    assertTrue(m.getUpdaterMap() == null || m.getUpdaterMap().isEmpty(), "no updater state in the average");
    assertEquals(c.getTrainingConfig().toJson(), m.getTrainingConfig().toJson());
    INDArray avgOut = Dl4jModels.forward(m, Map.of(ExampleModel.INPUT, x), ExampleModel.OUTPUT);
    assertArrayEquals(original.shape(), avgOut.shape());
  }

  // ------------------------------------------------------------------------------------------

  private interface Action {
    void run() throws Exception;
  }

  /** Runs an example program without its printing. */
  private static void quietly(Action a) throws Exception {
    PrintStream out = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try {
      a.run();
    } finally {
      System.setOut(out);
    }
  }

  private static List<String> structure(Dl4jSnapshot s) {
    return s.entries().stream()
        .map(e -> e.kind() + " " + e.name() + " " + e.dtype() + " " + (e.hasArray() ? Arrays.toString(e.shape()) : "-"))
        .toList();
  }

  private static byte[] bytes(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
