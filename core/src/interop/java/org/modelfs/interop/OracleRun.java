package org.modelfs.interop;

import org.modelfs.format.Codecs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;

/**
 * Runs an {@link OracleScript}: converts the fixture to the script's format in a fresh folder,
 * makes each commit line, and after a refused commit checks the model's files are byte-identical
 * to before it; at the end asks {@link Dl4jOracle} whether DL4J agrees with what ModelFS shows.
 * A line whose commit is refused is a refusal, not a failure; a refusal that changed the model, an
 * exception that is not the API's (a {@code NullPointerException}, a commit failing with a
 * {@code RuntimeException}), a CLI command that throws, files left beside the model, and every
 * disagreement of the oracle are failures ({@code "<class>: <detail>"}).
 */
final class OracleRun {
  private OracleRun() {}

  /** The outcome: failures (empty: the script passed) and a log of each commit. */
  record Result(List<String> failures, List<String> log) {}

  static Result run(OracleScript s, Path dir) throws IOException {
    List<String> failures = new ArrayList<>();
    List<String> log = new ArrayList<>();
    Path home = Files.createDirectories(dir.resolve("model"));
    Path scratch = Files.createDirectories(dir.resolve("scratch"));
    ModelFormat format = Codecs.fromToken(s.format());
    Path model = home.resolve("m" + extension(format));
    Path fixture = Dl4jFixtures.model(s.fixture());
    if (format == ModelFormat.FB) {
      Files.copy(fixture, model);
    } else {
      try (Model m = Models.open(fixture)) {
        ModelFiles.write(m.newest(), model, WriteOptions.of(format).withMaxShardBytes(512));
      }
    }
    int n = 0;
    for (String line : s.commits()) {
      n++;
      Map<String, byte[]> before = files(home);
      String outcome;
      try {
        outcome = commit(line, model, scratch, n, failures);
      } catch (IOException e) {
        outcome = "refused: " + e;
        if (!sameFiles(before, files(home))) {
          failures.add("refused commit changed the model: line " + n + " (" + e + ")");
        }
      } catch (RuntimeException e) {
        outcome = "threw " + e;
        failures.add("commit throws " + e.getClass().getSimpleName() + ": line " + n + ": " + e);
      }
      log.add(n + ": " + outcome);
      for (String name : files(home).keySet()) {
        if (name.startsWith(".")) {
          failures.add("file left beside the model: " + name + " after line " + n);
        }
      }
    }
    List<String> disagreements = Dl4jOracle.check(model, format, scratch, s.fixture());
    failures.addAll(disagreements);
    if (!disagreements.isEmpty()) {
      ByteArrayOutputStream sink = new ByteArrayOutputStream();
      try (PrintStream o = new PrintStream(sink, true, StandardCharsets.UTF_8)) {
        if (Main.run(new String[] {"verify", model.toString()}, o, o) == 0) {
          failures.add("verify is clean on a model DL4J disagrees with: " + disagreements.get(0));
        }
      }
    }
    return new Result(failures, log);
  }

  static String extension(ModelFormat f) {
    return f.extension();
  }

  /** Makes one commit line; returns "ok …", or throws the IOException that refused it. */
  private static String commit(String line, Path model, Path scratch, int n, List<String> failures) throws IOException {
    String kind = line.substring(0, line.indexOf('\t'));
    List<List<String>> parts = OracleScript.parts(line);
    switch (kind) {
      case "fs": {
        List<String> skipped = new ArrayList<>();
        try (FileSystem fs = ModelFileSystems.open(model)) {
          for (List<String> op : parts) {
            try {
              OracleFsOps.apply(fs, op, scratch);
            } catch (IOException | IllegalArgumentException | UnsupportedOperationException e) {
              skipped.add(op.get(0) + ": " + e);
            } catch (RuntimeException e) {
              failures.add("operation throws " + e.getClass().getSimpleName() + ": line " + n + " " + op + ": " + e);
            }
          }
        }
        return "ok" + (skipped.isEmpty() ? "" : " (operations refused: " + skipped + ")");
      }
      case "json": {
        try (FileSystem fs = ModelFileSystems.open(model)) {
          Path gj = fs.getPath("/graph.json");
          byte[] edited = OracleJsonEdits.apply(Files.readAllBytes(gj), parts);
          Files.write(gj, edited);
        }
        return "ok";
      }
      case "cli": {
        List<String> args = new ArrayList<>();
        for (String t : parts.get(0)) {
          args.add(cliArg(t, model, scratch));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
          rc = Main.run(args.toArray(new String[0]), o, e);
        }
        String msg = err.toString(StandardCharsets.UTF_8).strip();
        if (rc != 0) {
          throw new IOException("exit " + rc + ": " + msg);
        }
        return "ok";
      }
      default:
        throw new IllegalArgumentException("unknown line kind " + kind);
    }
  }

  /** {@code MODEL…} → the model's path; {@code @npy:…}, {@code @st:…}, {@code @bin:…}, {@code @out:…} → a scratch file. */
  private static String cliArg(String t, Path model, Path scratch) throws IOException {
    if (t.startsWith("MODEL")) {
      return model + t.substring("MODEL".length());
    }
    if (!t.startsWith("@")) {
      return t;
    }
    String[] p = t.substring(1).split(":", -1);
    Path f;
    switch (p[0]) {
      case "npy" -> f = Files.write(scratch.resolve("in-" + p[3] + ".npy"), OracleFiles.npy(p[1], OracleFiles.shape(p[2]), Long.parseLong(p[3])));
      case "st" -> f = Files.write(scratch.resolve("in-" + p[4] + ".safetensors"),
          OracleFiles.safetensors(p[1], p[2], OracleFiles.shape(p[3]), Long.parseLong(p[4])));
      case "bin" -> f = Files.write(scratch.resolve("in-" + p[2] + ".bin"),
          OracleFiles.elements("BYTE", Long.parseLong(p[1]), Long.parseLong(p[2])));
      case "out" -> f = scratch.resolve(p[1]);
      default -> throw new IllegalArgumentException("unknown file token " + t);
    }
    return f.toString();
  }

  /** Every file below {@code dir} (hidden ones too) with its bytes. */
  static Map<String, byte[]> files(Path dir) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (!p.equals(dir)) {
          out.put(dir.relativize(p).toString(), Files.isRegularFile(p) ? Files.readAllBytes(p) : new byte[0]);
        }
      }
    }
    return out;
  }

  static boolean sameFiles(Map<String, byte[]> a, Map<String, byte[]> b) {
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    for (Map.Entry<String, byte[]> e : a.entrySet()) {
      if (!Arrays.equals(e.getValue(), b.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          if (!Files.exists(t)) {
            Files.createDirectory(t);
          }
        } else {
          Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
