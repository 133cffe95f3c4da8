package org.modelfs.examples;

import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;

/**
 * Reads one parameter of a model into a {@link FloatBuffer}: mounts the model read-only, reads the
 * parameter's {@code samediff} attributes (dtype, shape, order), maps the file and prints the first
 * rows, then lists the parameter's updater state.
 *
 * <pre>
 * ReadParameter [MODEL] [PARAM]      defaults: examples/mlp.fb layer0/W
 * </pre>
 *
 * <p>The model is not changed: a {@code readOnly} mount writes nothing.
 */
public final class ReadParameter {
  private ReadParameter() {}

  public static void main(String[] args) throws Exception {
    Path model = args.length > 0 ? Path.of(args[0]) : exampleModel();
    String param = args.length > 1 ? args[1] : "layer0/W";

    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      Path p = fs.getPath("/params").resolve(param); // "layer0/W" -> /params/layer0/W
      SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
      long[] shape = a.shape();
      System.out.printf("%s %s: %s %s %s, order %s, %d bytes (stored %s)%n", model, p, a.kind(), a.dtype(),
          Arrays.toString(shape), a.order(), a.size(), a.stored());
      if (!"FLOAT".equals(a.dtype())) {
        throw new IllegalArgumentException(param + " is " + a.dtype() + ", this example reads FLOAT parameters");
      }

      try (FileChannel ch = FileChannel.open(p)) {
        // the file's bytes are the elements, little-endian, in the array's order (here c: row by row)
        FloatBuffer f = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size())
            .order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        System.out.println("mapped " + f.remaining() + " floats");
        int cols = shape.length == 2 && "c".equals(a.order()) ? (int) shape[1] : f.remaining();
        int rows = f.remaining() / Math.max(cols, 1);
        for (int r = 0; r < Math.min(rows, 4); r++) {
          StringBuilder line = new StringBuilder(String.format("row %d:", r));
          for (int c = 0; c < Math.min(cols, 6); c++) {
            line.append(String.format(" %.6f", f.get(r * cols + c)));
          }
          System.out.println(line + (cols > 6 ? "  (first 6 of " + cols + ")" : ""));
        }
        double sum = 0;
        float min = Float.POSITIVE_INFINITY;
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < f.limit(); i++) {
          float v = f.get(i);
          sum += v;
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
        System.out.printf("min %.6f, max %.6f, mean %.6f%n", min, max, sum / f.limit());
      }

      // the optimizer's state of this parameter, e.g. Adam's M and V: updater/<param>/<key>
      Path state = fs.getPath("/updater").resolve(param);
      if (Files.isDirectory(state)) {
        try (Stream<Path> keys = Files.list(state)) {
          for (Path k : (Iterable<Path>) keys::iterator) {
            SamediffFileAttributes ka = Files.readAttributes(k, SamediffFileAttributes.class);
            System.out.println("updater state " + k + ": " + ka.dtype() + " " + Arrays.toString(ka.shape()));
          }
        }
      } else {
        System.out.println("no updater state for " + param);
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
      System.err.println("ReadParameter: no example model at " + model.toAbsolutePath() + ": run it from the ModelFS"
          + " project's directory, or name a model: ReadParameter MODEL [PARAM]");
      System.exit(2);
    }
    return model;
  }
}
