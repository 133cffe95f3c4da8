package org.modelfs.interop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.store.ModelFiles;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.autodiff.samediff.internal.SameDiffOp;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.GradientUpdater;
import org.nd4j.shade.jackson.databind.JsonNode;
import org.nd4j.shade.jackson.databind.ObjectMapper;

/**
 * The oracle of {@link Dl4jOracleInteropTest}: what ModelFS shows of a committed model against
 * what real DL4J 1.0.0-M2.1 makes of the same model, tag by tag. ModelFS's view is the mount's
 * {@code graph.json} (variables with kind, dtype, shape; ops with inputs and outputs), its
 * {@code params/} and {@code updater/} files with their {@code samediff} attributes and bytes;
 * DL4J's is {@code SameDiff.load(fb, true)} of ModelFS's conversion of the tag to fb (or of the fb
 * itself): {@code variables()}, {@code getArr()}, {@code getOps()}, the updater map, and
 * {@code output(...)} of every op output graph.json lists, placeholders fed with a seeded random
 * input of the declared shape ({@code -1} → 2).
 *
 * <p>Each disagreement is one line {@code "<class>: <detail>"}; the class (before the colon) is
 * what the test groups failures by.
 */
final class Dl4jOracle {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Dl4jOracle() {}

  /** Per fixture: op outputs DL4J does not compute on the fixture itself ({@code null}: it computes none). */
  private static final Map<String, Set<String>> BASELINE = new ConcurrentHashMap<>();

