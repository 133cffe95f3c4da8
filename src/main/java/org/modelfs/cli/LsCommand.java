package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
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
    return "One line per entry: name, size and, for arrays, kind, dtype, shape, order, storage." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs ls model.sdz /tags/default/params";
  }

  @Override
  public String usage() {
    return "ls MODEL PATH";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of());
    p.expectPositionals(2);
    try (FileSystem fs = Listing.mount(p.positional().get(0))) {
      Path path = Listing.inside(fs, p.positional().get(1));
      if (!Files.isDirectory(path)) {
        out.println(Listing.describe(path));
        return Main.OK;
      }
      for (Path c : Listing.children(path)) {
        out.println(Listing.describe(c));
      }
    }
    return Main.OK;
  }
}
