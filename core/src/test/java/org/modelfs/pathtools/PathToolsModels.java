package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.modelfs.JournaledFileSystem;
import org.modelfs.cli.Main;

/**
 * The models of the pathtools suite, made with public means only: the DL4J fixture
 * {@code mlp_adam.fb} (one tag {@code default}; params {@code &MyParam*},
 * {@code const/scale}, {@code layer0/W} [4,8], {@code layer0/b} [1,8], {@code layer1/W} [8,3],
 * {@code sd_var}; Adam state M and V of the four VARIABLEs), copied as it is or converted to SDZ
 * (which holds several tags) by the command line, as a user would.
 *
 * <p>In its graph every parameter is an op input: {@code layer0/W} of op {@code matmul},
 * {@code layer0/b} of {@code add}, {@code const/scale} of {@code multiply}, {@code layer1/W} of
 * {@code matmul_1}, {@code &MyParam*} of {@code add_1}, {@code sd_var} of
 * {@code softmax_cross_entropy_loss}.
 */
final class PathToolsModels {
  /** The DL4J fixture, relative to the project directory (the tests' working directory). */
  static final Path EXAMPLE = Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1", "mlp_adam.fb");

  /** The parameter files of the example's one tag, relative to {@code params/}. */
  static final List<String> PARAMS = List.of("&MyParam*", "const/scale", "layer0/W", "layer0/b", "layer1/W", "sd_var");

  /** The updater state files of the example's one tag, relative to {@code updater/}. */
  static final List<String> UPDATER = List.of("&MyParam*/M", "&MyParam*/V", "layer0/W/M", "layer0/W/V",
      "layer0/b/M", "layer0/b/V", "layer1/W/M", "layer1/W/V");

  private PathToolsModels() {}

  /** Something done on a mounted model. */
  @FunctionalInterface
  interface FsAction {
    void run(FileSystem fs) throws Exception;
  }

  /** A copy of the fixture {@code .fb} (DL4J's own file) in {@code dir}. */
  static Path fb(Path dir) throws IOException {
    return Files.copy(EXAMPLE, dir.resolve("mlp.fb"));
  }

  /** The fixture converted to SDZ by {@code modelfs convert}: one tag, {@code default}. */
  static Path sdz(Path dir) {
    Path out = dir.resolve("mlp.sdz");
    cli("convert", EXAMPLE.toString(), out.toString());
    return out;
  }

  /** {@link #sdz} plus a tag {@code v1} cloned from {@code default} by {@code modelfs tag add}: tags default, v1 (newest). */
  static Path twoTagSdz(Path dir) {
    Path out = sdz(dir);
    cli("tag", "add", out.toString(), "v1", "--from", "default");
    return out;
  }

  /** Runs the command line; it must succeed. */
  static void cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = Main.run(args, o, e);
    }
    assertEquals(0, code, () -> String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
  }

  static void commit(FileSystem fs) throws IOException {
    ((JournaledFileSystem) fs).commit();
  }

  static void rollback(FileSystem fs) throws IOException {
    ((JournaledFileSystem) fs).rollback();
  }

  /** Names in {@code dir}, sorted. */
  static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** Every regular file below {@code dir}: path relative to {@code dir} → bytes. */
  static Map<String, byte[]> files(Path dir) throws IOException {
    Map<String, byte[]> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        m.put(dir.relativize(p).toString(), Files.readAllBytes(p));
      }
    }
    return m;
  }

  /** {@code Files.size} without the checked exception, for lambdas. */
  static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code graph.json} of the newest tag. */
  static String graphJson(FileSystem fs) throws IOException {
    return Files.readString(fs.getPath("/graph.json"));
  }

  /** Variable names of a {@code graph.json}: each {@code "name"} of its {@code "variables"} list. */
  static List<String> variables(String graphJson) {
    int from = graphJson.indexOf("\"variables\"");
    int to = graphJson.indexOf("\"ops\"");
    return strings(Pattern.compile("\"name\":\\s*(\"(?:[^\"\\\\]|\\\\.)*\")"), graphJson.substring(from, to));
  }

  /** Every op's input names of a {@code graph.json}, all ops together (the {@code "inputs"} arrays). */
  static List<String> opInputs(String graphJson) {
    List<String> all = new ArrayList<>();
    Matcher m = Pattern.compile("\"inputs\":\\s*\\[([^\\]]*)\\]").matcher(graphJson);
    while (m.find()) {
      all.addAll(strings(Pattern.compile("(\"(?:[^\"\\\\]|\\\\.)*\")"), m.group(1)));
    }
    return all;
  }

  private static List<String> strings(Pattern p, String s) {
    List<String> out = new ArrayList<>();
    Matcher m = p.matcher(s);
    while (m.find()) {
      String q = m.group(1);
      out.add(q.substring(1, q.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    return out;
  }
}
