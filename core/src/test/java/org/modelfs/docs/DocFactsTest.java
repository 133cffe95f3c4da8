package org.modelfs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.modelfs.cli.Main;
import org.modelfs.model.ModelFormat;

/**
 * What README.md, examples/README.md and docs/*.md state about the repository and the code,
 * checked against them: every repository path they cite exists, every jar path is the one the
 * build writes, the README's command list is the CLI's, the formats said to hold several tags
 * are {@link ModelFormat#holdsTags}'s, every help text lists the formats the command writes, and
 * the sizes given of files in the repository are theirs.
 */
class DocFactsTest {
  /** A path from the repository's root (or from the page's directory) as the pages cite them. */
  private static final Pattern REPO_PATH = Pattern.compile(
      "(?<![\\w/.:-])((?:core|s3|examples|docs|scripts|schemas|src|\\.ci|\\.mvn)/[\\w./<>*…-]*[\\w>*…/])");
  private static final Pattern LINK = Pattern.compile("\\]\\(([\\w./-]+\\.md)(?:#[\\w-]*)?\\)");

  @BeforeAll
  static void fromTheRepositoryRoot() {
    org.junit.jupiter.api.Assumptions.assumeTrue("from-root".equals(System.getProperty("modelfs.examples")),
        "runs in the surefire execution 'examples', from the repository's root");
  }

  @Test
  void everyCitedRepositoryPathExists() throws IOException {
    List<String> missing = new ArrayList<>();
    for (Docs.Page page : Docs.pages()) {
      for (int i = 0; i < page.lines().size(); i++) {
        String line = page.lines().get(i);
        Matcher m = REPO_PATH.matcher(line);
        while (m.find()) {
          String p = m.group(1);
          if (!p.contains("/target/") && !exists(p, page)) {
            missing.add(page.where(i + 1) + ": " + p);
          }
        }
        Matcher link = LINK.matcher(line);
        while (link.find()) {
          if (!Files.exists(page.path().resolveSibling(link.group(1)))) {
            missing.add(page.where(i + 1) + ": link " + link.group(1));
          }
        }
      }
    }
    assertEquals(List.of(), missing, "paths the pages cite that the repository does not hold");
  }

