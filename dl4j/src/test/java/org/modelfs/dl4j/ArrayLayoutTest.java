package org.modelfs.dl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * Every way an ND4J array can lie in its buffer reaches the file with its values: a whole
 * c-order buffer, an f-order one, a dense row window of a larger buffer (offset > 0, read in
 * place), a transposed view (f-order strides over the same buffer), a permuted 3-d view and a
 * column window (strides that are not the default: copied first), and a scalar.
 */
class ArrayLayoutTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"m.sdnb", "m.sdmc", "m.fb", "m.zip"})
  void everyLayoutRoundTrips(String name) throws IOException {
    Nd4j.getRandom().setSeed(5);
    INDArray big = Nd4j.rand(DataType.DOUBLE, 6, 5);
    Map<String, INDArray> arrays = new LinkedHashMap<>();
    arrays.put("whole", Nd4j.rand(DataType.FLOAT, 3, 4));
    arrays.put("forder", Nd4j.rand(DataType.FLOAT, 'f', 3, 4));
    arrays.put("rows", big.get(NDArrayIndex.interval(2, 5), NDArrayIndex.all()));
    arrays.put("transposed", Nd4j.rand(DataType.FLOAT, 2, 7).muli(100).castTo(DataType.INT).transpose());
    arrays.put("permuted", Nd4j.rand(DataType.FLOAT, 2, 3, 4).permute(2, 0, 1));
    arrays.put("columns", big.get(NDArrayIndex.all(), NDArrayIndex.interval(1, 3)));
    arrays.put("scalar", Nd4j.scalar(2.5f));
    SameDiff sd = SameDiff.create();
    for (Map.Entry<String, INDArray> e : arrays.entrySet()) {
      sd.var(e.getKey(), e.getValue());
    }
    Path target = dir.resolve(name);
    SameDiffFiles.save(sd, target);
    SameDiff back = SameDiffFiles.load(target);
    for (Map.Entry<String, INDArray> e : arrays.entrySet()) {
      INDArray got = back.getArrForVarName(e.getKey());
      assertEquals(Dl4jState.describe(e.getValue()), Dl4jState.describe(got), name + ": " + e.getKey());
      assertEquals(e.getValue(), got, name + ": " + e.getKey());
    }
  }
}
