package org.modelfs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What ModelFS left beside a model, by name (tests only look; the store owns the names). */
public final class Sidecars {
  private Sidecars() {}

  /** Hidden ModelFS files ({@code .<name>.modelfs-…}) in the model's directory. */
  public static List<String> of(Path model) throws IOException {
    Path dir = model.toAbsolutePath().getParent();
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".") && n.contains(".modelfs-"))
          .sorted().toList();
    }
  }

  /** Journal directories beside the model. */
  public static List<String> journals(Path model) throws IOException {
    return of(model).stream().filter(n -> n.contains(".modelfs-journal")).toList();
  }
}
