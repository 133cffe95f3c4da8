package org.modelfs.dl4j;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.TrainingConfig;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.GradientUpdater;

/**
 * What DL4J sees of a SameDiff, for comparing two: every variable (kind, type, shape, SHA-256 of its
 * array's elements), every updater state array, the training configuration, the loss variables —
 * and the graph's outputs for fixed placeholder values.
 */
final class Dl4jState {
  private Dl4jState() {}

  /** Variables, updater state, training configuration and loss variables of {@code sd}. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static Map<String, String> of(SameDiff sd) {
    Map<String, String> out = new TreeMap<>();
    for (SDVariable v : sd.variables()) {
      VariableType k = v.getVariableType();
      INDArray arr = k == VariableType.VARIABLE || k == VariableType.CONSTANT ? sd.getArrForVarName(v.name()) : null;
      out.put("var " + v.name(), k + " " + v.dataType() + " " + describe(arr));
    }
    Map<String, GradientUpdater> um = sd.getUpdaterMap();
    if (um != null) {
      for (Map.Entry<String, GradientUpdater> e : um.entrySet()) {
        Map<String, INDArray> st = e.getValue().getState();
        for (Map.Entry<String, INDArray> s : st.entrySet()) {
          out.put("updater " + e.getKey() + "/" + s.getKey(), describe(s.getValue()));
        }
      }
    }
    TrainingConfig tc = sd.getTrainingConfig();
    out.put("trainingConfig", tc == null ? "-" : tc.toJson());
    out.put("loss", String.valueOf(sd.getLossVariables()));
    return out;
  }

  /**
   * The graph's outputs for placeholders filled from a fixed seed — or, when DL4J cannot compute
   * them so, what it threw (which a faithful copy throws too).
   */
  static Map<String, String> outputs(SameDiff sd, Map<String, INDArray> placeholders) {
    Map<String, INDArray> res;
    try {
      res = sd.output(placeholders, leaves(sd));
    } catch (RuntimeException e) {
      return Map.of("error", String.valueOf(e));
    }
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, INDArray> e : res.entrySet()) {
      out.put(e.getKey(), describe(e.getValue()));
    }
    return out;
  }

  /** The ARRAY variables no op reads: what the graph computes. */
  static List<String> leaves(SameDiff sd) {
    List<String> out = new ArrayList<>();
    for (SDVariable v : sd.variables()) {
      List<String> readers = sd.getVariables().get(v.name()).getInputsForOp();
      if (v.getVariableType() == VariableType.ARRAY && (readers == null || readers.isEmpty())) {
        out.add(v.name());
      }
    }
    return out;
  }

  /**
   * Values for every placeholder: the one stored with it (the TF-imported fixtures hold their
   * test inputs), else from seed 42 ({@code -1} dimensions → 2).
   */
  static Map<String, INDArray> placeholders(SameDiff sd) {
    Nd4j.getRandom().setSeed(42);
    Map<String, INDArray> ph = new LinkedHashMap<>();
    for (SDVariable v : sd.variables()) {
      if (v.getVariableType() == VariableType.PLACEHOLDER) {
        INDArray stored = sd.getArrForVarName(v.name());
        if (stored != null) {
          ph.put(v.name(), stored.dup());
          continue;
        }
        long[] shape = v.getShape();
        if (shape == null) {
          throw new IllegalStateException("placeholder " + v.name() + " has no shape");
        }
        long[] s = Arrays.stream(shape).map(d -> d < 0 ? 2 : d).toArray();
        INDArray x = s.length == 0 ? Nd4j.scalar(Nd4j.getRandom().nextDouble()) : Nd4j.rand(DataType.DOUBLE, s);
        ph.put(v.name(), x.castTo(v.dataType()));
      }
    }
    return ph;
  }

  static String describe(INDArray arr) {
    if (arr == null) {
      return "no array";
    }
    String head = arr.dataType() + Arrays.toString(arr.shape());
    if (arr.isEmpty()) {
      return head + " empty";
    }
    if (arr.dataType() == DataType.UTF8) {
      return head + " " + arr;
    }
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(arr.dup('c').data().asBytes());
      return head + " " + HexFormat.of().formatHex(md.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
