package org.modelfs.testing;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Finds the DL4J-written fixtures copied into the test resources. */
public final class Fixtures {
  private Fixtures() {}

  /** The fixtures directory ({@code fixtures/dl4j-1.0.0-M2.1}) on the test classpath. */
  public static Path dir() {
    try {
      return Path.of(Fixtures.class.getResource("/fixtures/dl4j-1.0.0-M2.1").toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  /** Every {@code .fb} fixture that has an {@code .expected.tsv} beside it. */
  public static List<Path> all() throws IOException {
    try (Stream<Path> s = Files.walk(dir())) {
      return s.filter(p -> p.toString().endsWith(".fb")).sorted().toList();
    }
  }

  public static Path get(String relative) {
    return dir().resolve(relative);
  }

  public static Path expected(Path fb) {
    String n = fb.getFileName().toString();
    return fb.resolveSibling(n.substring(0, n.length() - 3) + ".expected.tsv");
  }
}
