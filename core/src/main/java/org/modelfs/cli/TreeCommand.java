package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.tree.ModelTree;

/**
 * {@code tree MODEL [PATH]}: the mounted model's tree below PATH (default the root), with each
 * file's size and array attributes. At the root, after {@code tags/}, the root aliases of the
 * newest tag are shown as such — a listing of {@code /} does not show them (docs/FILESYSTEM.md
 * §1), but they are what a user types. Reads only the index.
 */
final class TreeCommand implements Command {
  @Override
  public String summary() {
    return "Print the tree of a mounted model below PATH (default /).";
  }

  @Override
  public String help() {
    return "Each file with its size and, for arrays, kind, dtype, shape, order and storage; at the root" + "\n"
        + "the aliases of the newest tag are drawn after tags/. --bytes gives exact sizes; --json one JSON" + "\n"
        + "object per entry with its children (docs/CLI.md). Where the locale cannot show box drawing," + "\n"
        + "ASCII is drawn instead." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs tree model.fb /params";
  }

  @Override
  public String usage() {
    return "tree MODEL [PATH] [--bytes] [--json]";
  }

  /** The drawing characters: box drawing, or ASCII where the locale cannot show it. */
  private record Glyphs(String tee, String last, String bar, String arrow) {}

  private static final Glyphs BOX = new Glyphs("├── ", "└── ", "│   ", "→");
  private static final Glyphs ASCII = new Glyphs("|-- ", "`-- ", "|   ", "->");

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("bytes", "json"));
    if (p.positional().isEmpty() || p.positional().size() > 2) {
      throw new Args.UsageException("expected MODEL and an optional PATH");
    }
    try (FileSystem fs = Listing.mount(p.positional().get(0))) {
      Path start = Listing.inside(fs, p.positional().size() > 1 ? p.positional().get(1) : "/");
      Path real = start.toRealPath();
      if (p.flag("json")) {
        out.print(Json.write(json(real, real.getNameCount() == 0)));
        return Main.OK;
      }
      out.println(real);
      if (Files.isDirectory(real)) {
        print(real, "", real.getNameCount() == 0, p.flag("bytes"), Main.canShow("├└│→") ? BOX : ASCII, out);
      }
    }
    return Main.OK;
  }

  /** The entry at {@code p} with its children, recursively; at the root also the aliases. */
  private static Map<String, Object> json(Path p, boolean root) throws Exception {
    Map<String, Object> m = Listing.entry(p);
    if (Files.isDirectory(p)) {
      List<Object> children = new ArrayList<>();
      for (Path c : Listing.children(p)) {
        children.add(json(c, false));
      }
      m.put("children", children);
    }
    if (root) {
      Map<String, Object> aliases = new LinkedHashMap<>();
      Path newest = newestTag(p);
      for (String a : ALIASES) {
        if (newest != null && Files.exists(p.resolve(a))) {
          aliases.put(a, newest.resolve(a).toString());
        }
      }
      m.put("aliases", aliases);
    }
    return m;
  }

  /** The names the root answers to for the newest tag, in a tag's listing order. */
  private static final List<String> ALIASES = List.of(ModelTree.GRAPH, ModelTree.GRAPH_JSON, ModelTree.PARAMS,
      ModelTree.UPDATER, ModelTree.TRAINING, ModelTree.METADATA);

  private static void print(Path dir, String indent, boolean root, boolean bytes, Glyphs g, PrintStream out)
      throws Exception {
    List<Path> children = new ArrayList<>(Listing.children(dir));
    Path newest = root ? newestTag(dir) : null;
    int listed = children.size();
    if (newest != null) {
      for (String a : ALIASES) {
        if (Files.exists(dir.resolve(a))) {
          children.add(dir.resolve(a));
        }
      }
    }
    for (int i = 0; i < children.size(); i++) {
      Path c = children.get(i);
      boolean last = i == children.size() - 1;
      String branch = last ? g.last() : g.tee();
      if (i >= listed) {
        out.println(indent + branch + c.getFileName() + (Files.isDirectory(c) ? "/" : "")
            + "  " + g.arrow() + " " + newest.resolve(c.getFileName().toString()));
        continue;
      }
      out.println(indent + branch + Listing.describe(c, bytes));
      if (Files.isDirectory(c)) {
        print(c, indent + (last ? "    " : g.bar()), false, bytes, g, out);
      }
    }
  }

  /** The newest tag's directory: the last one listed under {@code tags/}. */
  private static Path newestTag(Path root) throws Exception {
    Path tags = root.resolve("tags");
    if (!Files.isDirectory(tags)) {
      return null;
    }
    List<Path> all = Listing.children(tags);
    return all.isEmpty() ? null : all.get(all.size() - 1);
  }
}
