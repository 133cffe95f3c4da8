package org.modelfs.format.fb;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.model.DType;

/**
 * Typed reads of the values of a parsed graph.json ({@link org.modelfs.format.JsonText}'s maps,
 * lists, strings, longs, doubles, booleans): each returns the value, or records in the problems
 * what was expected and what was there, and returns {@code null}.
 */
final class JsonFields {
  private final JsonProblems problems;

  JsonFields(JsonProblems problems) {
    this.problems = problems;
  }

  JsonProblems problems() {
    return problems;
  }

  void problem(String where, String what) {
    problems.add(where, what);
  }

  /** Refuses keys of {@code m} outside {@code known}. */
  void onlyKeys(Map<String, Object> m, Set<String> known, String where) {
    for (String k : m.keySet()) {
      if (!known.contains(k)) {
        problem(where, "unknown key " + show(k) + " (known: " + String.join(", ", known) + ")");
      }
    }
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> object(Object v, String where) {
    if (v instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    problem(where, "expected an object, found " + show(v));
    return null;
  }

  @SuppressWarnings("unchecked")
  List<Object> array(Object v, String where) {
    if (v instanceof List<?> l) {
      return (List<Object>) l;
    }
    problem(where, "expected an array, found " + show(v));
    return null;
  }

  String string(Object v, String where) {
    if (v instanceof String s) {
      return s;
    }
    problem(where, "expected a string, found " + show(v));
    return null;
  }

  Boolean bool(Object v, String where) {
    if (v instanceof Boolean b) {
      return b;
    }
    problem(where, "expected true or false, found " + show(v));
    return null;
  }

  /** An integer in {@code [min, max]}. */
  Long integer(Object v, long min, long max, String where) {
    if (v instanceof Long l) {
      if (l < min || l > max) {
        problem(where, l + " is out of range: expected an integer from " + min + " to " + max);
        return null;
      }
      return l;
    }
    problem(where, "expected an integer, found " + show(v));
    return null;
  }

  /** A shape: an array of at most {@link ArrayDecoder#MAX_RANK} integers in {@code [min, max]}. */
  long[] dims(Object json, String where, long min, long max) {
    List<Object> l = array(json, where);
    if (l == null) {
      return null;
    }
    if (l.size() > ArrayDecoder.MAX_RANK) {
      problem(where, "rank " + l.size() + " is more than " + ArrayDecoder.MAX_RANK);
      return null;
    }
    long[] s = new long[l.size()];
    for (int i = 0; i < s.length; i++) {
      Long d = integer(l.get(i), min, max, where + "[" + i + "]");
      if (d == null) {
        return null;
      }
      s[i] = d;
    }
    return s;
  }

  /** A number; also the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} graph.json writes for those. */
  Double number(Object v, String where) {
    if (v instanceof Long l) {
      return (double) l;
    }
    if (v instanceof Double d) {
      return d;
    }
    if (v instanceof String s) {
      switch (s) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
    }
    problem(where, "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\"), found " + show(v));
    return null;
  }

  /** A data type by its ND4J name ({@code FLOAT}, {@code INT}, …) or a known type's code. */
  Integer dtypeCode(Object v, String where) {
    return dtypeCode(v, where, List.of());
  }

  /**
   * A data type by its ND4J name or a known type's code; also a code no type has where
   * {@code shown} holds it (graph.json shows a stored unknown code as its number: it may stay).
   */
  Integer dtypeCode(Object v, String where, Collection<?> shown) {
    if (v instanceof String s) {
      for (DType t : DType.values()) {
        if (t.nd4jName().equals(s)) {
          return t.code();
        }
      }
      problem(where, show(s) + " is no data type; expected one of " + dtypeNames());
      return null;
    }
    if (v instanceof Long l && l >= 0 && l <= 255 && (DType.fromCode(l.intValue()) != null || shown.contains(l))) {
      return l.intValue();
    }
    problem(where, "expected a data type name (" + dtypeNames() + "), found " + show(v));
    return null;
  }

  /** A data type of an array: a known one, by name. */
  DType dtype(Object v, String where) {
    Integer code = dtypeCode(v, where);
    if (code == null) {
      return null;
    }
    DType t = DType.fromCode(code);
    if (t == null) {
      problem(where, "data type code " + code + " is no type an array can have");
    }
    return t;
  }

  static String dtypeNames() {
    StringBuilder sb = new StringBuilder();
    for (DType t : DType.values()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(t.nd4jName());
    }
    return sb.toString();
  }

  /** A short rendering of a JSON value for a message. */
  static String show(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return "\"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\"";
    }
    if (v instanceof Map) {
      return "an object";
    }
    if (v instanceof List<?> l) {
      return l.size() == 1 && !(l.get(0) instanceof Map || l.get(0) instanceof List) ? "[" + show(l.get(0)) + "]"
          : "an array";
    }
    return v.toString();
  }
}
