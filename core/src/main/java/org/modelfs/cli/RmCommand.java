package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code rm MODEL PATH...}: deletes files of the model (parameters, updater state, metadata
 * keys, training.json) and commits them at once; when one fails, nothing is changed.
 */
final class RmCommand implements Command {
  @Override
  public String summary() {
    return "Delete files or empty directories of a model and commit.";
  }

  @Override
  public String help() {
    return "Deletes each PATH in one change and commits it. A parameter that ops use is refused (the" + "\n"
        + "message names them) unless the change also writes a new one." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs rm model.sdz /metadata/note";
  }

  @Override
  public String usage() {
    return "rm MODEL PATH...";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of());
    if (p.positional().size() < 2) {
      throw new Args.UsageException("expected MODEL and at least one PATH");
    }
    List<String> paths = p.positional().subList(1, p.positional().size());
    CpCommand.edit(p.progress("commit", 0), p.positional().get(0), fs -> {
      for (String path : paths) {
        Path file = Listing.inside(fs, path);
        if (Files.isDirectory(file)) {
          throw new FileSystemException(file.toString(), null, "is a directory; rm deletes files");
        }
        Files.delete(file);
      }
    });
    return Main.OK;
  }
}
