package org.modelfs.dl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.TrainingConfig;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.AMSGrad;
import org.nd4j.linalg.learning.config.AdaDelta;
import org.nd4j.linalg.learning.config.AdaGrad;
import org.nd4j.linalg.learning.config.AdaMax;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Nadam;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.learning.config.RmsProp;

/**
 * Every stateful updater of ND4J M2.1, not only the fixtures' Adam: a small model trained two
 * steps, saved by the bridge, loaded back; a third step on each gives the same parameters and
 * updater state.
 */
class UpdatersTest {
  @TempDir Path dir;

  static Stream<IUpdater> updaters() {
    return Stream.of(new Nesterovs(0.01, 0.9), new RmsProp(0.01), new AdaGrad(0.01), new AdaDelta(),
        new AMSGrad(0.01), new AdaMax(0.01), new Nadam(0.01));
  }

  @ParameterizedTest
  @MethodSource("updaters")
  void aStepAfterLoadIsTheStepInMemory(IUpdater updater) throws IOException {
    Nd4j.getRandom().setSeed(9);
    SameDiff sd = SameDiff.create();
    SDVariable in = sd.placeHolder("in", DataType.FLOAT, -1, 4);
    SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 2);
    SDVariable w = sd.var("w", Nd4j.rand(DataType.FLOAT, 4, 2));
    SDVariable b = sd.var("b", Nd4j.rand(DataType.FLOAT, 1, 2));
    SDVariable out = in.mmul(w).add(b);
    sd.loss.meanSquaredError("loss", label, out, null);
    sd.setTrainingConfig(TrainingConfig.builder().updater(updater).dataSetFeatureMapping("in")
        .dataSetLabelMapping("label").build());
    DataSet batch = new DataSet(Nd4j.rand(DataType.FLOAT, 3, 4), Nd4j.rand(DataType.FLOAT, 3, 2));
    sd.fit(batch);
    sd.fit(batch);
    Path target = dir.resolve("m.sdmc");
    SameDiffFiles.save(sd, target);
    SameDiff back = SameDiffFiles.load(target);
    Map<String, String> before = Dl4jState.of(sd);
    assertTrue(before.keySet().stream().anyMatch(k -> k.startsWith("updater w/")), before.toString());
    assertEquals(before, Dl4jState.of(back));
    sd.fit(batch);
    back.fit(batch);
    assertEquals(Dl4jState.of(sd), Dl4jState.of(back), updater.getClass().getSimpleName());
  }
}
