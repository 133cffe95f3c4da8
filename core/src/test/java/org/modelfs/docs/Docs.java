package org.modelfs.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The pages a user reads (README.md, examples/README.md, docs/*.md) and what they tell the user
 * to type: every line of a fenced {@code bash}/{@code sh}/{@code shell}/{@code console} block, and
 * every {@code $ } line of any fenced block, with the output the page shows after it. The doc
 * tests run from the repository's root (the surefire execution "examples" of core/pom.xml).
 */
final class Docs {
  private Docs() {}

  /** The languages of a fenced block whose lines are commands. */
  private static final List<String> SHELLS = List.of("bash", "sh", "shell", "console");
  private static final Pattern FENCE = Pattern.compile("^\\s*```\\s*(\\S*)\\s*$");

  /** One page: its path from the repository's root and its lines. */
  record Page(Path path, List<String> lines) {
    String where(int line) {
      return path + ":" + line;
    }

    /** The page's text, lines joined with '\n'. */
    String text() {
      return String.join("\n", lines);
    }
  }

  /** A fenced block: the page, the line of its opening fence (1-based), its language and lines. */
  record Block(Page page, int line, String lang, List<String> lines) {}

  /**
   * A command a page tells the user to type: the page and line, the text (continuations
   * joined, the {@code $ } prompt and a trailing comment removed), the block it is in, and the
   * output the page shows for it ({@code null} when it shows none).
   */
  record Command(Page page, int line, String text, Block block, List<String> output) {
    String where() {
      return page.where(line);
    }
  }

  /** README.md, examples/README.md and docs/*.md, from the repository's root (the working directory). */
  static List<Page> pages() {
    List<Path> paths = new ArrayList<>(List.of(Path.of("README.md"), Path.of("examples", "README.md")));
    try (Stream<Path> s = Files.list(Path.of("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(paths::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Page> pages = new ArrayList<>();
    for (Path p : paths) {
      try {
        pages.add(new Page(p, Files.readAllLines(p)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return pages;
  }

  /** The fenced blocks of a page, in order. */
  static List<Block> blocks(Page page) {
    List<Block> blocks = new ArrayList<>();
    List<String> lines = page.lines();
    for (int i = 0; i < lines.size(); i++) {
      Matcher open = FENCE.matcher(lines.get(i));
      if (!open.matches()) {
        continue;
      }
      int start = i;
      List<String> body = new ArrayList<>();
      for (i++; i < lines.size() && !FENCE.matcher(lines.get(i)).matches(); i++) {
        body.add(lines.get(i));
      }
      int indent = lines.get(start).indexOf('`');
      blocks.add(new Block(page, start + 1, open.group(1), body.stream()
          .map(l -> l.length() >= indent && l.substring(0, indent).isBlank() ? l.substring(indent) : l).toList()));
    }
    return blocks;
  }

  /** The heading a block is under ("## From the shell and Python"; "" before any), fenced lines not taken for headings. */
  static String heading(Block b) {
    String heading = "";
    boolean fenced = false;
    for (String l : b.page().lines().subList(0, b.line() - 1)) {
      if (FENCE.matcher(l).matches()) {
        fenced = !fenced;
      } else if (!fenced && l.matches("#{1,6} .*")) {
        heading = l.strip();
      }
    }
    return heading;
  }

  /** The commands of every page, in page order. */
  static List<Command> commands(List<Page> pages) {
    List<Command> all = new ArrayList<>();
    for (Page page : pages) {
      for (Block b : blocks(page)) {
        all.addAll(commands(b));
      }
    }
    return all;
  }

  /**
   * A block's commands: its {@code $ } lines, each with the lines up to the next one as its
   * output; in a shell block without prompts every line (a trailing {@code \} joins the next).
   */
  static List<Command> commands(Block b) {
    List<Command> out = new ArrayList<>();
    boolean prompts = b.lines().stream().anyMatch(l -> l.startsWith("$ "));
    List<String> lines = b.lines();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      int line = b.line() + 1 + i;
      if (prompts) {
        if (!l.startsWith("$ ")) {
          continue;
        }
        List<String> shown = new ArrayList<>();
        int j = i + 1;
        for (; j < lines.size() && !lines.get(j).startsWith("$ "); j++) {
          shown.add(lines.get(j));
        }
        out.add(new Command(b.page(), line, Shell.withoutComment(l.substring(2)).strip(), b, shown));
      } else if (SHELLS.contains(b.lang())) {
        StringBuilder text = new StringBuilder(l);
        while (text.toString().endsWith("\\") && i + 1 < lines.size()) {
          String joined = text.substring(0, text.length() - 1).stripTrailing();
          text.setLength(0);
          text.append(joined).append(' ').append(lines.get(++i).strip());
        }
        String t = Shell.withoutComment(text.toString()).strip();
        if (!t.isEmpty()) {
          out.add(new Command(b.page(), line, t, b, null));
        }
      }
    }
    return out;
  }
}
