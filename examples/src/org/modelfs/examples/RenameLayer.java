package org.modelfs.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;

/**
 * Renames a layer: {@code Files.move("/params/layer0", "/params/encoder0")} renames every
 * parameter below it in the graph (the ops keep using them) and moves its updater state along;
 * DL4J loads the result and computes the same outputs.
 *
 * <pre>
 * RenameLayer [MODEL] [FROM] [TO]    defaults: a copy of examples/mlp.fb in a temp dir, layer0, encoder0
 * </pre>
 *
 * <p>MODEL, when given, is changed in place (one commit when the mount closes); without it the
 * program works on a copy of the bundled example.
 */
public final class RenameLayer {
  private RenameLayer() {}

  public static void main(String[] args) throws Exception {
    Path model;
    if (args.length > 0) {
      model = Path.of(args[0]);
    } else {
      Path example = exampleModel();
      model = Files.copy(example, workDir().resolve("mlp.fb"));
    }
    String from = args.length > 1 ? args[1] : "layer0";
    String to = args.length > 2 ? args[2] : "encoder0";

    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path source = fs.getPath("/params").resolve(from);
      Path target = fs.getPath("/params").resolve(to);
      Files.move(source, target);
      System.out.println("moved " + source + " -> " + target);
      print(fs);
    } // close() commits the rename: graph names, parameters and updater state at once
    System.out.println("committed " + model);
  }

  private static void print(FileSystem fs) throws Exception {
    for (String area : new String[] {"/params", "/updater"}) {
      try (Stream<Path> s = Files.walk(fs.getPath(area))) {
        s.filter(Files::isRegularFile).forEach(p -> System.out.println("  " + p));
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
      System.err.println("RenameLayer: no example model at " + model.toAbsolutePath() + ": run it from the ModelFS"
          + " project's directory, or name a model: RenameLayer MODEL [FROM] [TO]");
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
