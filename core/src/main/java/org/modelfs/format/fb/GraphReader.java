package org.modelfs.format.fb;

import static org.modelfs.format.fb.Slots.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.modelfs.format.ModelFormatException;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.GraphRef;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * Reads a FlatGraph's index: variables with the location of their inline arrays, updater
 * state, training configuration and (SDNB) metadata. Array bytes are never read; appended SDNB
 * arrays are reported as stubs for the SDNB reader to locate through its manifest. What is
 * materialised (elements and their strings) is charged to a {@link Budget} proportional to the
 * FlatGraph's size, so tables shared many times over cannot exhaust the heap.
 */
public final class GraphReader {
  /** Upper bound on vector lengths we accept for names and shapes lists (hostile input). */
  private static final int MAX_RANK = ArrayDecoder.MAX_RANK;

  private GraphReader() {}

  /**
   * What a FlatGraph holds.
   *
   * @param variables variables in graph order (appended SDNB arrays not yet attached)
   * @param stubs SDNB appended-array stubs by variable name
   * @param updater updater state per parameter
   * @param trainingConfig training configuration JSON or {@code null}
   * @param metadata SDNB metadata, sorted by key (empty for format A)
   */
  public record Content(
      List<Variable> variables,
      Map<String, ArrayDecoder.Header> stubs,
      List<UpdaterState> updater,
      String trainingConfig,
      Map<String, String> metadata) {}

  /** Reads the FlatGraph at the start of {@code graph}. */
  public static Content read(GraphRef graph, String file) throws ModelFormatException {
    FbBuffer buf = new FbBuffer(graph.source(), graph.offset(), graph.length(), file);
    FbTable root = buf.root("FlatGraph");
    Convention conv = graph.convention();
    Budget budget = Budget.read(buf);

    List<Variable> variables = new ArrayList<>();
    Map<String, ArrayDecoder.Header> stubs = new HashMap<>();
    FbVector vars = root.getVector(G_VARIABLES, "variables", 4);
    int n = vars == null ? 0 : vars.length();
    // sized up front for up to 2^16 variables (no rehashing): not more, as n is the file's claim,
    // checked only as each element is charged to the budget
    Set<String> seen = new HashSet<>(Math.min(1 << 16, n) * 4 / 3 + 1);
    for (int i = 0; i < n; i++) {
      FbTable v = vars.getTable(i);
      budget.element(v.position(), v.what());
      String name = v.getString(V_NAME, "name");
      if (name == null) {
        throw buf.error(v.position(), v.what(), "variable without a name");
      }
      budget.charge(2L * name.length(), v.position(), v.what() + ".name");
      if (!seen.add(name)) {
        throw buf.error(v.position(), v.what(), "duplicate variable name '" + name + "'");
      }
      int kindCode = v.getByte(V_VARTYPE, (byte) 0) & 0xff;
      VarKind kind = VarKind.fromCode(kindCode);
      if (kind == null) {
        throw buf.error(v.position(), v.what() + ".variabletype", "unknown variable type " + kindCode);
      }
      int dtCode = v.getByte(V_DTYPE, (byte) 0) & 0xff;
      DType dtype = DType.fromCode(dtCode); // null = INHERIT/unknown: allowed for ARRAY outputs
      if (dtype == null && dtCode != 0) {
        throw buf.error(v.position(), v.what() + ".dtype", "unknown data type code " + dtCode);
      }
      FbVector sv = v.getVector(V_SHAPE, "shape", 8);
      long[] shape = sv == null ? null : sv.longs(MAX_RANK);
      ArrayData array = null;
      FbTable nd = v.getTable(V_NDARRAY, "ndarray");
      if (nd != null && kind != VarKind.ARRAY) {
        array = ArrayDecoder.inline(nd, conv, budget);
        if (array == null) {
          stubs.put(name, ArrayDecoder.header(nd, conv));
        }
      }
      if (dtype == null && array != null) {
        dtype = array.dtype();
      }
      variables.add(new Variable(name, kind, dtype, shape, array, v.position()));
    }

    List<UpdaterState> updater = new ArrayList<>();
    FbVector ups = root.getVector(G_UPDATER_STATE, "updaterState", 4);
    for (int i = 0; ups != null && i < ups.length(); i++) {
      FbTable u = ups.getTable(i);
      budget.element(u.position(), u.what());
      String param = u.getString(U_PARAM_NAME, "paramName");
      if (param == null) {
        throw buf.error(u.position(), u.what(), "updater state without a parameter name");
      }
      FbVector keys = u.getVector(U_KEYS, "updaterStateKeys", 4);
      FbVector vals = u.getVector(U_VALUES, "updaterStateValues", 4);
      int kn = keys == null ? 0 : keys.length();
      int vn = vals == null ? 0 : vals.length();
      if (kn != vn) {
        throw buf.error(u.position(), u.what(), kn + " state keys but " + vn + " state arrays");
      }
      Map<String, ArrayData> arrays = new LinkedHashMap<>();
      for (int k = 0; k < kn; k++) {
        budget.element(keys.position(), keys.what());
        String key = keys.getString(k);
        budget.charge(2L * key.length(), keys.position(), keys.what());
        ArrayData a = ArrayDecoder.inline(vals.getTable(k), conv, budget);
        if (a == null) {
          throw buf.error(u.position(), u.what(), "updater state '" + key + "' has no inline data");
        }
        if (arrays.put(key, a) != null) {
          throw buf.error(u.position(), u.what(), "duplicate updater state key '" + key + "'");
        }
      }
      updater.add(new UpdaterState(param, arrays));
    }

    String training = root.getString(G_TRAINING_CONFIG, "trainingConfig");
    Map<String, String> metadata = new TreeMap<>();
    if (conv == Convention.SDNB) {
      FbVector keys = root.getVector(G_SLOT9_METADATA_KEYS, "metadataKeys", 4);
      FbVector vals = root.getVector(G_METADATA_VALUES, "metadataValues", 4);
      int kn = keys == null ? 0 : keys.length();
      int vn = vals == null ? 0 : vals.length();
      if (kn != vn) {
        throw buf.error(root.position(), "FlatGraph.metadataKeys", kn + " metadata keys but " + vn + " values");
      }
      for (int i = 0; i < kn; i++) {
        budget.element(keys.position(), keys.what());
        String key = keys.getString(i);
        String value = vals.getString(i);
        budget.charge(2L * (key.length() + value.length()), vals.position(), vals.what());
        metadata.put(key, value);
      }
    }
    return new Content(variables, stubs, updater, training, metadata);
  }
}
