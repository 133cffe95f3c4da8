package org.modelfs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.cli.Main;

/**
 * Every command README.md, examples/README.md and docs/*.md tell a user to type runs here as
 * written, from the repository's root ({@link DocRunner}: the CLI and the example programs in
 * this JVM, the jar paths checked against the poms), exits 0, and prints what the page shows
 * after it ({@code …} in the page stands for any text). A command that cannot run in a unit
 * test is listed in {@link #notRun} with the reason; any other command, including one a page
 * adds tomorrow, is run. So a moved jar or source path, a renamed option or a changed output
 * breaks the build, not the user.
 *
 * <p>In this JVM rather than on the built jar: surefire runs before {@code package}, so the jar a
 * page names does not exist yet in a clean {@code mvn verify}. The jar's name is checked against
 * core/pom.xml's shade execution instead, and .ci/run runs two of the commands on the built jar
 * (its packaging and service registration).
 */
class DocCommandsTest {
  /** Commands not run here, by pattern, and why. Each pattern must still match some command. */
  static Map<Pattern, String> notRun() {
    Map<Pattern, String> notRun = new LinkedHashMap<>();
    notRun.put(Pattern.compile("^mvn\\b"), "Maven itself: this test runs inside that build");
    notRun.put(Pattern.compile("^java .*-jar " + Pattern.quote(DocRunner.s3Jar()) + " "),
        "needs an S3 endpoint and credentials; the s3 module's ShadedJarIT runs this jar against S3Proxy");
    notRun.put(Pattern.compile("^export (AWS_|S3_)"), "S3 credentials and endpoint for the object-store commands");
    notRun.put(Pattern.compile("^java .*-jar azure/target/modelfs-azure\\.jar "),
        "needs an Azure storage account; the azure module's ShadedJarIT runs this jar against Azurite");
    notRun.put(Pattern.compile("^export AZURE_STORAGE_CONNECTION_STRING="), "the Azure account for the azb:// commands");
    notRun.put(Pattern.compile("^\\$EDITOR "), "an interactive editor");
    notRun.put(Pattern.compile("^scripts/generate-example-model\\.sh$"),
        "trains the example with DL4J (minutes); ExampleModelInteropTest (-Pinterop) regenerates and compares it");
    notRun.put(Pattern.compile("^javac -cp " + Pattern.quote(DocRunner.cliJar()) + " -d target/examples examples/src/org/modelfs/examples/\\*\\.java$"),
        "the examples compile in every build (examples/src is a test source root); ExamplesTest compiles each alone against the library");
    return notRun;
  }

  /**
   * Blocks not run here as a whole, by page and the heading they are under, and why; each must
   * still be there, and the test named must exist. A command added to such a block is run there
   * (it runs the block as written); one added anywhere else is run here or listed in {@link #notRun}.
   */
  static Map<String, String> notRunBlocks() {
    return Map.of("README.md ## From the shell and Python",
        "run by fuse's DocMountSessionTest under a kernel mount (fuse/src/test/java/org/modelfs/fuse/DocMountSessionTest.java):"
            + " mount, unmount and the shell's own tools (ls, getfattr, python3, sed, a pipe) cannot run in this JVM");
  }

  /**
   * Names the pages use for "your model" and friends, made in a block's work directory before
   * it runs when the block names them: copies of examples/mlp.fb, an SDZ with tags default and
   * v2, and a safetensors file of its parameters.
   */
  static final Map<String, List<List<String>>> STAND_INS = Map.of(
      "m.fb", List.of(List.of("cp-file", "examples/mlp.fb", "m.fb")),
      "model.fb", List.of(List.of("cp-file", "examples/mlp.fb", "model.fb")),
      "model.sdz", List.of(List.of("convert", "examples/mlp.fb", "model.sdz"), List.of("tag", "add", "model.sdz", "v2")),
      "tuned.safetensors", List.of(List.of("export", "examples/mlp.fb", "tuned.safetensors")));

  @TempDir Path tmp;

  @BeforeAll
  static void fromTheRepositoryRoot() {
    Assumptions.assumeTrue("from-root".equals(System.getProperty("modelfs.examples")),
        "runs in the surefire execution 'examples', from the repository's root");
  }

