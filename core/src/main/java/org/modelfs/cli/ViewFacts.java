package org.modelfs.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.modelfs.model.DType;
import org.modelfs.store.Shown;
import org.modelfs.tree.ModelTree;
import org.modelfs.view.ArrayStats;
import java.util.function.LongFunction;
import java.io.InterruptedIOException;

/**
 * What {@code view} shows of one tag, as {@code --json} values: its graph (graph.json without
 * the fields a picture does not need: ids, properties, devices) and every parameter and updater
 * array with its {@link ArrayStats}. Array bytes are read only for the statistics, streamed.
 */
final class ViewFacts {
  /** The op fields kept: what the page draws and what a click shows (graph.json's names, docs/GRAPH.md §2.3). */
  static final Set<String> OP_FIELDS = Set.of("name", "opName", "opType", "inputs", "outputs", "outputTypes",
      "iArgs", "tArgs", "bArgs", "dArgs", "sArgs", "dimensions", "scalar", "controlDeps", "varControlDeps",
      "controlDepFor", "scopeName");
  /** The variable fields kept. */
  static final Set<String> VARIABLE_FIELDS = Set.of("name", "kind", "dtype", "shape", "controlDeps");

  private ViewFacts() {}

  /**
   * The facts of tag directory {@code tag} of model {@code model} (as the user named it); each
   * array's file goes into {@code files} by {@code <area>/<name>}.
   */
  static Map<String, Object> of(String model, Path tag, Map<String, Path> files,
      LongFunction<Progress> progress) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("model", Shown.text(model));
    out.put("tag", tag.getFileName().toString());
    out.put("graph", graph(model, tag));
    List<Object> arrays = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "modelfs-view-stats");
      t.setDaemon(true);
      return t;
    });
    try {
      Map<String, List<Exchange.Array>> byArea = new LinkedHashMap<>();
      long total = 0;
      for (String area : List.of(TagArrays.PARAMS, TagArrays.UPDATER)) {
        byArea.put(area, new ArrayList<>(Exchange.arrays(tag, area).values()));
        total += byArea.get(area).stream().mapToLong(Exchange.Array::size).sum();
      }
      Progress read = progress.apply(total);
      List<Future<Map<String, Object>>> pending = new ArrayList<>();
      byArea.forEach((area, list) -> {
        for (Exchange.Array a : list) {
          pending.add(pool.submit(() -> {
            Map<String, Object> m = array(area, a);
            read.advance(a.size());
            return m;
          }));
          files.put(area + "/" + a.name(), a.path());
        }
      });
      for (Future<Map<String, Object>> f : pending) {
        arrays.add(done(f));
      }
      read.done();
    } finally {
      pool.shutdownNow();
    }
    out.put("arrays", arrays);
    return out;
  }

  /** Arrays whose statistics are computed at once (each holds at most 32 MiB while it is). */
  static final int THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

  /** The result of {@code f}; its failure rethrown as it was thrown. */
  private static Map<String, Object> done(Future<Map<String, Object>> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading arrays");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(e.getCause());
    }
  }

  private static Map<String, Object> array(String area, Exchange.Array a) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", a.name());
    m.put("area", area);
    if (area.equals(TagArrays.UPDATER)) {
      int slash = a.name().lastIndexOf('/');
      m.put("param", slash < 0 ? a.name() : a.name().substring(0, slash));
      m.put("key", a.name().substring(slash + 1));
    }
    m.put("dtype", a.attrs().dtype());
    m.put("shape", Json.longs(a.attrs().shape()));
    m.put("order", a.attrs().order());
    m.put("bytes", a.size());
    DType t = a.dtype();
    m.put("stats", t.width() == 0 ? null : ArrayStats.of(a.path(), t, a.size() / t.width()));
    return m;
  }

  /** The tag's graph.json, kept fields only, or {@code null} when the tag has none. */
  static Map<String, Object> graph(String model, Path tag) throws IOException {
    Path file = tag.resolve(ModelTree.GRAPH_JSON);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    Object doc;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file),
        StandardCharsets.UTF_8.newDecoder()), 1 << 16)) {
      doc = new JsonStream(r, model + ":" + file).value(Integer.MAX_VALUE);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    if (doc instanceof Map<?, ?> g) {
      out.put("variables", kept(g.get("variables"), VARIABLE_FIELDS));
      out.put("ops", kept(g.get("ops"), OP_FIELDS));
      for (String k : List.of("placeholders", "lossVariables", "outputs")) {
        out.put(k, plain(g.get(k)));
      }
    }
    return out;
  }

  private static List<Object> kept(Object list, Set<String> fields) {
    List<Object> out = new ArrayList<>();
    if (list instanceof List<?> l) {
      for (Object o : l) {
        if (o instanceof Map<?, ?> m) {
          Map<String, Object> k = new LinkedHashMap<>();
          m.forEach((key, v) -> {
            if (fields.contains(key)) {
              k.put((String) key, plain(v));
            }
          });
          out.add(k);
        }
      }
    }
    return out;
  }

  /** A value of {@link JsonStream} as {@link Json} writes it: numbers as Long or Double. */
  static Object plain(Object v) {
    if (v instanceof JsonStream.Number n) {
      String s = n.text();
      if (s.matches("-?[0-9]+")) {
        try {
          return Long.parseLong(s);
        } catch (NumberFormatException e) {
          return s;
        }
      }
      return Double.parseDouble(s);
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(plain(x)));
      return out;
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put((String) k, plain(x)));
      return out;
    }
    return v;
  }
}
