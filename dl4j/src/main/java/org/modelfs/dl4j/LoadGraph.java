package org.modelfs.dl4j;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.fb.FlatBufferOut;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.HeapSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * The FlatGraph DL4J M2.1's {@code SameDiff.fromFlatBuffers} builds the loaded SameDiff from
 * (docs/DL4J-BRIDGE.md §3): the tag's graph written as format A with only the arrays the bridge
 * leaves inline (UTF-8, empty), and — when updater state is restored — each parameter's state
 * keys with a one-element stand-in array. DL4J makes its updaters from those
 * ({@code IUpdater.instantiate(stateMap, false)}, the only public way to a trained SameDiff
 * without computing a step); the bridge then gives each updater its real state
 * ({@code GradientUpdater.setState}).
 */
final class LoadGraph {
  private static final ArrayData STAND_IN = new ArrayData(DType.FLOAT, new long[0], 'c', false,
      new HeapSource("updater stand-in", new byte[4]), 0, 4, false, ArrayData.Storage.RAW);

  private LoadGraph() {}

  /**
   * True when the bridge leaves {@code v}'s array in the graph for DL4J to read itself: UTF-8 and
   * empty arrays (and any of no bytes: ND4J gives those no buffer to fill), and any array of a PLACEHOLDER (DL4J's save writes the current thread's
   * placeholder value too) — the bridge places only VARIABLE and CONSTANT arrays.
   */
  static boolean inline(Variable v) {
    ArrayData a = v.array();
    return a == null || a.empty() || a.length() == 0 || a.dtype() == DType.UTF8
        || (v.kind() != VarKind.VARIABLE && v.kind() != VarKind.CONSTANT);
  }

  /** The FlatBuffer bytes of {@code tag}'s graph for DL4J to load. */
  static byte[] build(Tag tag, boolean withUpdater, boolean withTraining, String file) throws IOException {
    List<Variable> vars = new ArrayList<>();
    for (Variable v : tag.variables()) {
      vars.add(inline(v) ? v : v.withArray(null));
    }
    List<UpdaterState> states = new ArrayList<>();
    if (withUpdater) {
      for (UpdaterState u : tag.updater()) {
        Map<String, ArrayData> standIns = new LinkedHashMap<>();
        for (String key : u.arrays().keySet()) {
          standIns.put(key, STAND_IN);
        }
        states.add(new UpdaterState(u.paramName(), standIns));
      }
    }
    Tag g = new Tag(tag.name(), tag.graph(), vars, states, withTraining ? tag.trainingConfig() : null, Map.of());
    GraphWriter.Built b = GraphWriter.build(g, GraphWriter.Mode.LEGACY, Set.of(), Map.of(), file);
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, b.flatBufferLength()));
    FlatBufferOut.write(b, new CountingOutput(out), true);
    return out.toByteArray();
  }
}
