package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import org.modelfs.store.OutputFile;
import org.modelfs.view.Page;

/**
 * {@code view MODEL[#TAG] [B] [-o FILE] [--json]}: one self-contained HTML page (docs/VIEW.md)
 * with the tag's graph and every array's statistics, or with two tags compared
 * ({@code view A B}, {@code view MODEL#v1..v2}); {@code --json} gives the same facts. The page
 * goes to {@code -o FILE}, else {@code <model file name>.html} in the current directory; the
 * JSON to {@code -o FILE}, else standard output. Either file is written by
 * {@link OutputFile}'s rule, as {@code cp} writes.
 */
final class ViewCommand implements Command {
  @Override
  public String summary() {
    return "Write one offline HTML page of a tag's graph and weights, or of two tags compared.";
  }

  @Override
  public String help() {
    return "The page (docs/VIEW.md) draws the graph grouped by name scope (click a group to expand it, an op for" + "\n"
        + "its arguments, a variable for its array's statistics and histogram) and lists every parameter and" + "\n"
        + "updater array: dtype, shape, min/max/mean/std, zeros, NaN, Inf, a histogram (arrays above 4 Mi elements" + "\n"
        + "sampled, and the page says so). Two models or tags (A B, or MODEL#v1..v2): the arrays changed, their" + "\n"
        + "relative change per array and per name scope, the ops added, removed or changed. It is written to" + "\n"
        + "-o FILE, else to <model file name>.html here; --json prints the same facts (or writes them to -o FILE)." + "\n"
        + "" + "\n"
        + "examples:" + "\n"
        + "  modelfs view model.fb" + "\n"
        + "  modelfs view model.sdz#v1..v2 -o changes.html" + "\n"
        + "  modelfs view a.fb b.fb --json > changes.json";
  }

  @Override
  public String usage() {
    return "view MODEL[#TAG] [B] [-o FILE] [--json]   (B: MODEL or MODEL#TAG to compare with; or MODEL#T1..T2)";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of("output"), Set.of("json"));
    List<String> pos = new ArrayList<>(p.positional());
    String output = p.option("output");
    int o = pos.indexOf("-o");
    if (o >= 0) {
      if (o + 1 >= pos.size()) {
        throw new Args.UsageException("-o needs a file name");
      }
      output = pos.get(o + 1);
      pos.subList(o, o + 2).clear();
    }
    if (pos.isEmpty() || pos.size() > 2) {
      throw new Args.UsageException("expected MODEL[#TAG] and optionally a second MODEL[#TAG] to compare with, got "
          + pos.size() + " argument(s)");
    }
    List<DiffCommand.Ref> refs = refs(pos);
    Map<String, Object> doc = facts(refs, total -> p.progress("view: array statistics", total),
        total -> p.progress("view: deltas", total));
    boolean json = p.flag("json");
    String text = json ? Json.write(doc) : Page.html(title(refs), Json.write(doc));
    if (json && output == null) {
      out.print(text);
      return Main.OK;
    }
    Path file = PathArgs.path(output != null ? output : Path.of(refs.get(0).model()).getFileName() + ".html");
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    OutputFile.write(file, ch -> {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (b.hasRemaining()) {
        ch.write(b);
      }
    });
    out.println("wrote " + file);
    return Main.OK;
  }

  /** The one or two tags the positionals name; {@code MODEL#T1..T2} (when the model has no tag of that name) is two. */
  private static List<DiffCommand.Ref> refs(List<String> pos) throws Exception {
    List<DiffCommand.Ref> refs = new ArrayList<>();
    for (String a : pos) {
      refs.add(DiffCommand.Ref.parse(a));
    }
    DiffCommand.Ref r = refs.get(0);
    if (refs.size() == 1 && r.tag() != null && r.tag().contains("..")) {
      try (FileSystem fs = Listing.mount(r.model())) {
        if (!TagArrays.names(fs).stream().anyMatch(t -> t.equalsIgnoreCase(r.tag()))) {
          int dots = r.tag().indexOf("..");
          return List.of(new DiffCommand.Ref(r.model(), r.tag().substring(0, dots)),
              new DiffCommand.Ref(r.model(), r.tag().substring(dots + 2)));
        }
      }
    }
    return refs;
  }

  private static String title(List<DiffCommand.Ref> refs) {
    StringBuilder sb = new StringBuilder();
    for (DiffCommand.Ref r : refs) {
      sb.append(sb.length() > 0 ? " vs " : "").append(Path.of(r.model()).getFileName())
          .append(r.tag() == null ? "" : "#" + r.tag());
    }
    return sb.toString();
  }

  /** The document: {@code a} (and {@code b} and {@code compare} for two tags). */
  static Map<String, Object> facts(List<DiffCommand.Ref> refs, LongFunction<Progress> progress,
      LongFunction<Progress> deltaProgress) throws Exception {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("modelfsView", 1L);
    DiffCommand.Ref a = refs.get(0);
    try (FileSystem fa = Listing.mount(a.model())) {
      Map<String, Path> filesA = new HashMap<>();
      Map<String, Object> factsA = ViewFacts.of(a.model(), a.tagDir(fa), filesA, progress);
      doc.put("a", factsA);
      if (refs.size() == 2) {
        DiffCommand.Ref b = refs.get(1);
        try (FileSystem own = CpCommand.sameModel(a.model(), b.model()) ? null : Listing.mount(b.model())) {
          FileSystem fb = own == null ? fa : own;
          Map<String, Path> filesB = new HashMap<>();
          Map<String, Object> factsB = ViewFacts.of(b.model(), b.tagDir(fb), filesB, progress);
          doc.put("b", factsB);
          doc.put("compare", ViewCompare.of(factsA, filesA, factsB, filesB, deltaProgress));
        }
      }
    }
    return doc;
  }
}
