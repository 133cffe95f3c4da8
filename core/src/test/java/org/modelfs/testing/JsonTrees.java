package org.modelfs.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.modelfs.format.JsonText;

/**
 * Edits of a graph.json as a user's script makes them: parse the text
 * ({@link JsonText}: maps in key order, lists, strings, longs, doubles, booleans, null), change
 * the tree, write it back as compact JSON. Numbers are written as Java prints them, so a
 * double that was {@code 1.0} stays {@code 1.0}.
 */
public final class JsonTrees {
  private JsonTrees() {}

  /** {@code json} parsed, changed by {@code edit}, written back (compact, one line). */
  public static String edit(String json, Consumer<Map<String, Object>> edit) {
    Map<String, Object> doc = parse(json);
    edit.accept(doc);
    return write(doc);
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> parse(String json) {
    return (Map<String, Object>) JsonText.parse(json, 64, true);
  }

  /** The op of graph.json {@code doc} named {@code name}. */
  public static Map<String, Object> op(Map<String, Object> doc, String name) {
    return named(doc, "ops", name);
  }

  /** The variable of graph.json {@code doc} named {@code name}. */
  public static Map<String, Object> variable(Map<String, Object> doc, String name) {
    return named(doc, "variables", name);
  }

  /** The list at {@code key} of {@code m}. */
  @SuppressWarnings("unchecked")
  public static List<Object> list(Map<String, Object> m, String key) {
    return (List<Object>) m.get(key);
  }

  /** The object at {@code key} of {@code m}. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> object(Map<String, Object> m, String key) {
    return (Map<String, Object>) m.get(key);
  }

  /** A shallow copy of {@code m} (its own key order kept), to add as another element. */
  public static Map<String, Object> copy(Map<String, Object> m) {
    return new LinkedHashMap<>(m);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> named(Map<String, Object> doc, String list, String name) {
    for (Object o : (List<Object>) doc.get(list)) {
      Map<String, Object> m = (Map<String, Object>) o;
      if (name.equals(m.get("name"))) {
        return m;
      }
    }
    throw new AssertionError("no " + list + " entry named " + name);
  }

  /** Replaces variable name {@code from} by {@code to} everywhere in a graph.json tree (ids kept). */
  @SuppressWarnings("unchecked")
  public static void renameEverywhere(Map<String, Object> g, String from, String to) {
    for (Object o : list(g, "variables")) {
      Map<String, Object> v = (Map<String, Object>) o;
      if (from.equals(v.get("name"))) {
        v.put("name", to);
      }
    }
    for (Object o : list(g, "ops")) {
      Map<String, Object> op = (Map<String, Object>) o;
      for (String k : List.of("inputs", "outputs", "varControlDeps", "controlDepFor")) {
        if (op.get(k) instanceof List<?> l) {
          List<Object> n = new ArrayList<>(l);
          n.replaceAll(x -> from.equals(x) ? to : x);
          op.put(k, n);
        }
      }
    }
    for (String k : List.of("placeholders", "lossVariables", "outputs")) {
      if (g.get(k) instanceof List<?> l) {
        List<Object> n = new ArrayList<>(l);
        n.replaceAll(x -> from.equals(x) ? to : x);
        g.put(k, n);
      }
    }
  }
  /**
   * Adds {@code n} copies of the {@code softmax} op of an MLP's graph.json {@code doc}
   * ({@code mlp_adam.fb}), each reading {@code logits}, named {@code s<i>} with id
   * {@code 1000 + i}, and each output variable ({@code ARRAY}, FLOAT; with its id
   * {@code [1000 + i, 0]} when {@code ids}, else left out): a large graph for the budget tests and
   * the benchmark {@code GraphJsonWriteMain}.
   */
  public static void addSoftmaxOps(Map<String, Object> doc, int n, boolean ids) {
    Map<String, Object> proto = op(doc, "softmax");
    for (int i = 0; i < n; i++) {
      Map<String, Object> op = new LinkedHashMap<>(proto);
      op.put("name", "s" + i);
      op.put("id", 1000L + i);
      op.put("inputs", List.of("logits"));
      op.put("outputs", List.of("s" + i));
      list(doc, "ops").add(op);
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("name", "s" + i);
      v.put("kind", "ARRAY");
      v.put("dtype", "FLOAT");
      if (ids) {
        v.put("id", List.of(1000L + i, 0L));
      }
      list(doc, "variables").add(v);
    }
  }

  /** A literal JSON text put in place as it is by {@link #write} (a number past a double, say). */
  public record Raw(String text) {}

  /** Compact JSON of a tree of maps, lists, strings, numbers, booleans, nulls and {@link Raw} texts. */
  public static String write(Object v) {
    StringBuilder sb = new StringBuilder();
    write(v, sb);
    return sb.toString();
  }

  private static void write(Object v, StringBuilder sb) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(s, sb);
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else if (v instanceof Raw r) {
      sb.append(r.text());
    } else if (v instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(first ? "" : ",");
        first = false;
        string((String) e.getKey(), sb);
        sb.append(':');
        write(e.getValue(), sb);
      }
      sb.append('}');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        sb.append(i == 0 ? "" : ",");
        write(l.get(i), sb);
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + v.getClass());
    }
  }

  private static void string(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
  }

  /** A new list of {@code values} (JSON arrays of the tree must be mutable for later edits). */
  public static List<Object> listOf(Object... values) {
    return new ArrayList<>(List.of(values));
  }

  /** A new ordered object of alternating keys and values. */
  public static Map<String, Object> objectOf(Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }
}
