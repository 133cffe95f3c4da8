package org.modelfs.provider;

import java.nio.file.attribute.FileAttribute;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;
import org.modelfs.model.VarKind;

/**
 * The settable {@code samediff} attributes ({@code dtype}, {@code shape}, {@code order},
 * {@code kind}), parsed from {@code setAttribute} values or creation-time {@link FileAttribute}s
 * and checked: a bad name or value is an {@link IllegalArgumentException} naming it.
 *
 * @param dtype new element type, or {@code null} to keep
 * @param shape new dimensions, or {@code null} to keep
 * @param order new element order, or 0 to keep
 * @param kind new variable kind, or {@code null} to keep
 */
record ArrayAttributes(DType dtype, long[] shape, char order, VarKind kind) {
  static final ArrayAttributes NONE = new ArrayAttributes(null, null, (char) 0, null);
  static final List<String> SETTABLE = List.of("dtype", "shape", "order", "kind");

  /** Parses creation-time attributes named {@code samediff:<name>}. */
  static ArrayAttributes of(FileAttribute<?>... attrs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (FileAttribute<?> a : attrs) {
      String name = a.name();
      if (!name.startsWith("samediff:")) {
        throw new UnsupportedOperationException("file attribute '" + name
            + "' at creation; a model file takes samediff:dtype, samediff:shape, samediff:order, samediff:kind");
      }
      m.put(name.substring("samediff:".length()), a.value());
    }
    ArrayAttributes out = NONE;
    for (Map.Entry<String, Object> e : m.entrySet()) {
      out = out.with(e.getKey(), e.getValue());
    }
    return out;
  }

  /** These attributes with one more set by name. */
  ArrayAttributes with(String name, Object value) {
    if (value == null) {
      throw new IllegalArgumentException("samediff:" + name + " cannot be null");
    }
    switch (name) {
      case "dtype" -> {
        DType t = DType.fromName(value.toString());
        if (t == null) {
          throw new IllegalArgumentException("samediff:dtype: unknown data type '" + value + "'");
        }
        return new ArrayAttributes(t, shape, order, kind);
      }
      case "shape" -> {
        long[] s = shapeOf(value);
        if (s.length > Shapes.MAX_RANK) {
          throw new IllegalArgumentException("samediff:shape: rank " + s.length + "; ND4J arrays have at most "
              + Shapes.MAX_RANK + " dimensions");
        }
        for (long d : s) {
          if (d < 0) {
            throw new IllegalArgumentException("samediff:shape: negative dimension in " + Arrays.toString(s));
          }
        }
        return new ArrayAttributes(dtype, s, order, kind);
      }
      case "order" -> {
        String o = value.toString();
        if (!o.equals("c") && !o.equals("f")) {
          throw new IllegalArgumentException("samediff:order: '" + o + "'; expected c or f");
        }
        return new ArrayAttributes(dtype, shape, o.charAt(0), kind);
      }
      case "kind" -> {
        String k = value.toString().toUpperCase(Locale.ROOT);
        if (!k.equals("VARIABLE") && !k.equals("CONSTANT") && !k.equals("PLACEHOLDER")) {
          throw new IllegalArgumentException("samediff:kind: '" + value + "'; expected VARIABLE, CONSTANT or PLACEHOLDER");
        }
        return new ArrayAttributes(dtype, shape, order, VarKind.valueOf(k));
      }
      default -> throw new IllegalArgumentException("samediff:" + name + " cannot be set; settable: " + SETTABLE);
    }
  }

  private static long[] shapeOf(Object value) {
    if (value instanceof long[] l) {
      return l.clone();
    }
    if (value instanceof int[] i) {
      return Arrays.stream(i).asLongStream().toArray();
    }
    if (value instanceof List<?> list) {
      return list.stream().mapToLong(o -> Long.parseLong(o.toString().trim())).toArray();
    }
    String s = value.toString().trim();
    if (s.startsWith("[") && s.endsWith("]")) {
      s = s.substring(1, s.length() - 1).trim();
    }
    if (s.isEmpty()) {
      return new long[0];
    }
    try {
      return Arrays.stream(s.split(",")).mapToLong(x -> Long.parseLong(x.trim())).toArray();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("samediff:shape: '" + value + "' is not a list of numbers", e);
    }
  }
}
