package org.modelfs.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;

/**
 * Changes one argument of one op by editing {@code /graph.json} as text — what {@code sed} or an
 * editor would do — and writing it back. graph.json names a custom op's arguments by DL4J's op
 * descriptors ({@code "tArgs": {"alpha": 1.0, "beta": 0.0}} for {@code matmul}) and shows a
 * legacy scalar op's value under {@code "scalar": {..., "values": [0.0]}} ({@code relu}'s cutoff).
 * The write is checked whole when the file is closed; a bad value is refused, naming the op and
 * the argument, and nothing changes.
 *
 * <pre>
 * EditGraph [MODEL [OP LIST.ARG=VALUE | OP scalar=VALUE]]
 *   e.g. EditGraph m.fb matmul tArgs.alpha=2.0
 *   defaults: a copy of examples/mlp.fb in a temp dir, relu's cutoff set to 0.1
 * </pre>
 */
public final class EditGraph {
  private EditGraph() {}

  /** Where graph.json shows {@code arg} in an op's entry: group 2 is its value. */
  private static Pattern pattern(String arg) {
    return arg.equals("scalar")
        ? Pattern.compile("(\"values\": \\[)([^\\]]*)(\\])")
        : Pattern.compile("(\"" + Pattern.quote(arg.substring(arg.indexOf('.') + 1)) + "\": )([^,\\n]*)()");
  }

  public static void main(String[] args) throws Exception {
    Path model;
    String op;
    String edit;
    if (args.length >= 3) {
      model = Path.of(args[0]);
      op = args[1];
      edit = args[2];
    } else {
      Path example = exampleModel();
      model = Files.copy(example, workDir().resolve("mlp.fb"));
      op = "relu";
      edit = "scalar=0.1";
    }
    int eq = edit.indexOf('=');
    String arg = edit.substring(0, eq);
    String value = edit.substring(eq + 1);

    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path graph = fs.getPath("/graph.json");
      String json = Files.readString(graph);
      // the op's entry: from its "name" to the end of its object
      int start = json.indexOf("\n      \"name\": \"" + op + "\",\n");
      if (start < 0) {
        throw new IllegalArgumentException("no op named '" + op + "' in " + model);
      }
      int end = json.indexOf("\n    }", start);
      String entry = json.substring(start, end);
      Matcher m = pattern(arg).matcher(entry);
      if (!m.find()) {
        throw new IllegalArgumentException("op '" + op + "' shows no " + arg);
      }
      System.out.println(op + " " + arg + ": " + m.group(2) + " -> " + value);
      String edited = json.substring(0, start) + m.replaceFirst("$1" + Matcher.quoteReplacement(value) + "$3")
          + json.substring(end);
      try {
        Files.writeString(graph, edited); // checked whole when the file closes
      } catch (FileSystemException e) {
        System.out.println("refused: " + e.getMessage());
        return; // nothing was changed
      }
    } // close() commits

    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      String json = Files.readString(fs.getPath("/graph.json"));
      int start = json.indexOf("\n      \"name\": \"" + op + "\",\n");
      String entry = json.substring(start, json.indexOf("\n    }", start));
      Matcher m = pattern(arg).matcher(entry);
      m.find();
      System.out.println("graph.json of " + model + " now shows " + op + " " + arg + ": " + m.group(2));
    }
  }

  /**
   * The default model, examples/mlp.fb of the ModelFS project (a path from its directory). Run
   * from elsewhere, the program says where it looked and how to name a model, and exits with 2.
   */
  static Path exampleModel() {
    Path model = Path.of("examples", "mlp.fb");
    if (!Files.isRegularFile(model)) {
      System.err.println("EditGraph: no example model at " + model.toAbsolutePath() + ": run it from the ModelFS"
          + " project's directory, or name a model: EditGraph MODEL OP LIST.ARG=VALUE");
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
