package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * {@code cat MODEL PATH}: the raw bytes of one file of the mounted model to standard output
 * (a parameter's little-endian elements, a metadata value, graph.json), streamed.
 */
final class CatCommand implements Command {
  @Override
  public String summary() {
    return "Write one file of a model to stdout (raw bytes).";
  }

  @Override
  public String help() {
    return "Arrays come out as little-endian elements in their stored order; graph.json, training.json" + "\n"
        + "and metadata as UTF-8 text." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs cat model.fb /graph.json";
  }

  @Override
  public String usage() {
    return "cat MODEL PATH";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of());
    p.expectPositionals(2);
    try (FileSystem fs = Listing.mount(p.positional().get(0))) {
      Path path = Listing.inside(fs, p.positional().get(1));
      if (Files.isDirectory(path)) {
        throw new FileSystemException(path.toString(), null, "is a directory");
      }
      Files.copy(path, out);
      out.flush();
    }
    return Main.OK;
  }
}
