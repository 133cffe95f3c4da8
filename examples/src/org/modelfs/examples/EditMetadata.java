package org.modelfs.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;

/**
 * Writes, removes and reads metadata: each key of the newest tag is a file
 * {@code /metadata/<key>} whose content is the UTF-8 value. SDNB, SDZ and zip-tags models hold
 * metadata; an fb file (DL4J's {@code SameDiff.save}) cannot, so the default run first turns a copy
 * of the example into an SDZ.
 *
 * <pre>
 * EditMetadata [MODEL [KEY=VALUE | KEY= ...]]
 *   KEY=VALUE sets a key, KEY= removes it
 *   defaults: a copy of examples/mlp.fb in a temp dir, committed as mlp.sdz, and three keys
 * </pre>
 *
 * <p>MODEL, when given, is changed in place (one commit when the mount closes).
 */
public final class EditMetadata {
  private EditMetadata() {}

  public static void main(String[] args) throws Exception {
    Path model;
    Map<String, String> env = Map.of();
    List<String> edits;
    if (args.length > 0) {
      model = Path.of(args[0]);
      edits = List.of(args).subList(1, args.length);
    } else {
      Path example = exampleModel();
      // a copy of the fb; "format": the next commit writes it as SDZ, which holds metadata
      model = Files.copy(example, workDir().resolve("mlp.sdz"));
      env = Map.of("format", "sdz");
      edits = List.of("author=ModelFS examples", "dataset=synthetic, 3 classes, 24 points",
          "notes/training=5 Adam steps, learning rate 0.05");
    }

    try (FileSystem fs = ModelFileSystems.open(model, env)) {
      for (String edit : edits) {
        int eq = edit.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("expected KEY=VALUE or KEY=, got '" + edit + "'");
        }
        Path key = fs.getPath("/metadata").resolve(edit.substring(0, eq)); // "notes/training" -> /metadata/notes/training
        String value = edit.substring(eq + 1);
        if (value.isEmpty()) {
          Files.deleteIfExists(key);
          System.out.println("removed " + key);
        } else {
          Files.writeString(key, value); // UTF-8
          System.out.println("set " + key + " = " + value);
        }
      }
    } // close() commits (an fb model refuses: it cannot hold metadata)

    System.out.println("metadata of " + model + ":");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      Path dir = fs.getPath("/metadata");
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
          System.out.println("  " + dir.relativize(p) + " = " + Files.readString(p));
        }
      }
    }
  }

  /**
   * The default model, examples/mlp.fb of the ModelFS project (a path from its directory). Run
   * from elsewhere, the program says where it looked and how to name a model, and exits with 2.
   */
  static Path exampleModel() {
    Path model = Path.of("examples", "mlp.fb");
    if (!Files.isRegularFile(model)) {
      System.err.println("EditMetadata: no example model at " + model.toAbsolutePath() + ": run it from the ModelFS"
          + " project's directory, or name a model: EditMetadata MODEL [KEY=VALUE | KEY= ...]");
      System.exit(2);
    }
    return model;
  }

  /** A new temporary directory for the default run ("working in DIR"), removed with its files when the program ends. */
  static Path workDir() throws IOException {
    Path dir = Files.createTempDirectory("modelfs-example-");
    System.out.println("working in " + dir);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (NoSuchFileException gone) {
        // removed already
      } catch (IOException | UncheckedIOException e) {
        System.err.println("could not remove " + dir + ": " + e.getMessage());
      }
    }));
    return dir;
  }
}
