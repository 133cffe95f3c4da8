package org.modelfs.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.modelfs.format.JsonString;

/**
 * The machine-readable output of {@code --json} (docs/CLI.md): values are built as
 * {@code Map}/{@code List}/{@code String}/{@code Number}/{@code Boolean}/{@code null} and
 * written as one JSON document, keys in insertion order, two-space indentation, strings escaped
 * as RFC 8259 says (non-ASCII characters are written as they are; the output is UTF-8).
 */
final class Json {
  private Json() {}

  /** {@code value} as a JSON document followed by a newline. */
  static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb, 0);
    return sb.append('\n').toString();
  }

  /** A list of longs as a JSON-ready list (shapes). */
  static List<Long> longs(long[] values) {
    List<Long> out = new ArrayList<>(values == null ? 0 : values.length);
    if (values != null) {
      for (long v : values) {
        out.add(v);
      }
    }
    return out;
  }

  private static void write(Object v, StringBuilder sb, int indent) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      JsonString.quote(s, sb);
    } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
      sb.append(v);
    } else if (v instanceof Number n) {
      double d = n.doubleValue();
      sb.append(Double.isFinite(d) ? Double.toString(d) : "null");
    } else if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        sb.append("{}");
        return;
      }
      sb.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        pad(sb, indent + 2);
        JsonString.quote(String.valueOf(e.getKey()), sb);
        sb.append(": ");
        write(e.getValue(), sb, indent + 2);
        sb.append(++i < m.size() ? ",\n" : "\n");
      }
      pad(sb, indent);
      sb.append('}');
    } else if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        sb.append("[]");
        return;
      }
      boolean flat = l.stream().allMatch(x -> x == null || x instanceof Number || x instanceof Boolean);
      sb.append(flat ? "[" : "[\n");
      for (int i = 0; i < l.size(); i++) {
        if (!flat) {
          pad(sb, indent + 2);
        }
        write(l.get(i), sb, indent + 2);
        sb.append(i + 1 < l.size() ? (flat ? ", " : ",\n") : flat ? "" : "\n");
      }
      if (!flat) {
        pad(sb, indent);
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
    }
  }

  private static void pad(StringBuilder sb, int n) {
    sb.append(" ".repeat(n));
  }
}
