package org.modelfs.cli;

import org.modelfs.format.Codecs;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.modelfs.tree.NameMapping;

/**
 * {@code meta get MODEL [KEY]}, {@code meta set MODEL KEY VALUE}, {@code meta rm MODEL KEY}: the
 * model's metadata through its {@code /metadata/<key>} files; {@code set} and {@code rm} commit.
 */
final class MetaCommand implements Command {
  @Override
  public String summary() {
    return "Get, set or remove metadata keys of a model's newest tag.";
  }

  @Override
  public String help() {
    String none = Codecs.list(f -> !f.sharded() && !Codecs.of(f).keepsMetadata(), "and");
    return "meta get MODEL (every key) | meta get MODEL KEY | meta set MODEL KEY VALUE | meta rm MODEL KEY." + "\n"
        + none + (none.contains(" ") ? " hold" : " holds") + " no metadata; use "
        + Codecs.list(f -> !f.sharded() && Codecs.of(f).keepsMetadata(), "or") + "." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs meta set model.sdz author alice";
  }

  @Override
  public String usage() {
    return "meta get MODEL [KEY] | meta set MODEL KEY VALUE | meta rm MODEL KEY";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of());
    List<String> a = p.positional();
    String verb = a.isEmpty() ? "" : a.get(0);
    switch (verb) {
      case "get" -> {
        if (a.size() != 2 && a.size() != 3) {
          throw new Args.UsageException("expected get MODEL [KEY]");
        }
        try (FileSystem fs = Listing.mount(a.get(1))) {
          if (a.size() == 3) {
            Path f = file(fs, a.get(2));
            if (!Files.isRegularFile(f)) {
              throw new FileSystemException(a.get(1), null, "no metadata key '" + a.get(2) + "'");
            }
            out.println(Files.readString(f, StandardCharsets.UTF_8));
          } else {
            Path dir = fs.getPath("/metadata");
            try (Stream<Path> s = Files.walk(dir)) {
              for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                List<String> segments = new ArrayList<>();
                dir.relativize(f).forEach(n -> segments.add(n.toString()));
                out.println(NameMapping.name(segments) + " = " + Files.readString(f, StandardCharsets.UTF_8));
              }
            }
          }
        }
      }
      case "set" -> {
        if (a.size() != 4) {
          throw new Args.UsageException("expected set MODEL KEY VALUE");
        }
        CpCommand.edit(p.progress("commit", 0), a.get(1), fs -> Files.writeString(file(fs, a.get(2)), a.get(3), StandardCharsets.UTF_8));
      }
      case "rm" -> {
        if (a.size() != 3) {
          throw new Args.UsageException("expected rm MODEL KEY");
        }
        CpCommand.edit(p.progress("commit", 0), a.get(1), fs -> {
          if (!Files.isRegularFile(file(fs, a.get(2)))) {
            throw new FileSystemException(a.get(1), null, "no metadata key '" + a.get(2) + "'");
          }
          Files.delete(file(fs, a.get(2)));
        });
      }
      default -> throw new Args.UsageException("expected get, set or rm");
    }
    return Main.OK;
  }

  /** The file of one key: a single segment, so a {@code /} in the key is part of the name. */
  private static Path file(FileSystem fs, String key) {
    return fs.getPath("/metadata", NameMapping.oneSegment(key));
  }
}
