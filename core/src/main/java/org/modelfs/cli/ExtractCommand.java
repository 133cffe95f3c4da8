package org.modelfs.cli;

import org.modelfs.format.Codecs;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;

/**
 * {@code extract MODEL TAG OUT [--format F]}: one tag of a model as a model of its own (its one
 * tag is then {@code default}), in the format of {@code --format} or OUT's extension.
 */
final class ExtractCommand implements Command {
  @Override
  public String summary() {
    return "Write one tag of a model as a model of its own.";
  }

  @Override
  public String help() {
    return "Writes tag TAG of MODEL to OUT, in the format OUT's name says or --format." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs extract model.sdz best best.fb";
  }

  @Override
  public String usage() {
    return "extract MODEL TAG OUT [--format " + Codecs.tokens("|") + "]";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of("format"), Set.of());
    p.expectPositionals(3);
    Path target = PathArgs.path(p.positional().get(2));
    ModelFormat format = p.option("format") != null ? Codecs.fromToken(p.option("format"))
        : Codecs.fromFileName(String.valueOf(target.getFileName()));
    if (format == null) {
      throw new Args.UsageException("say --format, or name OUT " + Codecs.extensions());
    }
    try (Model m = ModelFiles.open(PathArgs.path(p.positional().get(0)))) {
      Tag t = m.tag(p.positional().get(1));
      if (t == null) {
        throw new NoSuchFileException(p.positional().get(0) + ": no tag '" + p.positional().get(1) + "'");
      }
      Tag alone = new Tag(Models.DEFAULT_TAG, t.graph(), t.variables(), t.updater(), t.trainingConfig(), t.metadata());
      ModelFiles.write(alone, target, WriteOptions.of(format));
      err.println("extracted tag " + t.name() + " of " + m.location() + " to " + PathArgs.shown(target) + " (" + format.token() + ")");
    }
    return Main.OK;
  }
}
