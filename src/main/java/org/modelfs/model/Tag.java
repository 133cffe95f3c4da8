package org.modelfs.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One tagged version of a model: its graph, its variables with where their arrays live, updater
 * state, training configuration and metadata. Immutable; built by the format readers.
 *
 * @param name tag name ({@code default} for formats without tags)
 * @param graph the FlatGraph this tag's structure comes from ({@code null} for a new empty tag)
 * @param variables every variable, in graph order
 * @param updater updater state per parameter, in stored order
 * @param trainingConfig the training configuration JSON, or {@code null}
 * @param metadata metadata key → value, sorted by key
 */
public record Tag(
    String name,
    GraphRef graph,
    List<Variable> variables,
    List<UpdaterState> updater,
    String trainingConfig,
    Map<String, String> metadata) {

  public Tag {
    Objects.requireNonNull(name, "name");
    variables = List.copyOf(variables);
    updater = List.copyOf(updater);
    metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  /** The variable with this exact name, or {@code null}. */
  public Variable variable(String varName) {
    for (Variable v : variables) {
      if (v.name().equals(varName)) {
        return v;
      }
    }
    return null;
  }

  /** The variables that hold an array. */
  public List<Variable> arrays() {
    List<Variable> out = new ArrayList<>();
    for (Variable v : variables) {
      if (v.array() != null) {
        out.add(v);
      }
    }
    return out;
  }
}
