package org.modelfs.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.modelfs.format.JsonString;
import org.modelfs.tree.ModelTree;

/**
 * {@code graph MODEL[#TAG] [--json]}: a tag's graph (the newest without {@code #TAG}). With
 * {@code --json} the tag's {@code graph.json} exactly as the read-only mount has it; without, a
 * summary read from that graph.json as it streams — one line per op, {@code <name>
 * <opName>(<args>)  <inputs> -> <outputs>}, then the placeholders, loss variables and outputs.
 * Only one op is held at a time, and of it only the fields shown, each list cut to
 * {@link #MAX_VALUES} values. Editing is {@code graph --json}, an editor and {@code cp} back
 * (docs/CLI.md, "graph"); this command never writes.
 */
final class GraphCommand implements Command {
  /** Values of one argument list shown before the rest is counted ({@code … (N more)}). */
  static final int MAX_VALUES = 16;
  /** Names of one list (an op's inputs or outputs, the placeholders, …) shown before the rest is counted. */
  static final int MAX_NAMES = 1000;
  /** The name lists of an op. */
  private static final Set<String> NAME_LISTS = Set.of("inputs", "outputs");
  /** The argument lists of an op in graph.json (docs/GRAPH.md), in the order shown. */
  private static final List<String> ARG_LISTS = List.of("iArgs", "tArgs", "bArgs", "dArgs", "sArgs", "dimensions");
  /** The op fields the summary shows. */
  private static final Set<String> SHOWN = Set.of("name", "opName", "inputs", "outputs", "iArgs", "tArgs", "bArgs",
      "dArgs", "sArgs", "dimensions", "scalar");
  /** Strings shown without quotes: names, data types, {@code NaN}. */
  private static final Pattern BARE = Pattern.compile("[A-Za-z0-9_./:+-]+");

  @Override
  public String summary() {
    return "Show a tag's graph: one line per op, or graph.json itself (--json).";
  }

  @Override
  public String help() {
    return "MODEL#TAG picks a tag (any case); without it the newest. One line per op: its name, opName with its" + "\n"
        + "arguments (name=value where the op descriptors name them, the list's values [a, b] where they are" + "\n"
        + "positional; a legacy scalar op's scalar=v), its inputs -> outputs; then the placeholders, loss variables" + "\n"
        + "and outputs. --json prints the tag's graph.json as the mount shows it (docs/GRAPH.md). To edit the graph," + "\n"
        + "change that file and copy it back with cp (docs/CLI.md, \"graph\")." + "\n"
        + "" + "\n"
        + "examples:" + "\n"
        + "  modelfs graph model.fb" + "\n"
        + "  modelfs graph model.sdz#v2 --json > g.json" + "\n"
        + "  modelfs cp g.json model.sdz:/tags/v2/graph.json";
  }

  @Override
  public String usage() {
    return "graph MODEL[#TAG] [--json]";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("json"));
    p.expectPositionals(1);
    DiffCommand.Ref ref = DiffCommand.Ref.parse(p.positional().get(0));
    try (FileSystem fs = Listing.mount(ref.model())) {
      Path file = ref.tagDir(fs).resolve(ModelTree.GRAPH_JSON);
      if (!Files.isRegularFile(file)) {
        throw new NoSuchFileException(ref.model(), null, "tag " + file.getParent().getFileName() + " has no "
            + ModelTree.GRAPH_JSON);
      }
      if (p.flag("json")) {
        Files.copy(file, out);
        out.flush();
        return Main.OK;
      }
      String name = ref.model() + ":" + file;
      try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file),
          StandardCharsets.UTF_8.newDecoder()), 1 << 16)) {
        summarize(new JsonStream(r, name), out);
      }
      out.flush();
    }
    return Main.OK;
  }

  /** Reads graph.json from {@code json} and prints the summary as it goes. */
  static void summarize(JsonStream json, PrintStream out) throws IOException {
    Map<String, String> lists = new LinkedHashMap<>();
    json.beginObject();
    for (String key = json.nextKey(); key != null; key = json.nextKey()) {
      switch (key) {
        case "ops" -> {
          json.beginArray();
          while (json.nextElement()) {
            out.println(op(json));
          }
        }
        case "placeholders", "lossVariables", "outputs" -> lists.put(key, names(json));
        default -> json.skip();
      }
    }
    json.end();
    out.println("placeholders: " + lists.getOrDefault("placeholders", "(none)"));
    out.println("loss variables: " + lists.getOrDefault("lossVariables", "(none)"));
    out.println("outputs: " + lists.getOrDefault("outputs", "(none)"));
  }

  /** One op's line, from the op object at the reader (the fields not shown are skipped). */
  private static String op(JsonStream json) throws IOException {
    Map<String, Object> op = new LinkedHashMap<>();
    json.beginObject();
    for (String key = json.nextKey(); key != null; key = json.nextKey()) {
      if (SHOWN.contains(key)) {
        op.put(key, json.value(NAME_LISTS.contains(key) ? MAX_NAMES : MAX_VALUES));
      } else {
        json.skip();
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(show(op.get("name"))).append("  ").append(show(op.get("opName"))).append('(');
    int shown = 0;
    for (String list : ARG_LISTS) {
      Object v = op.get(list);
      if (v instanceof Map<?, ?> named) {
        for (Map.Entry<?, ?> e : named.entrySet()) {
          sb.append(shown++ > 0 ? ", " : "").append(e.getKey()).append('=').append(show(e.getValue()));
        }
      } else if (v instanceof List<?> l && !l.isEmpty()) {
        sb.append(shown++ > 0 ? ", " : "").append(list).append('=').append(show(v));
      }
    }
    if (op.get("scalar") instanceof Map<?, ?> scalar) {
      Object values = scalar.get("values");
      sb.append(shown > 0 ? ", " : "").append("scalar=")
          .append(show(values instanceof List<?> l && l.size() == 1 ? l.get(0) : values));
    }
    sb.append(")  ");
    joined(op.get("inputs"), sb);
    sb.append(" -> ");
    joined(op.get("outputs"), sb);
    return sb.toString();
  }

  /** A list of names at the reader, comma-separated ({@code (none)} when empty), at most {@link #MAX_NAMES} shown. */
  private static String names(JsonStream json) throws IOException {
    StringBuilder sb = new StringBuilder();
    joined(json.value(MAX_NAMES), sb);
    return sb.length() == 0 ? "(none)" : sb.toString();
  }

  private static void joined(Object list, StringBuilder sb) {
    if (list instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        sb.append(i > 0 ? ", " : "").append(show(l.get(i)));
      }
    } else if (list != null) {
      sb.append(show(list));
    }
  }

  /**
   * A value as the summary shows it: numbers as graph.json writes them, strings bare when they
   * are a plain word (names, data types, {@code NaN}) and in JSON quotes otherwise, lists
   * {@code [a, b]}, objects {@code {k=v}}.
   */
  static String show(Object v) {
    if (v instanceof String s) {
      return BARE.matcher(s).matches() ? s : JsonString.quote(s);
    }
    if (v instanceof List<?> l) {
      StringBuilder sb = new StringBuilder("[");
      joined(l, sb);
      return sb.append(']').toString();
    }
    if (v instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("{");
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(i++ > 0 ? ", " : "").append(e.getKey()).append('=').append(show(e.getValue()));
      }
      return sb.append('}').toString();
    }
    return String.valueOf(v);
  }
}
