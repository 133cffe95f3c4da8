package org.modelfs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What README.md, examples/README.md and docs/*.md state about the repository's files, checked
 * against them: every repository path they cite exists, every jar path is the one the build
 * writes, and the sizes given of files in the repository are theirs.
 */
class DocPathsTest {
  /** A path from the repository's root (or from the page's directory) as the pages cite them: under a module of the root pom or a top directory. */
  private static Pattern repoPath() {
    return Pattern.compile("(?<![\\w/.:-])((?:" + String.join("|", DocRunner.modules())
        + "|examples|docs|scripts|schemas|src|\\.ci|\\.mvn)/[\\w./<>*…-]*[\\w>*…/])");
  }

  private static final Pattern LINK = Pattern.compile("\\]\\(([\\w./-]+\\.md)(?:#[\\w-]*)?\\)");

  @BeforeAll
  static void fromTheRepositoryRoot() {
    Assumptions.assumeTrue("from-root".equals(System.getProperty("modelfs.examples")),
        "runs in the surefire execution 'examples', from the repository's root");
  }

  @Test
  void everyCitedRepositoryPathExists() throws IOException {
    List<String> missing = new ArrayList<>();
    Pattern repoPath = repoPath();
    for (Docs.Page page : Docs.pages()) {
      for (int i = 0; i < page.lines().size(); i++) {
        String line = page.lines().get(i);
        Matcher m = repoPath.matcher(line);
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
    Set<String> real = DocRunner.jars().values().stream().map(DocRunner.Jar::path).collect(Collectors.toSet());
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
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
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
  }

  /**
   * The jars' sizes (and the SDK's in them) are facts of a build, not of the repository: no
   * sentence outside the pages' code blocks gives one (the s3 jar's was given three ways), of any
   * module's jar.
   */
  @Test
  void noPageGivesAJarsSize() {
    Pattern jar = Pattern.compile(DocRunner.jars().values().stream()
        .map(j -> Pattern.quote(Path.of(j.path()).getFileName().toString()))
        .collect(Collectors.joining("|")) + "|CRT client");
    Pattern figure = Pattern.compile("\\d+(\\.\\d+)? ?[KM]i?B\\b");
    for (Docs.Page page : Docs.pages()) {
      String prose = page.text().replaceAll("(?ms)^\\s*```.*?^\\s*```", "").replaceAll("\\s+", " ");
      for (String sentence : prose.split("\\. ")) {
        if (jar.matcher(sentence).find() && figure.matcher(sentence).find()) {
          fail(page.path() + " gives a jar's size: " + sentence);
        }
      }
    }
  }
}
