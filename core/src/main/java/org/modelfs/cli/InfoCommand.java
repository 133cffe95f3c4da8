package org.modelfs.cli;

import org.modelfs.store.ModelFiles;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * {@code info MODEL}: the format, the tags, and every stored array (parameters and updater
 * state) with kind, dtype, shape, byte size and how it is stored. Reads only the index.
 */
final class InfoCommand implements Command {
  @Override
  public String summary() {
    return "Show a model's format, tags, and counts of parameters and bytes (reads the index only).";
  }

  @Override
  public String help() {
    return "Prints the container's format, its files, each tag with its numbers of parameters, updater" + "\n"
        + "arrays and metadata keys, and the byte totals. Nothing but the index is read." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs info model.sdz";
  }

  @Override
  public String usage() {
    return "info MODEL [--json]";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("json"));
    p.expectPositionals(1);
    try (Model m = ModelFiles.open(PathArgs.path(p.positional().get(0)))) {
      if (p.flag("json")) {
        out.print(Json.write(json(m)));
        return Main.OK;
      }
      out.println("model:  " + m.location());
      out.println("format: " + m.format().token());
      out.print("tags:  ");
      for (Tag t : m.tags()) {
        out.print(" " + t.name());
      }
      out.println("   (newest: " + m.newest().name() + ")");
      for (Tag t : m.tags()) {
        print(t, out);
      }
    }
    return Main.OK;
  }

  /** The {@code --json} document (docs/CLI.md). */
  private static Map<String, Object> json(Model m) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("model", m.location());
    doc.put("format", m.format().token());
    List<Object> tags = new ArrayList<>();
    for (Tag t : m.tags()) {
      Map<String, Object> tag = new LinkedHashMap<>();
      tag.put("name", t.name());
      tag.put("newest", t == m.newest());
      tag.put("variables", (long) t.variables().size());
      List<Object> arrays = new ArrayList<>();
      long total = 0;
      for (Variable v : t.variables()) {
        if (v.array() != null) {
          arrays.add(array(v.kind().name(), v.name(), null, v.array()));
          total += v.array().length();
        }
      }
      for (UpdaterState u : t.updater()) {
        for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
          arrays.add(array("UPDATER", u.paramName(), e.getKey(), e.getValue()));
          total += e.getValue().length();
        }
      }
      tag.put("arrays", arrays);
      tag.put("arrayBytes", total);
      tag.put("trainingConfig", t.trainingConfig() != null);
      tag.put("metadata", new LinkedHashMap<String, Object>(t.metadata()));
      tags.add(tag);
    }
    doc.put("tags", tags);
    return doc;
  }

  private static Map<String, Object> array(String kind, String name, String key, ArrayData a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", kind);
    m.put("name", name);
    if (key != null) {
      m.put("key", key);
    }
    m.put("dtype", a.dtype().nd4jName());
    m.put("shape", Json.longs(a.shape()));
    m.put("order", String.valueOf(a.order()));
    m.put("bytes", a.length());
    m.put("stored", a.storage().label());
    return m;
  }

  private static void print(Tag t, PrintStream out) {
    out.println();
    out.println("tag " + t.name() + ": " + t.variables().size() + " variables, "
        + t.arrays().size() + " stored arrays, " + t.updater().size() + " with updater state");
    out.printf("  %-11s %-8s %-16s %12s  %-10s %s%n", "KIND", "DTYPE", "SHAPE", "BYTES", "STORED", "NAME");
    long total = 0;
    for (Variable v : t.variables()) {
      if (v.array() != null) {
        total += row(v.kind().name(), v.name(), v.array(), out);
      }
    }
    for (UpdaterState u : t.updater()) {
      for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
        total += row("UPDATER", u.paramName() + "/" + e.getKey(), e.getValue(), out);
      }
    }
    out.println("  total array bytes: " + total);
    if (t.trainingConfig() != null) {
      out.println("  training.json: " + t.trainingConfig().length() + " characters");
    }
    for (Map.Entry<String, String> e : t.metadata().entrySet()) {
      out.println("  metadata " + e.getKey() + " = " + e.getValue());
    }
  }

  private static long row(String kind, String name, ArrayData a, PrintStream out) {
    String shape = Arrays.toString(a.shape()) + (a.order() == 'f' ? " f" : "") + (a.empty() ? " empty" : "");
    out.printf("  %-11s %-8s %-16s %12d  %-10s %s%n", kind, a.dtype().nd4jName(), shape, a.length(),
        a.storage().label(), name);
    return a.length();
  }
}
