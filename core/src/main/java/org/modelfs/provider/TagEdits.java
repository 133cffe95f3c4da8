package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.modelfs.format.TrainingJson;
import org.modelfs.format.fb.GraphReader;
import org.modelfs.model.ArrayData;
import org.modelfs.model.GraphRef;
import org.modelfs.model.NamedList;
import org.modelfs.model.Shapes;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * The changes a mount can make to a tag, as functions from the tag as it is to the tag as it
 * will be (tags are immutable; the file system swaps in the result).
 */
final class TagEdits {
  private TagEdits() {}

  /** {@code tag} with variable {@code name} holding {@code array} (added as {@code kind} if new). O(log n). */
  static Tag withArray(Tag tag, String name, ArrayData array, VarKind kind) {
    Variable v = tag.variable(name);
    Variable next = v == null
        ? new Variable(name, kind == null ? VarKind.VARIABLE : kind, array.dtype(), array.shape(), array, -1)
        : new Variable(name, kind == null ? v.kind() : kind, array.dtype(), v.shape() == null ? null : array.shape(),
            array, v.graphVariable());
    return new Tag(tag.name(), tag.graph(), tag.vars().with(next), tag.updater(), tag.trainingConfig(), tag.metadata());
  }

  /**
   * {@code tag} after deleting the file of parameter {@code name}: a variable of the stored
   * graph keeps its place (ops may use it) and loses only its array, so a commit needs a new
   * one; a variable added through the file system goes away with its updater state. O(log n).
   */
  static Tag withoutArray(Tag tag, String name) {
    Variable v = tag.variable(name);
    if (v == null || v.graphVariable() < 0) {
      return withoutVariable(tag, name);
    }
    // remember the shape (declared, else the array's) so that a new file of the same size fits it
    Variable kept = new Variable(v.name(), v.kind(), v.dtype(), v.effectiveShape(), null, v.graphVariable());
    return new Tag(tag.name(), tag.graph(), tag.vars().with(kept), tag.updater(), tag.trainingConfig(), tag.metadata());
  }

  /** {@code tag} without variable {@code name} and its updater state. O(log n). */
  static Tag withoutVariable(Tag tag, String name) {
    return new Tag(tag.name(), tag.graph(), tag.vars().without(name), tag.states().without(name),
        tag.trainingConfig(), tag.metadata());
  }

  /**
   * {@code tag} with updater state {@code key} of {@code param} set to {@code array}, or removed
   * when null (a state left without keys goes). O(log n).
   */
  static Tag withState(Tag tag, String param, String key, ArrayData array) {
    UpdaterState u = tag.state(param);
    NamedList<UpdaterState> ups;
    if (u == null) {
      ups = array == null ? tag.states() : tag.states().with(new UpdaterState(param, Map.of(key, array)));
    } else {
      Map<String, ArrayData> m = new LinkedHashMap<>(u.arrays());
      if (array == null) {
        m.remove(key);
      } else {
        m.put(key, array);
      }
      ups = m.isEmpty() ? tag.states().without(param) : tag.states().with(new UpdaterState(param, m));
    }
    return new Tag(tag.name(), tag.graph(), tag.variables(), ups, tag.trainingConfig(), tag.metadata());
  }

  /**
   * {@code tag} with the graph structure read from {@code graph} (a FlatGraph as the
   * {@code graph} file shows it): its variables, each keeping the array and updater state of
   * the same-named variable of {@code tag}; the tag's metadata. An array written in this
   * session (raw bytes: the variable did not exist yet) whose size fits the graph's declared
   * dtype and shape takes them, and so does its updater state. The training configuration is
   * {@code training.json}'s: a graph that carries one is accepted where the tag has none (it
   * becomes training.json) or the same one; another one is refused (docs/FILESYSTEM.md §7).
   */
  static Tag withGraph(Tag tag, GraphRef graph, String path) throws IOException {
    GraphReader.Content c = GraphFiles.read(graph, path);
    String training = tag.trainingConfig();
    if (c.trainingConfig() != null) {
      if (training != null && !training.equals(c.trainingConfig())) {
        throw new FileSystemException(path, null, "this graph carries a training configuration other than the"
            + " tag's training.json; the training configuration lives in training.json: write it there, or write a"
            + " graph without one");
      }
      training = c.trainingConfig();
    }
    List<Variable> vars = new ArrayList<>();
    Map<String, Variable> declared = new HashMap<>();
    for (Variable v : c.variables()) {
      Variable old = tag.variable(v.name());
      ArrayData a = v.array() != null ? v.array() : old == null ? null : declaredFit(old.array(), v);
      vars.add(v.withArray(a));
      declared.put(v.name(), v);
    }
    List<UpdaterState> ups = new ArrayList<>();
    for (UpdaterState u : tag.updater()) {
      Variable v = declared.get(u.paramName());
      if (v != null) {
        Map<String, ArrayData> m = new LinkedHashMap<>();
        u.arrays().forEach((k, a) -> m.put(k, declaredFit(a, v)));
        ups.add(new UpdaterState(u.paramName(), m));
      }
    }
    return new Tag(tag.name(), graph, vars, ups, training, tag.metadata());
  }

