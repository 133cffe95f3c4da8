package org.modelfs.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

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

  /** How {@link #variables} are named. */
  public static final Function<Variable, String> VARIABLE_NAME = Variable::name;
  /** How {@link #updater} states are named. */
  public static final Function<UpdaterState, String> STATE_NAME = UpdaterState::paramName;

  public Tag {
    Objects.requireNonNull(name, "name");
    variables = NamedList.of(variables, VARIABLE_NAME);
    updater = NamedList.of(updater, STATE_NAME);
    metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  /** The variable with this exact name, or {@code null}. */
  public Variable variable(String varName) {
    return vars().byName(varName);
  }

  /** The updater state of parameter {@code param}, or {@code null}. */
  public UpdaterState state(String param) {
    return states().byName(param);
  }

  /** {@link #variables} with lookups by name and O(log n) changes. */
  public NamedList<Variable> vars() {
    return (NamedList<Variable>) variables;
  }

  /** {@link #updater} with lookups by name and O(log n) changes. */
  public NamedList<UpdaterState> states() {
    return (NamedList<UpdaterState>) updater;
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