  @Test
  void everyDocumentedCommandRunsAsWritten() throws Exception {
    String before = fingerprint();
    List<Docs.Command> commands = Docs.commands(Docs.pages());
    Map<Pattern, String> notRun = notRun();
    Map<String, String> notRunBlocks = notRunBlocks();
    Set<Pattern> used = new LinkedHashSet<>();
    Set<String> usedBlocks = new LinkedHashSet<>();
    List<String> failures = new ArrayList<>();
    int run = 0;
    Map<Docs.Block, List<Docs.Command>> byBlock = commands.stream()
        .collect(Collectors.groupingBy(Docs.Command::block, LinkedHashMap::new, Collectors.toList()));
    for (Map.Entry<Docs.Block, List<Docs.Command>> e : byBlock.entrySet()) {
      String block = e.getKey().page().path() + " " + Docs.heading(e.getKey());
      if (notRunBlocks.containsKey(block)) {
        usedBlocks.add(block);
        continue;
      }
      Path work = Files.createDirectories(tmp.resolve("block-" + e.getKey().page().path().toString().replace('/', '_')
          + "-" + e.getKey().line()));
      DocRunner runner = new DocRunner(work);
      standIns(e.getValue(), work);
      for (Docs.Command c : e.getValue()) {
        for (Shell.Simple s : Shell.parse(c.text())) {
          String text = String.join(" ", s.words());
          Pattern skip = notRun.keySet().stream().filter(p -> p.matcher(text).find()).findFirst().orElse(null);
          if (skip != null) {
            used.add(skip);
            continue;
          }
          run++;
          try {
            DocRunner.Result r = runner.run(s);
            if (r.code() != 0) {
              failures.add(c.where() + ": " + text + "\n  exit " + r.code() + ": " + r.err().strip());
            } else if (c.output() != null && !matches(c.output(), r.out())) {
              failures.add(c.where() + ": " + text + "\n  the page shows:\n" + indent(String.join("\n", c.output()))
                  + "\n  it prints:\n" + indent(r.out()));
            }
          } catch (Exception | AssertionError x) {
            failures.add(c.where() + ": " + text + "\n  " + x);
          }
        }
      }
    }
    assertTrue(failures.isEmpty(), failures.size() + " documented commands fail:\n\n" + String.join("\n\n", failures));
    assertEquals(notRun.keySet(), used, "every notRun() pattern still names a documented command");
    assertEquals(notRunBlocks.keySet(), usedBlocks, "every notRunBlocks() entry still names a block of commands");
    for (String reason : notRunBlocks.values()) {
      Matcher test = Pattern.compile("\\((\\w+/src/test/java/\\S+\\.java)\\)").matcher(reason);
      assertTrue(test.find() && Files.isRegularFile(Path.of(test.group(1))), "the test that runs the block exists: " + reason);
    }
    assertTrue(run >= 10, run + " commands run");
    assertEquals(before, fingerprint(), "the commands left the repository's files as they were");
  }

  /** Shown lines against printed ones: the same number, each equal, {@code …} matching any text. */
  static boolean matches(List<String> shown, String printed) {
    List<String> want = trimmed(shown);
    List<String> got = trimmed(printed.lines().toList());
    if (want.size() != got.size()) {
      return false;
    }
    for (int i = 0; i < want.size(); i++) {
      String regex = Stream.of(want.get(i).split("…", -1)).map(Pattern::quote).collect(Collectors.joining(".*"));
      if (!got.get(i).stripTrailing().matches(regex)) {
        return false;
      }
    }
    return true;
  }

  private static List<String> trimmed(List<String> lines) {
    List<String> l = new ArrayList<>(lines.stream().map(String::stripTrailing).toList());
    while (!l.isEmpty() && l.get(l.size() - 1).isEmpty()) {
      l.remove(l.size() - 1);
    }
    return l;
  }

  private static String indent(String s) {
    return s.lines().map(l -> "    " + l).collect(Collectors.joining("\n"));
  }

  private static void standIns(List<Docs.Command> block, Path work) throws IOException {
    String text = block.stream().map(Docs.Command::text).collect(Collectors.joining("\n"));
    for (Map.Entry<String, List<List<String>>> s : STAND_INS.entrySet()) {
      if (!Pattern.compile("(^|[\\s'\"])" + Pattern.quote(s.getKey()) + "([\\s:#'\"]|$)", Pattern.MULTILINE).matcher(text).find()) {
        continue;
      }
      for (List<String> step : s.getValue()) {
        if (step.get(0).equals("cp-file")) {
          Files.copy(Path.of(step.get(1)), work.resolve(step.get(2)));
          continue;
        }
        String[] args = step.stream().map(a -> a.contains(".") && !a.startsWith("examples/") ? work.resolve(a).toString() : a)
            .toArray(String[]::new);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(0, Main.run(args, sink, sink), "stand-in " + s.getKey() + ": " + err);
      }
    }
  }

  /** The repository's top level and examples/, with examples/mlp.fb's digest. */
  private static String fingerprint() throws Exception {
    StringBuilder b = new StringBuilder();
    for (Path d : List.of(Path.of("."), Path.of("examples"))) {
      try (Stream<Path> s = Files.list(d)) {
        s.map(Path::toString).sorted().forEach(n -> b.append(n).append('\n'));
      }
    }
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(Path.of("examples", "mlp.fb")));
    return b.append(HexFormat.of().formatHex(digest)).toString();
  }
}