  /**
   * The op outputs DL4J M2.1 does not compute for the untouched {@code fixture} with the oracle's
   * input (a TF import whose {@code cond} or loop needs other values); {@code null} when
   * {@code output} throws there. Those are not held against an edit.
   */
  static Set<String> baseline(String fixture) {
    return BASELINE.computeIfAbsent(fixture, f -> {
      Path fb = Dl4jFixtures.model(f);
      try {
        View view = View.read(fb, "default");
        List<String> p = new ArrayList<>();
        computeOutputs("", view, SameDiff.load(fb.toFile(), true), Set.of(), p);
        Set<String> missing = new TreeSet<>();
        for (String line : p) {
          int i = line.indexOf("missing [");
          if (i < 0) {
            return Set.of("*");
          }
          missing.addAll(Arrays.asList(line.substring(i + 9, line.length() - 1).split(", ")));
        }
        return missing;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** Every disagreement between ModelFS and DL4J for every tag of {@code model}, made from {@code fixture}. */
  static List<String> check(Path model, ModelFormat format, Path scratch, String fixture) {
    Set<String> uncomputed = baseline(fixture);
    List<String> problems = new ArrayList<>();
    List<String> tags = new ArrayList<>();
    try (Model m = ModelFiles.open(model)) {
      int i = 0;
      for (Tag t : m.tags()) {
        tags.add(t.name());
        if (format != ModelFormat.FB) {
          Path out = scratch.resolve("oracle-" + (i++) + ".fb");
          Files.deleteIfExists(out);
          try {
            ModelFiles.write(t, out, WriteOptions.of(ModelFormat.FB).withDropMetadata(true));
          } catch (IOException | RuntimeException e) {
            problems.add("committed model does not convert to fb: tag " + t.name() + ": " + e);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      problems.add("committed model does not open: " + e);
      return problems;
    }
    for (int i = 0; i < tags.size(); i++) {
      Path fb = format == ModelFormat.FB ? model : scratch.resolve("oracle-" + i + ".fb");
      if (Files.isRegularFile(fb)) {
        checkTag(model, tags.get(i), fb, uncomputed, problems);
      }
    }
    return problems;
  }

  private static void checkTag(Path model, String tag, Path fb, Set<String> uncomputed, List<String> problems) {
    View view;
    try {
      view = View.read(model, tag);
    } catch (IOException | RuntimeException e) {
      problems.add("mount cannot show the committed tag: " + tag + ": " + e);
      return;
    }
    SameDiff sd;
    try {
      sd = SameDiff.load(fb.toFile(), true);
    } catch (RuntimeException e) {
      problems.add("DL4J cannot load: tag " + tag + ": " + e);
      return;
    }
    String at = "tag " + tag + ", ";
    compareVariables(at, view, sd, problems);
    compareUpdater(at, view, sd, problems);
    compareOps(at, view, sd, problems);
    if (!uncomputed.contains("*")) {
      computeOutputs(at, view, sd, uncomputed, problems);
    }
  }

  private static void compareVariables(String at, View view, SameDiff sd, List<String> problems) {
    Set<String> dl4j = new TreeSet<>(Dl4jSnapshot.NAME_ORDER);
    for (SDVariable v : sd.variables()) {
      dl4j.add(v.name());
    }
    if (!dl4j.equals(view.variables.keySet())) {
      Set<String> onlyFs = new TreeSet<>(view.variables.keySet());
      onlyFs.removeAll(dl4j);
      Set<String> onlyDl4j = new TreeSet<>(dl4j);
      onlyDl4j.removeAll(view.variables.keySet());
      problems.add("variable names differ: " + at + "only in graph.json " + onlyFs + ", only in DL4J " + onlyDl4j);
    }
    for (JsonNode v : view.variables.values()) {
      String name = v.path("name").asText();
      SDVariable d = sd.getVariables().containsKey(name) ? sd.getVariable(name) : null;
      if (d == null) {
        continue;
      }
      String kind = v.path("kind").asText();
      if (!kind.equals(d.getVariableType().name())) {
        problems.add("variable kind differs: " + at + name + ": graph.json " + kind + ", DL4J " + d.getVariableType());
      }
      String dtype = v.path("dtype").isNull() ? null : v.path("dtype").asText();
      if (dtype != null && !dtype.equals(d.dataType().name())) {
        problems.add("variable dtype differs: " + at + name + ": graph.json " + dtype + ", DL4J " + d.dataType());
      }
      ArrayFile f = view.params.get(name);
      INDArray arr = kind.equals("ARRAY") ? null : sd.getArrForVarName(name);
      if (kind.equals("PLACEHOLDER") && f != null && arr != null) {
        compareArray(at, name, f, arr, problems); // DL4J saves a placeholder's array when one is set
      }
      if (!kind.equals("VARIABLE") && !kind.equals("CONSTANT")) {
        continue;
      }
      if (f == null) {
        problems.add("array missing in params/: " + at + name + " (" + kind + ") has no file");
        continue;
      }
      if (arr == null) {
        problems.add("array missing in DL4J: " + at + name);
        continue;
      }
      long[] declared = shape(v.path("shape"));
      if (declared != null && !Arrays.equals(declared, arr.shape())) {
        problems.add("declared shape differs from array: " + at + name + ": graph.json " + Arrays.toString(declared)
            + ", DL4J array " + Arrays.toString(arr.shape()));
      }
      compareArray(at, name, f, arr, problems);
    }
    for (String name : view.params.keySet()) {
      JsonNode v = view.variables.get(name);
      String kind = v == null ? null : v.path("kind").asText();
      if (!"VARIABLE".equals(kind) && !"CONSTANT".equals(kind) && !"PLACEHOLDER".equals(kind)) {
        problems.add("params/ file without array variable: " + at + name + " (graph.json kind " + kind + ")");
      }
    }
  }

  private static void compareArray(String at, String name, ArrayFile f, INDArray arr, List<String> problems) {
    if (!f.dtype.equals(arr.dataType().name())) {
      problems.add("array dtype differs: " + at + name + ": params/ " + f.dtype + ", DL4J " + arr.dataType());
    }
    if (!Arrays.equals(f.shape, arr.shape())) {
      problems.add("array shape differs: " + at + name + ": params/ " + Arrays.toString(f.shape) + ", DL4J "
          + Arrays.toString(arr.shape()));
      return;
    }
    if (f.order.equals("c") && f.dtype.equals(arr.dataType().name())
        && !Dl4jSnapshot.sha256Hex(f.bytes).equals(Dl4jSnapshot.sha256Hex(arr))) {
      problems.add("array values differ: " + at + name + " (" + f.dtype + Arrays.toString(f.shape) + "): params/ "
          + head(f.bytes) + ", DL4J " + head(Dl4jSnapshot.cOrderLeBytes(arr)));
    }
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static void compareUpdater(String at, View view, SameDiff sd, List<String> problems) {
    Map<String, INDArray> dl4j = new LinkedHashMap<>();
    Map<String, GradientUpdater> um = sd.getUpdaterMap();
    if (um != null) {
      for (Map.Entry<String, GradientUpdater> e : um.entrySet()) {
        Map<String, INDArray> state = e.getValue().getState();
        if (state != null) {
          state.forEach((k, a) -> dl4j.put(e.getKey() + "/" + k, a));
        }
      }
    }
    if (!dl4j.keySet().equals(view.updater.keySet())) {
      problems.add("updater state names differ: " + at + "updater/ " + new TreeSet<>(view.updater.keySet()) + ", DL4J "
          + new TreeSet<>(dl4j.keySet()));
    }
    for (Map.Entry<String, ArrayFile> e : view.updater.entrySet()) {
      INDArray arr = dl4j.get(e.getKey());
      if (arr != null) {
        compareArray(at, "updater " + e.getKey(), e.getValue(), arr, problems);
      }
      String param = e.getKey().substring(0, e.getKey().lastIndexOf('/'));
      ArrayFile p = view.params.get(param);
      if (p != null && (!p.dtype.equals(e.getValue().dtype) || !Arrays.equals(p.shape, e.getValue().shape))) {
        problems.add("updater state does not fit its parameter: " + at + e.getKey() + " " + e.getValue().dtype
            + Arrays.toString(e.getValue().shape) + " for " + param + " " + p.dtype + Arrays.toString(p.shape));
      }
    }
  }

  private static void compareOps(String at, View view, SameDiff sd, List<String> problems) {
    Map<String, SameDiffOp> ops = sd.getOps();
    if (!ops.keySet().equals(view.ops.keySet())) {
      Set<String> onlyFs = new TreeSet<>(view.ops.keySet());
      onlyFs.removeAll(ops.keySet());
      Set<String> onlyDl4j = new TreeSet<>(ops.keySet());
      onlyDl4j.removeAll(view.ops.keySet());
      problems.add("op names differ: " + at + "only in graph.json " + onlyFs + ", only in DL4J " + onlyDl4j);
    }
    for (JsonNode op : view.ops.values()) {
      String name = op.path("name").asText();
      SameDiffOp d = ops.get(name);
      if (d == null) {
        continue;
      }
      List<String> in = strings(op.path("inputs"));
      List<String> dIn = d.getInputsToOp() == null ? List.of() : d.getInputsToOp();
      if (!in.equals(dIn)) {
        problems.add("op inputs differ: " + at + "op " + name + ": graph.json " + in + ", DL4J " + dIn);
      }
      List<String> out = strings(op.path("outputs"));
      List<String> dOut = d.getOutputsOfOp() == null ? List.of() : d.getOutputsOfOp();
      if (!out.equals(dOut)) {
        problems.add("op outputs differ: " + at + "op " + name + ": graph.json " + out + ", DL4J " + dOut);
      }
    }
  }

  private static void computeOutputs(String at, View view, SameDiff sd, Set<String> uncomputed, List<String> problems) {
    Set<String> wanted = new LinkedHashSet<>();
    for (JsonNode op : view.ops.values()) {
      wanted.addAll(strings(op.path("outputs")));
    }
    wanted.removeIf(n -> !sd.hasVariable(n) || uncomputed.contains(n));
    if (wanted.isEmpty()) {
      return;
    }
    Map<String, INDArray> feed = feed(sd);
    Map<String, INDArray> got;
    try {
      got = boundedOutput(sd, feed, wanted.toArray(new String[0]));
    } catch (TimeoutException e) {
      problems.add("DL4J output does not return: " + at + "no answer in " + OUTPUT_SECONDS + " s (its executor loops)");
      return;
    } catch (RuntimeException | Error e) {
      problems.add("DL4J does not compute every op output: " + at + e.toString().replace('\n', ' '));
      return;
    }
    List<String> missing = new ArrayList<>();
    for (String n : wanted) {
      if (got.get(n) == null) {
        missing.add(n);
      }
    }
    if (!missing.isEmpty()) {
      problems.add("DL4J does not compute every op output: " + at + "missing " + missing);
    }
  }

  /** How long {@code output} may take before the oracle calls it a loop (a fixture's takes well under a second). */
  static final int OUTPUT_SECONDS = Integer.getInteger("oracle.outputSeconds", 10);

  /**
   * {@code sd.output} on a daemon thread, given {@link #OUTPUT_SECONDS}: DL4J M2.1's executor can
   * loop forever on a graph (seen on a TF while loop after an edit); that thread is then left
   * behind (Java cannot stop it) and the failure reported.
   */
  private static Map<String, INDArray> boundedOutput(SameDiff sd, Map<String, INDArray> feed, String[] names)
      throws TimeoutException {
    FutureTask<Map<String, INDArray>> task =
        new FutureTask<>(() -> sd.output(feed, names));
    Thread t = new Thread(task, "dl4j-oracle-output");
    t.setDaemon(true);
    t.start();
    try {
      return task.get(OUTPUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** A seeded random array for every placeholder: declared shape, {@code -1} (or none) → 2. */
  static Map<String, INDArray> feed(SameDiff sd) {
    Map<String, INDArray> feed = new LinkedHashMap<>();
    long seed = 7;
    for (SDVariable v : sd.variables()) {
      if (v.getVariableType() != VariableType.PLACEHOLDER) {
        continue;
      }
      long[] shape = v.placeholderShape();
      shape = shape == null ? new long[] {2} : shape.clone();
      for (int i = 0; i < shape.length; i++) {
        if (shape[i] < 0) {
          shape[i] = 2;
        }
      }
      DataType t = v.dataType();
      INDArray a = t == DataType.BOOL ? Dl4jModels.random(DataType.DOUBLE, seed++, 1.0, shape).gt(0)
          : Dl4jModels.random(t.isFPType() ? t : DataType.DOUBLE, seed++, t.isFPType() ? 1.0 : 3.0, shape);
      feed.put(v.name(), t.isFPType() || t == DataType.BOOL ? a : a.castTo(t));
    }
    return feed;
  }

  /** The first 16 bytes in hex. */
  private static String head(byte[] b) {
    return HexFormat.of().formatHex(b, 0, Math.min(16, b.length)) + (b.length > 16 ? "…" : "")
        + " (" + b.length + " bytes)";
  }

  private static List<String> strings(JsonNode arr) {
    List<String> out = new ArrayList<>();
    arr.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static long[] shape(JsonNode n) {
    if (n == null || !n.isArray()) {
      return null;
    }
    long[] s = new long[n.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = n.get(i).asLong();
    }
    return s;
  }

  /** An array file of the mount: its samediff attributes and bytes. */
  record ArrayFile(String dtype, long[] shape, String order, byte[] bytes) {}

  /** What the mount shows of one tag. */
  static final class View {
    final Map<String, JsonNode> variables = new LinkedHashMap<>();
    final Map<String, JsonNode> ops = new LinkedHashMap<>();
    final Map<String, ArrayFile> params = new LinkedHashMap<>();
    final Map<String, ArrayFile> updater = new LinkedHashMap<>();

    static View read(Path model, String tag) throws IOException {
      View v = new View();
      try (FileSystem fs = ModelFileSystems.open(model)) {
        Path root = fs.getPath("/tags/" + tag);
        JsonNode g = JSON.readTree(Files.readAllBytes(root.resolve("graph.json")));
        g.path("variables").forEach(n -> v.variables.put(n.path("name").asText(), n));
        g.path("ops").forEach(n -> v.ops.put(n.path("name").asText(), n));
        files(root.resolve("params"), v.params);
        files(root.resolve("updater"), v.updater);
      }
      return v;
    }

    private static void files(Path dir, Map<String, ArrayFile> into) throws IOException {
      if (!Files.isDirectory(dir)) {
        return;
      }
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) s::iterator) {
          if (!Files.isRegularFile(p)) {
            continue;
          }
          Map<String, Object> a = Files.readAttributes(p, "samediff:*");
          into.put(decode(dir.relativize(p).toString()), new ArrayFile(String.valueOf(a.get("dtype")),
              (long[]) a.get("shape"), String.valueOf(a.get("order")), Files.readAllBytes(p)));
        }
      }
    }
  }

  /** The name a path below {@code params/} stands for (FILESYSTEM.md §2: {@code %XX} are UTF-8 bytes). */
  static String decode(String rel) {
    if (rel.equals("%")) {
      return "";
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] b = rel.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < b.length; i++) {
      if (b[i] == '%' && i + 2 < b.length) {
        out.write(Integer.parseInt(new String(b, i + 1, 2, StandardCharsets.US_ASCII), 16));
        i += 2;
      } else {
        out.write(b[i]);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The canonical path element(s) of a name below {@code params/} (FILESYSTEM.md §2, the plain case). */
  static String encode(String name) {
    return name.isEmpty() ? "%" : name.replace("%", "%25");
  }
}
