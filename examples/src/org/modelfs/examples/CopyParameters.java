package org.modelfs.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;

/**
 * Copies the parameters of one layer from one checkpoint into another: every file below
 * {@code params/LAYER} of SRC is copied ({@code Files.copy} between two mounted models) to the
 * same path in DST, with its dtype and shape.
 *
 * <ul>
 *   <li>DST exists (a checkpoint of the same network): the layer's parameters are replaced, and
 *       so is their updater state ({@code updater/LAYER}) when both models keep one, so that the
 *       optimizer's state matches the new weights. The rest of DST stays as it was.
 *   <li>DST does not exist: a new model is made ({@code create=true}; its format from its name:
 *       {@code .fb}, {@code .sdnb}, {@code .sdz}, {@code .zip}) holding only those parameters.
 * </ul>
 *
 * <pre>
 * CopyParameters [SRC] [DST] [LAYER]    defaults: examples/mlp.fb &lt;temp dir&gt;/layer0.fb layer0
 * </pre>
 *
 * <p>SRC is mounted read-only and never changed; DST is written when the mount closes.
 */
public final class CopyParameters {
  private CopyParameters() {}

  public static void main(String[] args) throws Exception {
    Path src = args.length > 0 ? Path.of(args[0]) : exampleModel();
    Path dst;
    if (args.length > 1) {
      dst = Path.of(args[1]);
    } else {
      Path dir = workDir();
      dst = dir.resolve("layer0.fb");
    }
    String layer = args.length > 2 ? args[2] : "layer0";
    boolean existed = Files.exists(dst);

    try (FileSystem from = ModelFileSystems.open(src, Map.of("readOnly", true));
        FileSystem to = ModelFileSystems.open(dst, Map.of("create", true))) {
      List<String> areas = existed && Files.isDirectory(from.getPath("/updater", layer))
          && Files.isDirectory(to.getPath("/updater", layer))
          ? List.of("params", "updater") // keep the optimizer's state with the weights it belongs to
          : List.of("params");
      for (String area : areas) {
        Path top = from.getPath("/" + area).resolve(layer);
        if (!Files.exists(top)) {
          throw new IllegalArgumentException(src + " has no " + top);
        }
        try (Stream<Path> files = Files.walk(top)) {
          for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
            // paths of two file systems: carry the name over as a string
            Path q = to.getPath(p.toString());
            Files.copy(p, q, StandardCopyOption.REPLACE_EXISTING);
            SamediffFileAttributes a = Files.readAttributes(q, SamediffFileAttributes.class);
            System.out.println("copied " + src + ":" + p + " -> " + dst + ":" + q + "  " + a.dtype() + " "
                + Arrays.toString(a.shape()));
          }
        }
      }
    } // closing DST commits: a complete new model file, swapped in atomically

    System.out.println((existed ? "updated " : "created ") + dst + " (" + Files.size(dst) + " bytes)");
    try (FileSystem fs = ModelFileSystems.open(dst, Map.of("readOnly", true));
        Stream<Path> params = Files.walk(fs.getPath("/params"))) {
      params.filter(Files::isRegularFile).forEach(p -> System.out.println("  " + p));
    }
  }

  /**
   * The default model, examples/mlp.fb of the ModelFS project (a path from its directory). Run
   * from elsewhere, the program says where it looked and how to name a model, and exits with 2.
   */
  static Path exampleModel() {
    Path model = Path.of("examples", "mlp.fb");
    if (!Files.isRegularFile(model)) {
      System.err.println("CopyParameters: no example model at " + model.toAbsolutePath() + ": run it from the ModelFS"
          + " project's directory, or name a model: CopyParameters SRC [DST] [LAYER]");
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
