package org.modelfs.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * Keys DL4J does not know are ignored by it, and so here. Parsing has a budget: at most
 * {@link #MAX_DEPTH} levels of nesting (the text itself is limited by the caller).
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

  /** Reasons DL4J could not read {@code json} as a training configuration; empty if it can. */
  public static List<String> problems(String json) {
    Object root;
    try {
      root = new Parser(json).document();
    } catch (IllegalArgumentException e) {
      return List.of("not JSON: " + e.getMessage());
    }
    if (!(root instanceof Map<?, ?> m)) {
      return List.of("a training configuration is a JSON object, not " + kind(root));
    }
    List<String> out = new ArrayList<>();
    Object updater = m.get("updater");
    if (updater != null) {
      typed(out, "updater", updater, UPDATERS, UPDATER_CLASSES);
      if (updater instanceof Map<?, ?> u) {
        for (String k : UPDATER_NUMBERS) {
          if (u.containsKey(k) && !isNumber(u.get(k))) {
            out.add("updater." + k + " is " + kind(u.get(k)) + ", DL4J needs a number");
          }
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
    for (String k : STRING_LISTS) {
      Object v = m.get(k);
      if (v != null && !(v instanceof List<?> l && l.stream().allMatch(e -> e == null || e instanceof String))) {
        out.add(k + " is " + kind(v) + ", DL4J needs a list of names");
      }
    }
    Object dt = m.get("initialLossDataType");
    if (dt != null && !(dt instanceof String s && DATA_TYPES.contains(s))) {
      out.add("initialLossDataType is " + kind(dt) + ", DL4J needs a data type name (FLOAT, DOUBLE, …)");
    }
    return out;
  }

  /**
   * The state keys the configuration's updater keeps for each parameter, or {@code null} when
   * the text names no updater ND4J has (then {@link #problems} says why).
   */
  public static Set<String> updaterStateKeys(String json) {
    try {
      if (new Parser(json).document() instanceof Map<?, ?> m && m.get("updater") instanceof Map<?, ?> u
          && u.get("@class") instanceof String c && c.startsWith(UPDATERS)) {
        return UPDATER_STATE.get(c.substring(UPDATERS.length()));
      }
    } catch (IllegalArgumentException e) {
      // not JSON: no updater
    }
    return null;
  }

  /** Whether the configuration names an updater (what loading updater state needs). */
  public static boolean hasUpdater(String json) {
    try {
      return new Parser(json).document() instanceof Map<?, ?> m && m.get("updater") instanceof Map;
    } catch (IllegalArgumentException e) {
      return false;
    }
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
    if (v instanceof Double) {
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
    if (v instanceof Double) {
      return "a number";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    return v instanceof List ? "a list" : "an object";
  }

  /** A strict RFC 8259 parser into Map (insertion order), List, String, Double, Boolean, null. */
  private static final class Parser {
    private final String s;
    private int i;
    private int depth;

    Parser(String s) {
      this.s = s;
    }

    Object document() {
      ws();
      Object v = value();
      ws();
      if (i != s.length()) {
        throw error("text after the end of the JSON value");
      }
      return v;
    }

    private Object value() {
      if (i >= s.length()) {
        throw error("the text ends where a value should be");
      }
      char c = s.charAt(i);
      switch (c) {
        case '{':
          return object();
        case '[':
          return array();
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          if (c == '-' || c >= '0' && c <= '9') {
            return number();
          }
          throw error("unexpected '" + c + "'");
      }
    }

    private Map<String, Object> object() {
      enter();
      Map<String, Object> m = new LinkedHashMap<>();
      i++;
      ws();
      if (peek('}')) {
        i++;
        depth--;
        return m;
      }
      while (true) {
        ws();
        if (!peek('"')) {
          throw error("a key must be a string in double quotes");
        }
        String k = string();
        ws();
        expect(':');
        ws();
        m.put(k, value());
        ws();
        if (peek(',')) {
          i++;
          continue;
        }
        expect('}');
        depth--;
        return m;
      }
    }

    private List<Object> array() {
      enter();
      List<Object> l = new ArrayList<>();
      i++;
      ws();
      if (peek(']')) {
        i++;
        depth--;
        return l;
      }
      while (true) {
        ws();
        l.add(value());
        ws();
        if (peek(',')) {
          i++;
          continue;
        }
        expect(']');
        depth--;
        return l;
      }
    }

    private String string() {
      i++;
      StringBuilder b = new StringBuilder();
      while (true) {
        if (i >= s.length()) {
          throw error("a string is not closed");
        }
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        if (c < 0x20) {
          throw error("a control character inside a string");
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (i >= s.length()) {
          throw error("a string is not closed");
        }
        char e = s.charAt(i++);
        switch (e) {
          case '"', '\\', '/' -> b.append(e);
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw error("a \\u escape needs four hex digits");
            }
            try {
              b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            } catch (NumberFormatException x) {
              throw error("a \\u escape needs four hex digits");
            }
            i += 4;
          }
          default -> throw error("unknown escape \\" + e);
        }
      }
    }

    private Double number() {
      int start = i;
      if (peek('-')) {
        i++;
      }
      if (peek('0')) {
        i++;
      } else if (digit()) {
        while (digit()) {
          i++;
        }
      } else {
        throw error("a number needs digits");
      }
      if (peek('.')) {
        i++;
        if (!digit()) {
          throw error("a number needs digits after '.'");
        }
        while (digit()) {
          i++;
        }
      }
      if (peek('e') || peek('E')) {
        i++;
        if (peek('+') || peek('-')) {
          i++;
        }
        if (!digit()) {
          throw error("a number needs digits in its exponent");
        }
        while (digit()) {
          i++;
        }
      }
      return Double.parseDouble(s.substring(start, i));
    }

    private Object literal(String word, Object v) {
      if (!s.startsWith(word, i)) {
        throw error("unexpected '" + s.charAt(i) + "'");
      }
      i += word.length();
      return v;
    }

    private void enter() {
      if (++depth > MAX_DEPTH) {
        throw error("nested deeper than " + MAX_DEPTH + " levels");
      }
    }

    private boolean digit() {
      return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9';
    }

    private boolean peek(char c) {
      return i < s.length() && s.charAt(i) == c;
    }

    private void expect(char c) {
      if (!peek(c)) {
        throw error(i >= s.length() ? "the text ends where '" + c + "' should be" : "'" + c + "' expected, found '"
            + s.charAt(i) + "'");
      }
      i++;
    }

    private void ws() {
      while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n' || s.charAt(i) == '\r')) {
        i++;
      }
    }

    private IllegalArgumentException error(String what) {
      int line = 1;
      int col = 1;
      for (int k = 0; k < Math.min(i, s.length()); k++) {
        if (s.charAt(k) == '\n') {
          line++;
          col = 1;
        } else {
          col++;
        }
      }
      return new IllegalArgumentException(what + " (line " + line + ", column " + col + ")");
    }
  }
}
