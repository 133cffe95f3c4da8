package org.modelfs.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The updater (optimizer) state of one parameter: state key ({@code M}, {@code V} for Adam) to
 * array, in stored order.
 */
public record UpdaterState(String paramName, Map<String, ArrayData> arrays) {
  public UpdaterState {
    Objects.requireNonNull(paramName, "paramName");
    arrays = Collections.unmodifiableMap(new LinkedHashMap<>(arrays));
  }
}
