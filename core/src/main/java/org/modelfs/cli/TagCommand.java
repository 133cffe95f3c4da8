package org.modelfs.cli;

import org.modelfs.format.Codecs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.model.ModelFormat;

/**
 * {@code tag list|add|rm|mv}: the tags of a model through its {@code tags/} directory.
 * {@code add NAME [--from TAG]} clones a tag (the newest by default) into a new newest tag;
 * only SDZ, zip-tags and the container hold several tags ({@code ModelFormat.holdsTags()}), so a commit into
 * another format fails with that reason.
 */
final class TagCommand implements Command {
  @Override
  public String summary() {
    return "List, add (clone), remove or rename the tags of a model.";
  }

  @Override
  public String help() {
    return "tag list MODEL [--json] (oldest first: the last is the newest) | tag add MODEL NAME [--from TAG]" + "\n"
        + "(a clone of the newest tag, or of TAG) | tag rm MODEL NAME | tag mv MODEL OLD NEW." + "\n"
        + Codecs.list(f -> !f.holdsTags(), "and") + " hold one tag; " + Codecs.list(ModelFormat::holdsTags, "and")
        + " hold any number." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs tag add model.sdz best";
  }

  @Override
  public String usage() {
    return "tag list MODEL [--json] | tag add MODEL NAME [--from TAG] | tag rm MODEL NAME | tag mv MODEL OLD NEW";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of("from"), Set.of("json"));
    List<String> a = p.positional();
    if (a.isEmpty()) {
      throw new Args.UsageException("expected list, add, rm or mv");
    }
    switch (a.get(0)) {
      case "list" -> {
        need(a, 2);
        try (FileSystem fs = Listing.mount(a.get(1))) {
          List<Path> tags = Listing.children(fs.getPath("/tags"));
          if (p.flag("json")) {
            List<Object> list = new ArrayList<>();
            for (int i = 0; i < tags.size(); i++) {
              Map<String, Object> t = new LinkedHashMap<>();
              t.put("name", tags.get(i).getFileName().toString());
              t.put("newest", i == tags.size() - 1);
              list.add(t);
            }
            out.print(Json.write(Map.of("tags", list)));
          } else {
            for (Path t : tags) {
              out.println(t.getFileName()); // oldest first: the last line is the newest tag
            }
          }
        }
      }
      case "add" -> {
        need(a, 3);
        CpCommand.edit(p.progress("commit", 0), a.get(1), fs -> {
          List<Path> tags = Listing.children(fs.getPath("/tags"));
          Path from = p.option("from") != null ? TagArrays.tag(fs, a.get(1), TagArrays.name(a.get(1), p.option("from")))
              : tags.get(tags.size() - 1);
          Path to = fs.getPath("/tags", TagArrays.name(a.get(1), a.get(2)));
          Files.createDirectory(to);
          copyTree(from, to);
        });
      }
      case "rm" -> {
        need(a, 3);
        TagArrays.name(a.get(1), a.get(2));
        CpCommand.edit(p.progress("commit", 0), a.get(1), fs -> Files.delete(TagArrays.tag(fs, a.get(1), a.get(2))));
      }
      case "mv" -> {
        need(a, 4);
        TagArrays.name(a.get(1), a.get(2));
        TagArrays.name(a.get(1), a.get(3));
        CpCommand.edit(p.progress("commit", 0), a.get(1),
            fs -> Files.move(TagArrays.tag(fs, a.get(1), a.get(2)), fs.getPath("/tags", a.get(3))));
      }
      default -> throw new Args.UsageException("unknown tag command '" + a.get(0) + "'");
    }
    return Main.OK;
  }

  private static void need(List<String> a, int n) throws Args.UsageException {
    if (a.size() != n) {
      throw new Args.UsageException("tag " + a.get(0) + " expects " + (n - 1) + " argument(s)");
    }
  }

  /**
   * Copies every file of tag directory {@code from} into the new, empty tag {@code to} (the same
   * paths below it), without replacing anything: a new tag is empty (docs/FILESYSTEM.md §7.1).
   */
  static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        Files.createDirectories(to.resolve(from.relativize(dir).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.copy(file, to.resolve(from.relativize(file).toString()));
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
