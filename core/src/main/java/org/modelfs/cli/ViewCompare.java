package org.modelfs.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.modelfs.model.DType;
import org.modelfs.view.DeltaStats;

/**
 * What {@code view A B} shows of two tags: per array (params and updater) whether it was added,
 * removed, retyped, changed or unchanged, with {@link DeltaStats} for arrays of one type and
 * shape; the relative change ‖Δ‖/‖W‖ per name scope (every prefix of a parameter's name up to a
 * '/', and the whole model as {@code ""}); the ops and variables added, removed or changed.
 */
final class ViewCompare {
  private ViewCompare() {}

  /**
   * {@code a} and {@code b} from {@link ViewFacts#of}, with the array files it gave; the bytes of
   * A's arrays compared go to {@code progress} (the step's total in bytes gives it).
   */
  static Map<String, Object> of(Map<String, Object> a, Map<String, Path> fa, Map<String, Object> b,
      Map<String, Path> fb, LongFunction<Progress> progress) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    List<Object> arrays = new ArrayList<>();
    Map<String, double[]> scopes = new TreeMap<>();
    Map<String, Map<?, ?>> inB = byName(b.get("arrays"), true);
    Map<String, Map<?, ?>> inA = byName(a.get("arrays"), true);
    long total = 0;
    for (Map.Entry<String, Map<?, ?>> e : inA.entrySet()) {
      total += comparable(e.getValue(), inB.get(e.getKey())) ? ((Number) e.getValue().get("bytes")).longValue() : 0;
    }
    Progress step = progress.apply(total);
    for (Map.Entry<String, Map<?, ?>> e : inA.entrySet()) {
      Map<?, ?> x = e.getValue();
      Map<?, ?> y = inB.get(e.getKey());
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("name", x.get("name"));
      c.put("area", x.get("area"));
      if (y == null) {
        c.put("change", "removed");
      } else if (!comparable(x, y)) {
        c.put("change", "retyped");
        c.put("from", x.get("dtype") + " " + x.get("shape"));
        c.put("to", y.get("dtype") + " " + y.get("shape"));
      } else {
        Path pa = fa.get(e.getKey());
        Path pb = fb.get(e.getKey());
        DType t = DType.fromName((String) x.get("dtype"));
        Map<String, Object> d = sameFile(pa, pb) || t.width() == 0 ? null
            : DeltaStats.of(pa, pb, t, ((Number) x.get("bytes")).longValue() / t.width());
        boolean changed = d == null ? t.width() == 0 && !ArrayDiff.sameBytes(pa, pb)
            : ((Number) d.get("differing")).longValue() > 0;
        c.put("change", changed ? "changed" : "unchanged");
        c.put("delta", d);
        if ("params".equals(x.get("area"))) {
          addToScopes(scopes, (String) x.get("name"), d == null ? 0 : (Double) d.get("deltaSquares"),
              d == null ? squares(x.get("stats")) : (Double) d.get("squares"));
        }
        step.advance(((Number) x.get("bytes")).longValue());
      }
      arrays.add(c);
    }
    for (Map.Entry<String, Map<?, ?>> e : inB.entrySet()) {
      if (!inA.containsKey(e.getKey())) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", e.getValue().get("name"));
        c.put("area", e.getValue().get("area"));
        c.put("change", "added");
        arrays.add(c);
      }
    }
    step.done();
    out.put("arrays", arrays);
    List<Object> s = new ArrayList<>();
    scopes.forEach((scope, v) -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("scope", scope);
      m.put("deltaNorm", Math.sqrt(v[0]));
      m.put("norm", Math.sqrt(v[1]));
      m.put("relativeChange", v[1] > 0 ? Math.sqrt(v[0] / v[1]) : v[0] > 0 ? null : 0.0);
      s.add(m);
    });
    out.put("scopes", s);
    out.put("ops", graphChanges(a, b, "ops"));
    out.put("variables", graphChanges(a, b, "variables"));
    return out;
  }

  /**
   * Σx² over the finite values an array's statistics were taken over, from them:
   * {@code finite · (std² + mean²)} (an array stored once for both tags is not read again).
   */
  private static double squares(Object stats) {
    if (!(stats instanceof Map<?, ?> s) || s.get("mean") == null) {
      return 0;
    }
    long finite = ((Number) s.get("read")).longValue() - ((Number) s.get("nan")).longValue()
        - ((Number) s.get("posInf")).longValue() - ((Number) s.get("negInf")).longValue();
    double mean = ((Number) s.get("mean")).doubleValue();
    double std = ((Number) s.get("std")).doubleValue();
    return finite * (std * std + mean * mean);
  }

  /** Both arrays are there, of one dtype and shape: their elements are compared. */
  private static boolean comparable(Map<?, ?> x, Map<?, ?> y) {
    return y != null && Objects.equals(x.get("dtype"), y.get("dtype")) && Objects.equals(x.get("shape"), y.get("shape"));
  }

  private static boolean sameFile(Path a, Path b) throws IOException {
    return Objects.equals(Files.readAttributes(a, BasicFileAttributes.class).fileKey(),
        Files.readAttributes(b, BasicFileAttributes.class).fileKey());
  }

  private static void addToScopes(Map<String, double[]> scopes, String name, double dd, double aa) {
    for (int i = name.indexOf('/'); ; i = name.indexOf('/', i + 1)) {
      double[] v = scopes.computeIfAbsent(i < 0 ? "" : name.substring(0, i), k -> new double[2]);
      v[0] += dd;
      v[1] += aa;
      if (i < 0) {
        return;
      }
    }
  }

  /** The names of {@code key} (ops or variables) added, removed and changed from {@code a}'s graph to {@code b}'s. */
  private static Map<String, Object> graphChanges(Map<String, Object> a, Map<String, Object> b, String key) {
    Map<String, Map<?, ?>> x = byName(a.get("graph") instanceof Map<?, ?> g ? g.get(key) : null, false);
    Map<String, Map<?, ?>> y = byName(b.get("graph") instanceof Map<?, ?> g ? g.get(key) : null, false);
    List<Object> added = new ArrayList<>();
    List<Object> removed = new ArrayList<>();
    List<Object> changed = new ArrayList<>();
    x.forEach((n, m) -> {
      if (!y.containsKey(n)) {
        removed.add(n);
      } else if (!m.equals(y.get(n))) {
        changed.add(n);
      }
    });
    y.keySet().stream().filter(n -> !x.containsKey(n)).forEach(added::add);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("added", added);
    out.put("removed", removed);
    out.put("changed", changed);
    return out;
  }

  /** The maps of a list by their {@code name} (prefixed by their {@code area} when {@code withArea}). */
  private static Map<String, Map<?, ?>> byName(Object list, boolean withArea) {
    Map<String, Map<?, ?>> out = new LinkedHashMap<>();
    if (list instanceof List<?> l) {
      for (Object o : l) {
        if (o instanceof Map<?, ?> m) {
          out.put((withArea ? m.get("area") + "/" : "") + m.get("name"), m);
        }
      }
    }
    return out;
  }
}
