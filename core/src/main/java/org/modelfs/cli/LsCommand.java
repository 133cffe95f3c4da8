package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code ls MODEL PATH}: one line per entry of the directory PATH of the mounted model (or the
 * one line of a file): name, size, and for arrays kind, dtype, shape, order and storage.
 */
final class LsCommand implements Command {
  @Override
  public String summary() {
    return "List one directory of a model (or describe one file).";
  }

  @Override
  public String help() {
    return "One line per entry of PATH (default /): name, size and, for arrays, kind, dtype, shape, order," + "\n"
        + "storage. --bytes gives exact sizes; --json one JSON array of entries (docs/CLI.md)." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs ls model.sdz /tags/default/params";
  }

  @Override
  public String usage() {
    return "ls MODEL [PATH] [--bytes] [--json]";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("bytes", "json"));
    if (p.positional().isEmpty() || p.positional().size() > 2) {
      throw new Args.UsageException("expected MODEL and an optional PATH");
    }
    try (FileSystem fs = Listing.mount(p.positional().get(0))) {
      Path path = Listing.inside(fs, p.positional().size() > 1 ? p.positional().get(1) : "/");
      List<Path> entries = Files.isDirectory(path) ? Listing.children(path) : List.of(path);
      if (p.flag("json")) {
        List<Object> list = new ArrayList<>();
        for (Path c : entries) {
          list.add(Listing.entry(c));
        }
        out.print(Json.write(list));
        return Main.OK;
      }
      for (Path c : entries) {
        out.println(Listing.describe(c, p.flag("bytes")));
      }
    }
    return Main.OK;
  }
}
