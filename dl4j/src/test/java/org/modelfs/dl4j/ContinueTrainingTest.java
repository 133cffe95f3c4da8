package org.modelfs.dl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

/**
 * mlp_adam (trained with Adam, its state saved) and mlp_noupdater (a training configuration, no
 * state yet), saved by the bridge in every format and loaded back: one {@code fit} step on a batch
 * gives the same parameters, Adam state (M, V) and training configuration (iteration count) as the
 * same step on the original in memory.
 */
class ContinueTrainingTest {
  @TempDir Path dir;

  static Stream<Arguments> fixturesAndFormats() {
    return Stream.of("mlp_adam.fb", "mlp_noupdater.fb").flatMap(fixture ->
        SameDiffFilesTest.FORMATS.keySet().stream().map(format -> Arguments.of(fixture, format)));
  }

  @ParameterizedTest
  @MethodSource("fixturesAndFormats")
  void fitContinuesAsInMemory(String fixtureName, String format) throws IOException {
    Path fixture = Path.of(System.getProperty("modelfs.fixtures"), fixtureName);
    SameDiff original = SameDiff.load(fixture.toFile(), true);
    Path target = Files.createDirectory(dir.resolve(format)).resolve(SameDiffFilesTest.FORMATS.get(format));
    SameDiffFiles.save(original, target, Map.of("format", format, "maxShardBytes", 256));
    SameDiff back = SameDiffFiles.load(target);
    Map<String, String> before = Dl4jState.of(original);
    assertEquals(before, Dl4jState.of(back));

    Nd4j.getRandom().setSeed(7);
    DataSet batch = new DataSet(Nd4j.rand(DataType.FLOAT, 5, 4), Nd4j.rand(DataType.FLOAT, 5, 3));
    original.fit(batch);
    back.fit(batch);
    Map<String, String> after = Dl4jState.of(original);
    assertNotEquals(before, after, "the step changed the parameters");
    assertEquals(after, Dl4jState.of(back), fixtureName + " as " + format + ": after one fit step");
  }

  @Test
  void updaterStateFalseLeavesTheStateOut() throws IOException {
    String format = "sdnb";
    Path fixture = Path.of(System.getProperty("modelfs.fixtures"), "mlp_adam.fb");
    SameDiff original = SameDiff.load(fixture.toFile(), true);
    Path target = dir.resolve("m.sdnb");
    SameDiffFiles.save(original, target, Map.of("format", format, "updaterState", false));
    SameDiff back = SameDiffFiles.load(target);
    Map<String, String> b = Dl4jState.of(back);
    assertEquals(Dl4jState.of(original).get("trainingConfig"), b.get("trainingConfig"));
    assertEquals(0, b.keySet().stream().filter(k -> k.startsWith("updater ")).count(), b.toString());
  }
}
