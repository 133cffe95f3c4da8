package org.modelfs.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What DL4J's loader needs of a model's training configuration ({@code training.json}): every
 * format stores it as text and DL4J 1.0.0-M2.1 reads it with {@code TrainingConfig.fromJson}
 * (Jackson) when it loads the model, failing the whole load when that throws. This class
 * refuses, before anything is written, what that call refuses (docs/FORMATS.md §3.9, checked
 * against DL4J 1.0.0-M2.1 itself):
 *
 * <ul>
 *   <li>anything that is not strict JSON (RFC 8259: no comments, {@code NaN}, single quotes,
 *       trailing commas), or whose top level is not an object;
 *   <li>{@code updater}: {@code null} or an object whose {@code "@class"} names one of ND4J's
 *       updaters; {@code regularization}: {@code null} or a list of objects whose
 *       {@code "@class"} names one of ND4J's regularizations;
 *   <li>fields of the wrong kind: {@code minimize} (a boolean), {@code iterationCount} and
 *       {@code epochCount} (numbers), the data-set mappings and {@code lossVariables} (lists of
 *       strings), {@code initialLossDataType} (a data type name), numbers of the updater.
 * </ul>
 *
 * Keys DL4J does not know are ignored by it, and so here; so are repeated keys. Parsing
 * ({@link JsonText}) has a budget: at most {@link #MAX_DEPTH} levels of nesting (the text itself
 * is limited by the caller).
 */
public final class TrainingJson {
  /** Deepest nesting accepted. */
  public static final int MAX_DEPTH = 64;

  private static final String UPDATERS = "org.nd4j.linalg.learning.config.";
  /**
   * ND4J's updaters and the state each keeps per parameter: {@code setState} of its updater
   * refuses any other set of keys ("State map should contain only keys …").
   */
  private static final Map<String, Set<String>> UPDATER_STATE = Map.ofEntries(
      Map.entry("AdaBelief", Set.of("M", "S")), Map.entry("AdaDelta", Set.of("msg", "msdx")),
      Map.entry("AdaGrad", Set.of("grad")), Map.entry("AdaMax", Set.of("M", "V")),
      Map.entry("AMSGrad", Set.of("M", "V", "V_HAT")), Map.entry("Adam", Set.of("M", "V")),
      Map.entry("Nadam", Set.of("M", "V")), Map.entry("Nesterovs", Set.of("V")), Map.entry("NoOp", Set.of()),
      Map.entry("RmsProp", Set.of("G")), Map.entry("Sgd", Set.of()));
  private static final Set<String> UPDATER_CLASSES = UPDATER_STATE.keySet();
  private static final String REGULARIZATIONS = "org.nd4j.linalg.learning.regularization.";
  private static final Set<String> REGULARIZATION_CLASSES = Set.of("L1Regularization", "L2Regularization",
      "WeightDecay");
  private static final Set<String> DATA_TYPES = Set.of("COMPRESSED", "BYTE", "BOOL", "INT", "UTF8", "HALF",
      "UINT64", "UINT32", "FLOAT", "UBYTE", "UINT16", "UNKNOWN", "DOUBLE", "SHORT", "BFLOAT16", "LONG");
  private static final Set<String> STRING_LISTS = Set.of("dataSetFeatureMapping", "dataSetLabelMapping",
      "dataSetFeatureMaskMapping", "dataSetLabelMaskMapping", "lossVariables");
  private static final Set<String> UPDATER_NUMBERS = Set.of("learningRate", "beta1", "beta2", "epsilon",
      "momentum", "rho", "rmsDecay");

  private TrainingJson() {}

  /**
   * What DL4J's loader would make of a training configuration.
   *
   * @param problems reasons {@code TrainingConfig.fromJson} would refuse it; empty if it reads it
   * @param hasUpdater whether it names an updater (loading updater state needs one)
   * @param updaterStateKeys the state keys that updater keeps per parameter, or {@code null}
   *     when it names none ND4J has
   * @param variableNames the variable names each of its name lists holds ({@code dataSetFeatureMapping},
   *     {@code dataSetLabelMapping}, their mask mappings, {@code lossVariables}), by list
   */
  public record Check(List<String> problems, boolean hasUpdater, Set<String> updaterStateKeys,
      Map<String, List<String>> variableNames) {}

