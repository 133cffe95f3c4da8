package org.modelfs.dl4j;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.TrainingConfig;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.GradientUpdater;

/**
 * Saves a live DL4J {@link SameDiff} to any format ModelFS writes, and loads one back — for models
 * DL4J 1.0.0-M2.1's own single FlatBuffer cannot hold (more than 2 GiB of arrays). See
 * docs/DL4J-BRIDGE.md.
 *
 * <pre>{@code
 * SameDiffFiles.save(sd, Path.of("model.sdnb"), Map.of("format", "sdnb-sharded"));
 * SameDiff back = SameDiffFiles.load(Path.of("model.sdnb"));
 * }</pre>
 */
public final class SameDiffFiles {
  private SameDiffFiles() {}

  /** {@link #save(SameDiff, Path, Map)} in the format {@code target}'s name says. */
  public static List<Path> save(SameDiff sd, Path target) throws IOException {
    return save(sd, target, Map.of());
  }

  /**
   * Writes {@code sd} — graph, every VARIABLE and CONSTANT array, and (unless {@code env} says
   * {@code updaterState=false} / {@code trainingConfig=false}) its updater state and training
   * configuration — as the model at {@code target}, replacing what is there, through the same
   * transaction as every ModelFS commit (a crash leaves the old model or the new one). Arrays are
   * streamed from ND4J's off-heap memory to the file. {@code env}: {@code format} (a ModelFS format
   * token, else by {@code target}'s extension), {@code maxShardBytes}, {@code compression}
   * ({@code stored} or {@code deflate}). Returns the files written. {@code sd} must not be used by
   * another thread during the save.
   */
  public static List<Path> save(SameDiff sd, Path target, Map<String, ?> env) throws IOException {
    BridgeOptions o = BridgeOptions.forSave(target, env);
    String file = String.valueOf(target.getFileName());
    Tag graph = SavedGraph.read(sd, file);
    List<Variable> vars = new ArrayList<>();
    for (Variable v : graph.variables()) {
      if (v.kind() == VarKind.PLACEHOLDER) {
        // DL4J's asFlatBuffers writes the calling thread's current placeholder value; that is one
        // run's input, not part of the model (and its shape need not match the declared one)
        vars.add(v.withArray(null));
        continue;
      }
      INDArray arr = v.array() != null ? null : storedArray(sd, v);
      vars.add(arr == null || NdArrays.inline(arr) ? v : v.withArray(NdArrays.data(v.name(), arr)));
    }
    List<UpdaterState> states = new ArrayList<>();
    if (o.updaterState() && sd.getUpdaterMap() != null) {
      for (Map.Entry<String, GradientUpdater> e : sd.getUpdaterMap().entrySet()) {
        @SuppressWarnings("unchecked")
        Map<String, INDArray> state = e.getValue().getState();
        Map<String, ArrayData> arrays = new LinkedHashMap<>();
        if (state != null) {
          for (Map.Entry<String, INDArray> s : state.entrySet()) {
            arrays.put(s.getKey(), NdArrays.data(e.getKey() + "/" + s.getKey(), s.getValue()));
          }
        }
        states.add(new UpdaterState(e.getKey(), arrays));
      }
    }
    TrainingConfig tc = o.trainingConfig() ? sd.getTrainingConfig() : null;
    Tag tag = new Tag(graph.name(), graph.graph(), vars, states, tc == null ? null : tc.toJson(), Map.of());
    return ModelFiles.write(tag, target, o.write());
  }

  private static INDArray storedArray(SameDiff sd, Variable v) {
    return switch (v.kind()) {
      case VARIABLE, CONSTANT -> sd.getArrForVarName(v.name());
      default -> null;
    };
  }

  /** {@link #load(Path, Map)} of the newest tag with its updater state. */
  public static SameDiff load(Path source) throws IOException {
    return load(source, Map.of());
  }

  /**
   * A new SameDiff from the model at {@code source} (any format ModelFS reads): the graph, every
   * array (copied once from the file into ND4J's off-heap memory), the training configuration and
   * the updater state, so that {@code fit} continues as it would have in the SameDiff saved.
   * {@code env}: {@code tag} (default the newest), {@code updaterState=false},
   * {@code trainingConfig=false} (which also leaves out the updater state).
   */
  public static SameDiff load(Path source, Map<String, ?> env) throws IOException {
    BridgeOptions o = BridgeOptions.forLoad(env);
    try (Model m = ModelFiles.open(source)) {
      Tag t = o.tag() == null ? m.newest() : m.tag(o.tag());
      if (t == null) {
        throw new NoSuchFileException(source.toString(), null, "no tag named '" + o.tag() + "' in this model");
      }
      boolean training = o.trainingConfig() && t.trainingConfig() != null;
      boolean updater = training && o.updaterState() && !t.updater().isEmpty();
      byte[] graph = LoadGraph.build(t, updater, training, source.toString());
      SameDiff sd = SameDiff.fromFlatBuffers(ByteBuffer.wrap(graph), updater);
      for (Variable v : t.variables()) {
        if (!LoadGraph.inline(v)) {
          sd.associateArrayWithVariable(NdArrays.array(v.name(), v.array()), v.name());
        }
      }
      if (updater) {
        restoreUpdater(sd, t, source);
      }
      return sd;
    }
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static void restoreUpdater(SameDiff sd, Tag t, Path source) throws IOException {
    Map<String, GradientUpdater> updaters = sd.getUpdaterMap();
    for (UpdaterState u : t.updater()) {
      GradientUpdater g = updaters == null ? null : updaters.get(u.paramName());
      if (g == null) {
        throw new IOException(source + ": updater/" + u.paramName() + ": DL4J made no updater for this parameter");
      }
      Map<String, INDArray> state = new LinkedHashMap<>();
      for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
        state.put(e.getKey(), NdArrays.array(u.paramName() + "/" + e.getKey(), e.getValue()));
      }
      g.setState(state, false);
    }
  }
}
