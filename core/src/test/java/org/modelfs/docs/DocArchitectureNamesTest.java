package org.modelfs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class docs/ARCHITECTURE.md names with its package ({@code provider.MountRegistry},
 * {@code format.fb.GraphNames}), and every member it names after one ({@code store.Durable.createNew},
 * {@code ModelWriter.plan}), exists in the sources of some module: a rename or a removal that
 * forgets the page fails here.
 */
class DocArchitectureNamesTest {
  private static final Pattern QUALIFIED = Pattern.compile("\\b((?:[a-z][a-z0-9]*\\.)+)([A-Z][A-Z0-9]*[a-z][A-Za-z0-9]*)(?:\\.([a-z][A-Za-z0-9]*))?");

  @Test
  void everyQualifiedNameOfThePageIsInTheCode() throws IOException {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isRegularFile(root.resolve("docs/ARCHITECTURE.md"))) {
      root = root.getParent();
    }
    Map<String, Path> sources = new HashMap<>();
    List<String> modules = new ArrayList<>();
    Matcher mm = Pattern.compile("<module>([^<]+)</module>")
        .matcher(Files.readString(root.resolve("pom.xml")));
    while (mm.find()) {
      modules.add(mm.group(1).trim()); // every module of the root pom, so a new one is searched too
    }
    for (String module : modules) {
      for (String set : List.of("main", "test", "interop")) {
        Path dir = root.resolve(module + "/src/" + set + "/java/org/modelfs");
        if (Files.isDirectory(dir)) {
          try (Stream<Path> files = Files.walk(dir)) {
            Path base = dir;
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> sources.put(
                base.relativize(f).toString().replace('/', '.').replaceAll("\\.java$", ""), f));
          }
        }
      }
    }
    String page = Files.readString(root.resolve("docs/ARCHITECTURE.md"));
    TreeSet<String> missing = new TreeSet<>();
    int checked = 0;
    Matcher code = Pattern.compile("`([^`\\n]+)`").matcher(page);
    while (code.find()) {
      Matcher m = QUALIFIED.matcher(code.group(1));
      while (m.find()) {
        String pkg = m.group(1).replaceFirst("^org\\.modelfs\\.", "");
        if (pkg.startsWith("java.") || pkg.startsWith("software.") || pkg.startsWith("com.")) {
          continue;
        }
        String cls = pkg + m.group(2);
        Path src = sources.get(cls);
        checked++;
        if (src == null) {
          missing.add(cls);
        } else if (m.group(3) != null && !Pattern.compile("\\b" + m.group(3) + "\\b").matcher(Files.readString(src)).find()) {
          missing.add(cls + "." + m.group(3));
        }
      }
    }
    assertTrue(checked > 50, "the page names classes: " + checked);
    assertEquals(new TreeSet<>(), missing, "named in docs/ARCHITECTURE.md, not in the code");
  }
}