  /** Reads {@code json} as DL4J would (one parse). */
  public static Check check(String json) {
    Object root;
    try {
      root = JsonText.parse(json, MAX_DEPTH, false);
    } catch (IllegalArgumentException e) {
      return new Check(List.of("not JSON: " + e.getMessage()), false, null, Map.of());
    }
    if (!(root instanceof Map<?, ?> m)) {
      return new Check(List.of("a training configuration is a JSON object, not " + kind(root)), false, null, Map.of());
    }
    List<String> out = new ArrayList<>();
    Object updater = m.get("updater");
    Set<String> keys = null;
    if (updater != null) {
      typed(out, "updater", updater, UPDATERS, UPDATER_CLASSES);
      if (updater instanceof Map<?, ?> u) {
        for (String k : UPDATER_NUMBERS) {
          if (u.containsKey(k) && !isNumber(u.get(k))) {
            out.add("updater." + k + " is " + kind(u.get(k)) + ", DL4J needs a number");
          }
        }
        if (u.get("@class") instanceof String c && c.startsWith(UPDATERS)) {
          keys = UPDATER_STATE.get(c.substring(UPDATERS.length()));
        }
      }
    }
    Object reg = m.get("regularization");
    if (reg != null) {
      if (reg instanceof List<?> l) {
        for (int i = 0; i < l.size(); i++) {
          typed(out, "regularization[" + i + "]", l.get(i), REGULARIZATIONS, REGULARIZATION_CLASSES);
        }
      } else {
        out.add("regularization is " + kind(reg) + ", DL4J needs a list");
      }
    }
    Object minimize = m.get("minimize");
    if (m.containsKey("minimize") && !(minimize instanceof Boolean || minimize instanceof String s
        && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")))) {
      out.add("minimize is " + kind(minimize) + ", DL4J needs true or false");
    }
    for (String k : List.of("iterationCount", "epochCount")) {
      if (m.containsKey(k) && !isNumber(m.get(k))) {
        out.add(k + " is " + kind(m.get(k)) + ", DL4J needs a number");
      }
    }
    Map<String, List<String>> names = new TreeMap<>();
    for (String k : STRING_LISTS) {
      Object v = m.get(k);
      if (v != null && !(v instanceof List<?> l && l.stream().allMatch(e -> e == null || e instanceof String))) {
        out.add(k + " is " + kind(v) + ", DL4J needs a list of names");
      } else if (v instanceof List<?> l) {
        List<String> n = new ArrayList<>();
        for (Object e : l) {
          if (e != null) {
            n.add((String) e);
          }
        }
        names.put(k, List.copyOf(n));
      }
    }
    Object dt = m.get("initialLossDataType");
    if (dt != null && !(dt instanceof String s && DATA_TYPES.contains(s))) {
      out.add("initialLossDataType is " + kind(dt) + ", DL4J needs a data type name (FLOAT, DOUBLE, …)");
    }
    return new Check(List.copyOf(out), updater instanceof Map, keys, Map.copyOf(names));
  }

  /**
   * {@code json} with the variable names of its name lists ({@code dataSetFeatureMapping},
   * {@code dataSetLabelMapping}, their mask mappings, {@code lossVariables}) renamed as
   * {@code renames} says (old → new); every other byte as it was. Text that is not a JSON object
   * is returned as it is (its problems are {@link #check}'s to name).
   */
  public static String renamed(String json, Map<String, String> renames) {
    StringBuilder out = new StringBuilder(json.length());
    int depth = 0;
    int i = 0;
    String key = null; // the last top-level key read
    boolean inList = false; // inside the array value of one of the name lists
    while (i < json.length()) {
      char c = json.charAt(i);
      if (c == '"') {
        int end = stringEnd(json, i);
        if (end < 0) {
          return json;
        }
        String token = json.substring(i, end);
        if (inList && depth == 2) {
          Object name = parseString(token);
          String to = name instanceof String n ? renames.get(n) : null;
          out.append(to == null ? token : JsonString.quote(to));
        } else {
          out.append(token);
          if (depth == 1) {
            key = parseString(token) instanceof String k ? k : null;
          }
        }
        i = end;
        continue;
      }
      if (c == '{' || c == '[') {
        depth++;
        if (c == '[' && depth == 2 && key != null && STRING_LISTS.contains(key)) {
          inList = true;
        }
      } else if (c == '}' || c == ']') {
        depth--;
        if (depth < 2) {
          inList = false;
        }
      }
      out.append(c);
      i++;
    }
    return out.toString();
  }

  /** The index past the JSON string token starting at {@code from} (a quote), or -1 if unterminated. */
  private static int stringEnd(String s, int from) {
    for (int i = from + 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '"') {
        return i + 1;
      }
    }
    return -1;
  }

  private static Object parseString(String token) {
    try {
      return JsonText.parse(token, 1, false);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Reasons DL4J could not read {@code json} as a training configuration; empty if it can. */
  public static List<String> problems(String json) {
    return check(json).problems();
  }

  private static void typed(List<String> out, String what, Object v, String pkg, Set<String> names) {
    if (!(v instanceof Map<?, ?> m)) {
      out.add(what + " is " + kind(v) + ", DL4J needs an object with \"@class\"");
      return;
    }
    Object c = m.get("@class");
    if (!(c instanceof String s)) {
      out.add(what + " has no \"@class\" naming its type (DL4J needs one)");
    } else if (!s.startsWith(pkg) || !names.contains(s.substring(pkg.length()))) {
      out.add(what + ".@class '" + s + "' is not one of ND4J's: " + pkg + names);
    }
  }

  private static boolean isNumber(Object v) {
    if (v instanceof Number) {
      return true;
    }
    if (v instanceof String s) {
      try {
        Double.parseDouble(s.trim());
        return true;
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return false;
  }

  private static String kind(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return "the text \"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\"";
    }
    if (v instanceof Number) {
      return "a number";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    return v instanceof List ? "a list" : "an object";
  }
}