  /** {@code p} from the root or the page's directory; {@code <x>}, {@code …} and {@code *} stand for any name. */
  private static boolean exists(String p, Docs.Page page) throws IOException {
    Path dir = page.path().getParent() == null ? Path.of("") : page.path().getParent();
    for (Path base : List.of(Path.of(""), dir)) {
      if (!p.matches(".*[<*…].*")) {
        if (Files.exists(base.resolve(p))) {
          return true;
        }
        continue;
      }
      String glob = p.replaceAll("<[^>]*>|…", "**").replaceAll("/$", "");
      Path top = base.resolve(glob.substring(0, glob.indexOf('*')).replaceAll("[^/]*$", ""));
      if (!Files.isDirectory(top)) {
        continue;
      }
      PathMatcher match = FileSystems.getDefault().getPathMatcher("glob:" + base.resolve(glob));
      try (Stream<Path> s = Files.walk(top)) {
        if (s.anyMatch(match::matches)) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void everyJarPathIsTheOneTheBuildWrites() {
    Set<String> real = Set.of(DocRunner.cliJar(), DocRunner.s3Jar());
    Pattern jarPath = Pattern.compile("[\\w./-]*/modelfs[\\w.-]*\\.jar");
    List<String> wrong = new ArrayList<>();
    for (Docs.Page page : Docs.pages()) {
      for (int i = 0; i < page.lines().size(); i++) {
        Matcher m = jarPath.matcher(page.lines().get(i));
        while (m.find()) {
          if (!real.contains(m.group())) {
            wrong.add(page.where(i + 1) + ": " + m.group());
          }
        }
      }
    }
    assertEquals(List.of(), wrong, "jar paths other than " + real);
  }

  @Test
  void theReadmesCommandListIsTheClis() {
    Set<String> cli = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^  (\\S+) +\\S").matcher(run("help"));
    while (m.find()) {
      cli.add(m.group(1));
    }
    Docs.Page readme = Docs.pages().get(0);
    Docs.Block list = Docs.blocks(readme).stream()
        .filter(b -> b.lines().stream().anyMatch(l -> l.startsWith("java -jar " + DocRunner.cliJar() + " help")))
        .findFirst().orElseThrow(() -> new AssertionError("README.md shows no command list"));
    Set<String> shown = new TreeSet<>();
    Pattern command = Pattern.compile("(?:^|\\| )(?:java -jar " + Pattern.quote(DocRunner.cliJar()) + " )?(\\w+) ");
    for (String l : list.lines()) {
      if (l.startsWith("java -jar ")) {
        Matcher c = command.matcher(l);
        while (c.find()) {
          shown.add(c.group(1));
        }
      }
    }
    shown.remove("help"); // modelfs help, not a command of the list
    assertEquals(cli, shown, "README.md's command list (" + readme.where(list.line()) + ") against `modelfs help`");

    // each command's options there are its usage's (--quiet: "every command", said once)
    java.util.Map<String, Set<String>> listed = new java.util.TreeMap<>();
    String current = null;
    for (String l : list.lines()) {
      Matcher c = Pattern.compile("^java -jar " + Pattern.quote(DocRunner.cliJar()) + " (\\w+)").matcher(l);
      if (c.find()) {
        current = c.group(1);
      } else if (!l.startsWith(" ")) {
        current = null;
      }
      if (current != null && !current.equals("help")) {
        listed.computeIfAbsent(current, k -> new TreeSet<>()).addAll(options(l));
      }
    }
    for (String name : cli) {
      Set<String> usage = options(run("help", name).lines().findFirst().orElse(""));
      assertEquals(usage, listed.get(name), "README.md's options of " + name + " against `modelfs help " + name + "`");
    }
  }

  /** Every command line the pages show (in any fenced block): its command exists and takes the options shown. */
  @Test
  void everyCommandShownExistsWithTheOptionsShown() {
    Pattern line = Pattern.compile("^(?:\\$ )?(?:modelfs|java (?:-\\S+ )*-jar (?:" + Pattern.quote(DocRunner.cliJar()) + "|"
        + Pattern.quote(DocRunner.s3Jar()) + "))\\s+(\\S+)(.*)$");
    List<String> wrong = new ArrayList<>();
    int seen = 0;
    for (Docs.Page page : Docs.pages()) {
      for (Docs.Block b : Docs.blocks(page)) {
        for (int i = 0; i < b.lines().size(); i++) {
          Matcher m = line.matcher(b.lines().get(i));
          if (!m.find() || m.group(1).startsWith("-") || m.group(1).endsWith(":")) {
            continue; // --version, --help; a message ("modelfs cp: …")
          }
          seen++;
          String name = m.group(1);
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
          if (Main.run(new String[] {"help", name}, p, p) != 0 && !name.equals("help")) {
            wrong.add(page.where(b.line() + 1 + i) + ": no command '" + name + "'");
            continue;
          }
          Set<String> shown = options(Shell.withoutComment(m.group(2)).replaceAll("'[^']*'", ""));
          shown.removeAll(options(out.toString(StandardCharsets.UTF_8).lines().findFirst().orElse("")));
          if (!shown.isEmpty()) {
            wrong.add(page.where(b.line() + 1 + i) + ": " + name + " has no " + shown);
          }
        }
      }
    }
    assertTrue(seen >= 20, seen + " command lines");
    assertEquals(List.of(), wrong, "commands and options the pages show that the CLI does not have");
  }

  private static Set<String> options(String text) {
    Set<String> o = new TreeSet<>();
    Matcher m = Pattern.compile("--[a-z][\\w-]*").matcher(text);
    while (m.find()) {
      o.add(m.group());
    }
    o.remove("--quiet");
    o.remove("--help");
    o.remove("--version");
    return o;
  }

  /** "… hold several tags" / "hold any number": the formats named are the ones that do. */
  @Test
  void theFormatsSaidToHoldSeveralTagsAreModelFormatsOwn() {
    Set<String> holders = Arrays.stream(ModelFormat.values()).filter(ModelFormat::holdsTags)
        .map(f -> f.token().replace("-sharded", "")).collect(Collectors.toCollection(TreeSet::new));
    Set<String> single = Arrays.stream(ModelFormat.values()).filter(f -> !f.holdsTags())
        .map(f -> f.token().replace("-sharded", "")).collect(Collectors.toCollection(TreeSet::new));
    Pattern claim = Pattern.compile("([^.:;(]*?)\\bholds? (several tags|any number)");
    List<String> wrong = new ArrayList<>();
    int claims = 0;
    for (Docs.Page page : Docs.pages()) {
      String text = page.text().replaceAll("\\s+", " ");
      Matcher m = claim.matcher(text);
      while (m.find()) {
        String names = m.group(1).toLowerCase(Locale.ROOT).replace("`", "");
        if (Pattern.compile("\\b(sdz|zip-tags|container|fb|sdnb)\\b").matcher(names).results().count() < 2) {
          continue; // not a list of formats ("a container holds any number of tags")
        }
        claims++;
        Set<String> named = new TreeSet<>();
        for (String f : holders) {
          if (names.matches(".*(?<![\\w-])" + Pattern.quote(f) + "(?![\\w-]).*")) {
            named.add(f);
          }
        }
        boolean namesASingle = single.stream().anyMatch(f -> names.matches(".*(?<![\\w-])" + Pattern.quote(f) + "(?![\\w-]).*"));
        if (!named.equals(holders) || namesASingle) {
          wrong.add(page.path() + ": \"" + m.group().strip() + "\"");
        }
      }
    }
    assertTrue(claims >= 3, claims + " claims found");
    assertEquals(List.of(), wrong, "formats that hold several tags: " + holders);
  }

  @Test
  void helpListsEveryFormatACommandWrites() {
    for (String command : List.of("convert", "extract")) {
      String help = run("help", command);
      for (ModelFormat f : ModelFormat.values()) {
        assertTrue(help.contains(f.token()), command + " --help names " + f.token() + ":\n" + help);
      }
    }
    String tag = run("help", "tag");
    assertTrue(tag.contains(ModelFormat.list(f -> !f.holdsTags(), "and") + " hold one tag; "
        + ModelFormat.list(ModelFormat::holdsTags, "and") + " hold any number"), tag);
  }

  /**
   * Sizes the pages give of files in the repository (examples/mlp.fb; the op table, and what it
   * deflates to in the jar); the sizes of the example's tree and outputs are DocCommandsTest's.
   */
  @Test
  void sizesOfRepositoryFilesAreTheirs() throws IOException {
    String examples = Files.readString(Path.of("examples", "README.md"));
    long size = Files.size(Path.of("examples", "mlp.fb"));
    String stated = String.format(Locale.ROOT, "%,d bytes", size);
    assertTrue(examples.contains("`mlp.fb` | a small MLP classifier saved by DL4J 1.0.0-M2.1 with its Adam state ("
        + stated + ")"), "examples/README.md gives mlp.fb's size as " + stated);
    Path table = Path.of("core/src/main/resources/org/modelfs/format/fb/op-descriptors.tsv");
    byte[] tsv = Files.readAllBytes(table);
    java.util.zip.Deflater deflater = new java.util.zip.Deflater(java.util.zip.Deflater.DEFAULT_COMPRESSION, true);
    deflater.setInput(tsv);
    deflater.finish();
    long deflated = 0;
    for (byte[] buf = new byte[8192]; !deflater.finished(); ) {
      deflated += deflater.deflate(buf);
    }
    deflater.end();
    String graph = Files.readString(Path.of("docs", "GRAPH.md")).replaceAll("\\s+", " ");
    String tableSize = String.format(Locale.ROOT, "%,d", tsv.length).replace(',', ' ')
        + String.format(Locale.ROOT, " bytes, about %d KB compressed", Math.round(deflated / 1000.0));
    assertTrue(graph.contains("shipped in the jar: " + tableSize), "docs/GRAPH.md gives " + table + " as " + tableSize);
    // the jars' sizes are facts of a build, not of the repository: no page gives one
    Pattern jarSize = Pattern.compile("modelfs(-s3)?\\.jar[^.]{0,80}?\\b\\d+(\\.\\d+)? ?[KM]i?B|\\d+(\\.\\d+)? ?[KM]i?B[^.]{0,40}modelfs(-s3)?\\.jar");
    for (Docs.Page page : Docs.pages()) {
      Matcher m = jarSize.matcher(page.text().replaceAll("\\s+", " "));
      if (m.find()) {
        fail(page.path() + " gives a jar's size: " + m.group());
      }
    }
  }

  private static String run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
    assertEquals(0, Main.run(args, p, p), String.join(" ", args));
    return out.toString(StandardCharsets.UTF_8);
  }
}
