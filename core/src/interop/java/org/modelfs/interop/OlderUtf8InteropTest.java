package org.modelfs.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.modelfs.testing.HandArrays.*;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.HandArrays.Var;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The UTF8 repair (docs/FORMATS.md §3.8) against real DL4J 1.0.0-M2.1: a legacy fb file whose
 * UTF8 constants are in the older layout (big-endian count, big-endian offsets) is read by DL4J
 * wrongly (see the {@code [utf8]} lines this test prints); after ModelFS converts it to fb (M2.1 layout), DL4J reads the real strings.
 */
@Tag("interop")
class OlderUtf8InteropTest {
  @TempDir Path tmp;

  static final String CONDITION = "Condition x == y did not hold element-wise:";
  static final String[] SEVERAL = {"", "first", "", "x == y", ""};

  /** An fb file with a FLOAT parameter {@code w} = [1, 2] and a UTF8 constant {@code s} of {@code strings}. */
  private Path older(String name, long[] dims, String... strings) throws Exception {
    return Files.write(tmp.resolve(name), fb(List.of(
        new Var("w", FLOAT, VARIABLE, null, array(shapeInfo(8192, 2), FLOAT, 1, floats(2, ByteOrder.BIG_ENDIAN), null,
            null, 0, 0)),
        new Var("s", UTF8, CONSTANT, null, array(shapeInfo(1048576, dims), UTF8, 1, olderUtf8(strings), null, null,
            0, 0)))));
  }

  /** What DL4J makes of the file: the strings of {@code s}, or the exception of the load or the read. */
  private static String dl4jReads(Path model) {
    try {
      return strings(Dl4jSnapshot.loadSameDiff(model), "s").toString();
    } catch (Throwable t) {
      return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
  }

  private static List<String> strings(SameDiff sd, String name) {
    INDArray a = sd.getVariable(name).getArr();
    List<String> out = new ArrayList<>();
    for (int i = 0; i < a.length(); i++) {
      out.add(a.getString(i));
    }
    return out;
  }

  @Test
  void dl4jReadsTheRealStringsOnlyAfterConversion() throws Exception {
    check(older("scalar.fb", new long[0], CONDITION), List.of(CONDITION));
    check(older("vector.fb", new long[] {SEVERAL.length}, SEVERAL), List.of(SEVERAL));
  }

  private void check(Path older, List<String> real) throws Exception {
    String before = dl4jReads(older);
    System.out.println("[utf8] DL4J 1.0.0-M2.1 on the older layout of " + real + ": " + before);
    assertNotEquals(real.toString(), before, "DL4J already reads the older layout");
    Path out = tmp.resolve("repaired-" + older.getFileName());
    try (Model m = Models.open(older)) {
      ModelFiles.write(m.newest(), out, WriteOptions.of(ModelFormat.FB));
    }
    SameDiff after = Dl4jSnapshot.loadSameDiff(out);
    assertEquals(real, strings(after, "s"));
    INDArray w = after.getVariable("w").getArr();
    assertEquals(List.of(1f, 2f), List.of(w.getFloat(0), w.getFloat(1)));
  }
}
