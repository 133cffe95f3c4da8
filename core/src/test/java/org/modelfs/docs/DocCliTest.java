package org.modelfs.docs;

import org.junit.jupiter.api.Assumptions;
import org.modelfs.format.Codecs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.modelfs.cli.Main;
import org.modelfs.model.ModelFormat;

/**
 * What README.md, examples/README.md and docs/*.md state about the command line and the formats,
 * checked against the code: the README's command list and each command's options are the CLI's,
 * every command line shown names a command with options it takes, the formats said to hold
 * several tags are {@link ModelFormat#holdsTags}'s, and every help text lists the formats the
 * command writes.
 */
class DocCliTest {
  @BeforeAll
  static void fromTheRepositoryRoot() {
    Assumptions.assumeTrue("from-root".equals(System.getProperty("modelfs.examples")),
        "runs in the surefire execution 'examples', from the repository's root");
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
    Map<String, Set<String>> listed = new TreeMap<>();
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

  /**
   * Every command line the pages show (in any fenced block): its command exists in the jar it
   * runs and takes the options shown. The jar is the one named ({@code java -jar JAR}), or for
   * {@code modelfs} the one of the block's {@code alias modelfs='java -jar JAR'} (the core's CLI
   * without one). A jar whose manifest runs the core's {@link Main} has Main's commands; another
   * module's jar (fuse's {@code FuseMain}) has the verbs its main class lists in {@code VERBS}
   * and hands every other command to Main: its own verbs' options are checked by that module's
   * test (fuse: {@code DocFuseCommandLinesTest}), which can call its main class.
   */
  @Test
  void everyCommandShownExistsWithTheOptionsShown() {
    String jars = DocRunner.jars().values().stream().map(j -> Pattern.quote(j.path())).collect(Collectors.joining("|"));
    Pattern line = Pattern.compile("^(?:\\$ )?(?:modelfs|java (?:-\\S+ )*-jar (" + jars + "))\\s+(\\S+)(.*)$");
    Pattern alias = Pattern.compile("^alias modelfs='java (?:-\\S+ )*-jar (\\S+)'");
    List<String> wrong = new ArrayList<>();
    int seen = 0;
    int ownVerbs = 0;
    for (Docs.Page page : Docs.pages()) {
      for (Docs.Block b : Docs.blocks(page)) {
        String modelfs = DocRunner.cliJar();
        for (String l : b.lines()) {
          Matcher a = alias.matcher(l);
          if (a.find()) {
            modelfs = a.group(1);
            if (DocRunner.jar(modelfs) == null) {
              wrong.add(page.where(b.line()) + ": alias modelfs names " + modelfs + ", not a jar the build writes");
            }
          }
        }
        for (int i = 0; i < b.lines().size(); i++) {
          Matcher m = line.matcher(b.lines().get(i));
          if (!m.find() || m.group(2).startsWith("-") || m.group(2).endsWith(":")) {
            continue; // --version, --help; a message ("modelfs cp: …")
          }
          seen++;
          DocRunner.Jar jar = DocRunner.jar(m.group(1) != null ? m.group(1) : modelfs);
          String where = page.where(b.line() + 1 + i);
          String name = m.group(2);
          if (jar != null && !jar.isCoresCli() && ownVerbs(jar).contains(name)) {
            ownVerbs++; // its options: the module's own test
            continue;
          }
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
          if (Main.run(new String[] {"help", name}, p, p) != 0 && !name.equals("help")) {
            wrong.add(where + ": no command '" + name + "' in " + (jar == null ? modelfs : jar.path()));
            continue;
          }
          Set<String> shown = options(Shell.withoutComment(m.group(3)).replaceAll("'[^']*'", ""));
          shown.removeAll(options(out.toString(StandardCharsets.UTF_8).lines().findFirst().orElse("")));
          if (!shown.isEmpty()) {
            wrong.add(where + ": " + name + " has no " + shown);
          }
        }
      }
    }
    assertTrue(seen >= 20, seen + " command lines");
    assertTrue(ownVerbs >= 3, ownVerbs + " command lines of the fuse jar's own verbs (README.md, docs/MOUNT.md)");
    assertEquals(List.of(), wrong, "commands and options the pages show that the CLI does not have");
  }

  /**
   * The verbs a module's main class adds to the core's commands, as its source declares them:
   * {@code static final List<String> VERBS = List.of("mount", …)} (fuse's FuseMain). A module
   * whose jar runs another main class must declare them so.
   */
  static Set<String> ownVerbs(DocRunner.Jar jar) {
    Path source = Path.of(jar.module(), "src", "main", "java", jar.mainClass().replace('.', '/') + ".java");
    try {
      Matcher m = Pattern.compile("\\bVERBS\\s*=\\s*List\\.of\\(([^)]*)\\)").matcher(Files.readString(source));
      if (!m.find()) {
        throw new AssertionError(source + " declares no VERBS = List.of(…): the commands its jar adds to the core's");
      }
      Set<String> verbs = new TreeSet<>();
      Matcher v = Pattern.compile("\"(\\w+)\"").matcher(m.group(1));
      while (v.find()) {
        verbs.add(v.group(1));
      }
      return verbs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    Set<String> holders = Arrays.stream(Codecs.formats().toArray(new ModelFormat[0])).filter(ModelFormat::holdsTags)
        .map(f -> f.token().replace("-sharded", "")).collect(Collectors.toCollection(TreeSet::new));
    Set<String> single = Arrays.stream(Codecs.formats().toArray(new ModelFormat[0])).filter(f -> !f.holdsTags())
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
      for (ModelFormat f : Codecs.formats().toArray(new ModelFormat[0])) {
        assertTrue(help.contains(f.token()), command + " --help names " + f.token() + ":\n" + help);
      }
    }
    String tag = run("help", "tag");
    assertTrue(tag.contains(Codecs.list(f -> !f.holdsTags(), "and") + " hold one tag; "
        + Codecs.list(ModelFormat::holdsTags, "and") + " hold any number"), tag);
  }

  private static String run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
    assertEquals(0, Main.run(args, p, p), String.join(" ", args));
    return out.toString(StandardCharsets.UTF_8);
  }
}
