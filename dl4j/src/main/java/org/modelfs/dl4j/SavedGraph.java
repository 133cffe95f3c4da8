package org.modelfs.dl4j;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.modelfs.io.HeapSource;
import org.modelfs.format.fb.FbFormat;
import org.modelfs.model.Tag;
import org.nd4j.autodiff.samediff.ArrayHolder;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.autodiff.samediff.array.ThreadSafeArrayHolder;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The graph of a live SameDiff as DL4J serializes it, without its arrays (docs/DL4J-BRIDGE.md §2).
 * DL4J M2.1 has no public "graph only" save: {@code asFlatBuffers} writes every VARIABLE and
 * CONSTANT array it finds, and writes a variable with no array as a FlatVariable without
 * {@code ndarray}. So for the time of one {@code asFlatBuffers(false)} the SameDiff's array holders
 * ({@code setArrayHolders}, public) are swapped for holders with only the arrays the bridge leaves
 * inline ({@link NdArrays#inline}: UTF-8 and empty ones), then put back — in a {@code finally}, so
 * the SameDiff the caller holds is unchanged whatever happens. The SameDiff must not be used by
 * another thread meanwhile (DL4J's own {@code save} has the same rule).
 */
final class SavedGraph {
  private SavedGraph() {}

  /** The tag DL4J's graph of {@code sd} makes: every variable, only inline arrays, no updater state. */
  static Tag read(SameDiff sd, String file) throws IOException {
    byte[] bytes;
    synchronized (sd) {
      ArrayHolder vars = sd.getVariablesArrays();
      ArrayHolder consts = sd.getConstantArrays();
      ArrayHolder smallVars = new ThreadSafeArrayHolder(true);
      ArrayHolder smallConsts = new ThreadSafeArrayHolder(true);
      for (SDVariable v : sd.variables()) {
        boolean isVar = v.getVariableType() == VariableType.VARIABLE;
        ArrayHolder from = isVar ? vars : consts;
        if ((isVar || v.getVariableType() == VariableType.CONSTANT) && from.hasArray(v.name())) {
          INDArray arr = from.getArray(v.name());
          if (arr != null && NdArrays.inline(arr)) {
            (isVar ? smallVars : smallConsts).setArray(v.name(), arr);
          }
        }
      }
      sd.setArrayHolders(smallVars, smallConsts, false);
      try {
        ByteBuffer bb = sd.asFlatBuffers(false);
        bytes = new byte[bb.remaining()];
        bb.get(bytes);
      } finally {
        sd.setArrayHolders(vars, consts, false);
      }
    }
    return FbFormat.read(new HeapSource(file + " (graph)", bytes), "default");
  }
}
