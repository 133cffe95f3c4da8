package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The pages' command lines of this jar's own verbs ({@link FuseMain#VERBS}: {@code modelfs
 * mount|commit|unmount …}, {@code java -jar fuse/target/modelfs-fuse.jar mount …}) in any fenced
 * block of README.md, examples/README.md and docs/*.md take the options shown: those of the
 * verb's usage line. The core's DocCliTest checks every other command line (and that these
 * verbs are FuseMain's), but cannot call FuseMain.
 */
class DocFuseCommandLinesTest {
  @Test
  void everyMountCommitAndUnmountLineTakesTheOptionsShown() throws Exception {
    Path root = DocMountSessionTest.root();
    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("examples/README.md")));
    try (Stream<Path> s = Files.list(root.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    Pattern line = Pattern.compile("^\\s*(?:\\$ )?(?:modelfs|java (?:-\\S+ )*-jar fuse/target/modelfs-fuse\\.jar)\\s+("
        + String.join("|", FuseMain.VERBS) + ")\\b(.*)$");
    List<String> wrong = new ArrayList<>();
    int seen = 0;
    for (Path page : pages) {
      boolean fenced = false;
      List<String> lines = Files.readAllLines(page);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).strip().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        Matcher m = line.matcher(lines.get(i));
        if (!fenced || !m.find()) {
          continue;
        }
        seen++;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(0, FuseMain.run(new String[] {"help", m.group(1)}, p, p), "modelfs help " + m.group(1));
        Set<String> shown = options(m.group(2).replaceAll("(^|\\s)#.*$", "").replaceAll("'[^']*'", ""));
        shown.removeAll(options(out.toString(StandardCharsets.UTF_8).lines().findFirst().orElse("")));
        if (!shown.isEmpty()) {
          wrong.add(root.relativize(page) + ":" + (i + 1) + ": " + m.group(1) + " has no " + shown);
        }
      }
    }
    assertTrue(seen >= 5, seen + " command lines of mount, commit and unmount");
    assertEquals(List.of(), wrong, "options the pages show that the fuse jar's verbs do not have");
  }

  private static Set<String> options(String text) {
    Set<String> o = new TreeSet<>();
    Matcher m = Pattern.compile("(?<![\\w-])(--[a-z][\\w-]*|-[a-z])(?![\\w-])").matcher(text);
    while (m.find()) {
      o.add(m.group(1));
    }
    o.remove("--help");
    o.remove("-h");
    return o;
  }
}