  /**
   * {@code a} with {@code v}'s declared dtype and shape when it was written in this session
   * and its size is exactly theirs; else {@code a} as it is.
   */
  private static ArrayData declaredFit(ArrayData a, Variable v) {
    long[] shape = v.shape();
    if (a == null || a.storage() != ArrayData.Storage.JOURNAL || v.dtype() == null || shape == null
        || v.dtype().width() == 0 || a.dtype().width() == 0) {
      return a;
    }
    for (long d : shape) {
      if (d < 0) {
        return a;
      }
    }
    if (Shapes.byteLength(shape, v.dtype().width()) != a.length()) {
      return a;
    }
    return new ArrayData(v.dtype(), shape, a.order(), a.empty(), a.source(), a.offset(), a.length(), a.bigEndian(),
        a.storage());
  }

  /**
   * {@code tag} without its graph structure (the {@code graph} file deleted): no ops; the
   * variables that hold an array stay, with their updater state; the others go.
   */
  static Tag withoutGraph(Tag tag) {
    List<Variable> vars = new ArrayList<>();
    for (Variable v : tag.variables()) {
      if (v.array() != null) {
        vars.add(new Variable(v.name(), v.kind(), v.dtype(), v.shape(), v.array(), -1));
      }
    }
    List<UpdaterState> ups = new ArrayList<>();
    for (UpdaterState u : tag.updater()) {
      if (vars.stream().anyMatch(v -> v.name().equals(u.paramName()))) {
        ups.add(u);
      }
    }
    return new Tag(tag.name(), null, vars, ups, tag.trainingConfig(), tag.metadata());
  }

  /**
   * {@code tag} with variables renamed as {@code renames} says (old name → new name), each
   * keeping its place in the graph (ops use it by id), its updater state, and its place in
   * training.json's name lists.
   */
  static Tag renamed(Tag tag, Map<String, String> renames) {
    Map.Entry<String, String> one = renames.size() == 1 ? renames.entrySet().iterator().next() : null;
    if (one != null && tag.variable(one.getValue()) == null && tag.state(one.getValue()) == null) { // O(log n)
      Map.Entry<String, String> e = one;
      Variable v = tag.variable(e.getKey());
      UpdaterState u = tag.state(e.getKey());
      NamedList<Variable> vs = v == null ? tag.vars() : tag.vars().renamed(e.getKey(),
          new Variable(e.getValue(), v.kind(), v.dtype(), v.shape(), v.array(), v.graphVariable()));
      NamedList<UpdaterState> us = u == null ? tag.states()
          : tag.states().renamed(e.getKey(), new UpdaterState(e.getValue(), u.arrays()));
      return new Tag(tag.name(), tag.graph(), vs, us, training(tag, renames), tag.metadata());
    }
    List<Variable> vars = new ArrayList<>();
    for (Variable v : tag.variables()) {
      String to = renames.get(v.name());
      vars.add(to == null ? v : new Variable(to, v.kind(), v.dtype(), v.shape(), v.array(), v.graphVariable()));
    }
    List<UpdaterState> ups = new ArrayList<>();
    for (UpdaterState u : tag.updater()) {
      String to = renames.get(u.paramName());
      ups.add(to == null ? u : new UpdaterState(to, u.arrays()));
    }
    return new Tag(tag.name(), tag.graph(), vars, ups, training(tag, renames), tag.metadata());
  }

  /**
   * The tag's training configuration with the renamed variables renamed in its name lists too
   * (the placeholders it feeds data to, the loss variables): DL4J maps training data by them.
   */
  private static String training(Tag tag, Map<String, String> renames) {
    return tag.trainingConfig() == null ? null : TrainingJson.renamed(tag.trainingConfig(), renames);
  }

  /** {@code tag} with metadata keys renamed as {@code renames} says (old key → new key). */
  static Tag withMetadataRenamed(Tag tag, Map<String, String> renames) {
    Map<String, String> m = new TreeMap<>();
    tag.metadata().forEach((k, v) -> m.put(renames.getOrDefault(k, k), v));
    return new Tag(tag.name(), tag.graph(), tag.variables(), tag.updater(), tag.trainingConfig(), m);
  }

  /** {@code tag} with metadata {@code key} set to {@code value}, or removed when null. */
  static Tag withMetadata(Tag tag, String key, String value) {
    Map<String, String> m = new TreeMap<>(tag.metadata());
    if (value == null) {
      m.remove(key);
    } else {
      m.put(key, value);
    }
    return new Tag(tag.name(), tag.graph(), tag.variables(), tag.updater(), tag.trainingConfig(), m);
  }

  /** {@code tag} with training configuration {@code json} (none when null). */
  static Tag withTraining(Tag tag, String json) {
    return new Tag(tag.name(), tag.graph(), tag.variables(), tag.updater(), json, tag.metadata());
  }

  /** {@code tags} with the tag named like {@code changed} replaced by it. */
  static List<Tag> replace(List<Tag> tags, Tag changed) {
    List<Tag> out = new ArrayList<>(tags);
    for (int i = 0; i < out.size(); i++) {
      if (out.get(i).name().equals(changed.name())) {
        out.set(i, changed);
      }
    }
    return out;
  }
}
