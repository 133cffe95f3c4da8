package org.modelfs.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.cli.Main;

/**
 * The example programs of {@code examples/src} (compiled with the test sources, see the pom) run
 * here, each with explicit paths and with its defaults, and what they did is checked through the
 * file system: the values printed are the model's, the copy landed, the average is the mean, the
 * metadata is there. The bundled {@code examples/mlp.fb} must be left as it is, and the programs
 * must use only the public API and compile and run one file at a time, as
 * {@code examples/README.md} runs them ({@code java -cp modelfs.jar ReadParameter.java}).
 */
class ExamplesTest {
  /**
   * The programs run as examples/README.md runs them, from the repository's root: the surefire
   * execution "examples" (core/pom.xml) sets that directory and this property. Elsewhere (a
   * {@code -Dtest=ExamplesTest} run of the default execution, in core/) the class is skipped.
   */
  @BeforeAll
  static void fromTheRepositoryRoot() {
    Assumptions.assumeTrue("from-root".equals(System.getProperty("modelfs.examples")),
        "runs in the surefire execution 'examples', from the repository's root");
  }

  static final Path MODEL = Path.of("examples", "mlp.fb");
  static final Path SOURCES = Path.of("examples", "src", "org", "modelfs", "examples");
  static final List<String> PROGRAMS = List.of("ReadParameter", "CopyParameters", "RenameLayer",
      "AverageCheckpoints", "EditMetadata", "EditGraph");
  static final List<String> PARAMS = List.of("layer0/W", "layer0/b", "layer1/W", "layer1/b");
  static final Map<String, long[]> SHAPES = Map.of("layer0/W", new long[] {4, 16}, "layer0/b", new long[] {16},
      "layer1/W", new long[] {16, 3}, "layer1/b", new long[] {3});
  /** Public API: the {@code org.modelfs} package itself, nothing below it. */
  static final Set<String> API = Set.of("org.modelfs.ModelFileSystems", "org.modelfs.JournaledFileSystem",
      "org.modelfs.SamediffFileAttributes", "org.modelfs.SamediffFileAttributeView");

  @TempDir Path tmp;
  /** Temp dirs the programs made on their own (printed as "working in DIR"), removed after each test. */
  private final List<Path> madeByPrograms = new ArrayList<>();

  @FunctionalInterface
  interface Program {
    void main(String[] args) throws Exception;
  }

  @AfterEach
  void removeProgramTempDirs() throws IOException {
    for (Path d : madeByPrograms) {
      try (Stream<Path> s = Files.walk(d)) {
        for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
          Files.delete(p);
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // the example model

  @Test
  void theExampleModelIsTheDocumentedMlp() throws Exception {
    try (FileSystem fs = ModelFileSystems.open(MODEL, Map.of("readOnly", true))) {
      assertEquals(List.of("tags"), names(fs.getPath("/")));
      assertEquals(List.of("default"), names(fs.getPath("/tags")));
      assertEquals(PARAMS, files(fs.getPath("/params")));
      for (String p : PARAMS) {
        SamediffFileAttributes a = Files.readAttributes(fs.getPath("/params", p), SamediffFileAttributes.class);
        assertEquals("VARIABLE FLOAT " + Arrays.toString(SHAPES.get(p)) + " c",
            a.kind() + " " + a.dtype() + " " + Arrays.toString(a.shape()) + " " + a.order(), p);
        for (String key : List.of("M", "V")) {
          SamediffFileAttributes s = Files.readAttributes(fs.getPath("/updater", p, key), SamediffFileAttributes.class);
          assertEquals("UPDATER FLOAT " + Arrays.toString(SHAPES.get(p)),
              s.kind() + " " + s.dtype() + " " + Arrays.toString(s.shape()), p + "/" + key);
        }
      }
      assertEquals(8, files(fs.getPath("/updater")).size());
      String training = Files.readString(fs.getPath("/training.json"));
      assertTrue(training.contains("org.nd4j.linalg.learning.config.Adam"), training);
      assertTrue(training.contains("\"iterationCount\" : 5"), training);
      assertEquals(List.of(), files(fs.getPath("/metadata")));
      String graph = Files.readString(fs.getPath("/graph.json"));
      for (String name : List.of("\"input\"", "\"label\"", "\"output\"", "\"loss\"", "\"logits\"", "\"layer0/out\"")) {
        assertTrue(graph.contains(name), name);
      }
      assertFalse(graph.contains("sd_var"), "no unnamed constants");
    }
    assertTrue(Files.size(MODEL) < 16 * 1024, "a few KB");
  }

  // ------------------------------------------------------------------------------------------
  // the programs, one by one

  @Test
  void readParameterPrintsTheMappedValues() throws Exception {
    for (String param : List.of("layer0/W", "layer1/W", "layer1/b")) {
      String out = run(ReadParameter::main, MODEL.toString(), param);
      long[] shape = SHAPES.get(param);
      assertTrue(out.contains(": VARIABLE FLOAT " + Arrays.toString(shape) + ", order c"), out);
      float[] want = floats(MODEL, "/params/" + param);
      assertTrue(out.contains("mapped " + want.length + " floats"), out);
      int cols = shape.length == 2 ? (int) shape[1] : want.length;
      Matcher m = Pattern.compile("(?m)^row (\\d+):((?: -?\\d+\\.\\d+)+)").matcher(out);
      int rows = 0;
      for (; m.find(); rows++) {
        int r = Integer.parseInt(m.group(1));
        String[] v = m.group(2).trim().split(" ");
        assertEquals(Math.min(cols, 6), v.length, m.group());
        for (int c = 0; c < v.length; c++) {
          assertEquals(want[r * cols + c], Float.parseFloat(v[c]), 1e-6, param + " [" + r + "," + c + "]");
        }
      }
      assertEquals(Math.min(want.length / cols, 4), rows, out);
      double mean = 0;
      for (float f : want) {
        mean += f;
      }
      assertTrue(out.contains(String.format("mean %.6f", mean / want.length)), out);
      assertTrue(out.contains("updater state /updater/" + param + "/M: FLOAT " + Arrays.toString(shape)), out);
      assertTrue(out.contains("updater state /updater/" + param + "/V: FLOAT " + Arrays.toString(shape)), out);
    }
  }

  @Test
  void copyParametersIntoANewModel() throws Exception {
    for (String name : List.of("layer0.sdnb", "layer0.fb")) {
      Path dst = tmp.resolve(name);
      String out = run(CopyParameters::main, MODEL.toString(), dst.toString(), "layer0");
      assertTrue(out.contains("created " + dst), out);
      try (FileSystem fs = ModelFileSystems.open(dst, Map.of("readOnly", true))) {
        assertEquals(List.of("layer0/W", "layer0/b"), files(fs.getPath("/params")));
        for (String p : List.of("layer0/W", "layer0/b")) {
          assertArrayEquals(bytes(MODEL, "/params/" + p), Files.readAllBytes(fs.getPath("/params", p)), p);
          assertArrayEquals(SHAPES.get(p), (long[]) Files.getAttribute(fs.getPath("/params", p), "samediff:shape"), p);
        }
        assertEquals(List.of(), files(fs.getPath("/updater")), "a new model gets no updater state");
      }
    }
  }

  @Test
  void copyParametersIntoAnExistingCheckpointReplacesTheLayerAndItsUpdaterState() throws Exception {
    Path dst = Files.copy(MODEL, tmp.resolve("other.fb"));
    List<String> zeroed = List.of("/params/layer0/W", "/params/layer0/b", "/params/layer1/b",
        "/updater/layer0/W/M", "/updater/layer0/b/V", "/updater/layer1/b/M");
    try (FileSystem fs = ModelFileSystems.open(dst)) {
      for (String p : zeroed) {
        Files.write(fs.getPath(p), new byte[(int) Files.size(fs.getPath(p))]);
      }
    }
    String out = run(CopyParameters::main, MODEL.toString(), dst.toString(), "layer0");
    assertTrue(out.contains("updated " + dst), out);
    try (FileSystem fs = ModelFileSystems.open(dst, Map.of("readOnly", true))) {
      assertEquals(files(mount(MODEL).getPath("/params")), files(fs.getPath("/params")));
      for (String p : List.of("/params/layer0/W", "/params/layer0/b", "/updater/layer0/W/M", "/updater/layer0/W/V",
          "/updater/layer0/b/M", "/updater/layer0/b/V", "/params/layer1/W")) {
        assertArrayEquals(bytes(MODEL, p), Files.readAllBytes(fs.getPath(p)), p + " is the source's");
      }
      for (String p : List.of("/params/layer1/b", "/updater/layer1/b/M")) {
        assertArrayEquals(new byte[(int) Files.size(fs.getPath(p))], Files.readAllBytes(fs.getPath(p)),
            p + " (not in layer0) is as it was");
      }
      assertEquals(Files.readString(mount(MODEL).getPath("/graph.json")), Files.readString(fs.getPath("/graph.json")),
          "the graph is untouched");
    }
  }

  @Test
  void renameLayerRenamesParametersUpdaterStateAndGraphNames() throws Exception {
    Path m = Files.copy(MODEL, tmp.resolve("m.fb"));
    String out = run(RenameLayer::main, m.toString(), "layer0", "encoder0");
    assertTrue(out.contains("moved /params/layer0 -> /params/encoder0"), out);
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      assertEquals(List.of("encoder0/W", "encoder0/b", "layer1/W", "layer1/b"), files(fs.getPath("/params")));
      for (String p : List.of("W", "b")) {
        assertArrayEquals(bytes(MODEL, "/params/layer0/" + p), Files.readAllBytes(fs.getPath("/params/encoder0", p)));
        for (String key : List.of("M", "V")) {
          assertArrayEquals(bytes(MODEL, "/updater/layer0/" + p + "/" + key),
              Files.readAllBytes(fs.getPath("/updater/encoder0", p, key)), p + "/" + key);
        }
      }
      String graph = Files.readString(fs.getPath("/graph.json"));
      assertTrue(graph.contains("\"encoder0/W\""), "the graph's variable is renamed");
      assertFalse(graph.contains("\"layer0/W\""), "no variable keeps the old name");
    }
  }

  @Test
  void averageCheckpointsDemoWritesTheMeanOfThreeTagsIntoANewTag() throws Exception {
    String out = run(AverageCheckpoints::main);
    Path sdz = workDir(out).resolve("checkpoints.sdz");
    assertTrue(out.contains("tags of " + sdz + ": [step1, step2, step3, avg]"), out);
    try (FileSystem fs = ModelFileSystems.open(sdz, Map.of("readOnly", true))) {
      double[] scales = {0.9, 1.0, 1.2};
      for (String p : PARAMS) {
        float[] original = floats(MODEL, "/params/" + p);
        List<float[]> steps = new ArrayList<>();
        for (int k = 1; k <= 3; k++) {
          float[] s = floats(fs.getPath("/tags/step" + k + "/params", p));
          for (int i = 0; i < s.length; i++) {
            assertEquals((float) (original[i] * scales[k - 1]), s[i], "step" + k + " " + p + "[" + i + "]");
          }
          steps.add(s);
        }
        assertArrayEquals(mean(steps), floats(fs.getPath("/tags/avg/params", p)), p);
      }
      assertEquals(List.of(), files(fs.getPath("/tags/avg/updater")), "no updater state in the average");
      assertArrayEquals(Files.readAllBytes(fs.getPath("/tags/step3/graph")), Files.readAllBytes(fs.getPath("/tags/avg/graph")));
      assertEquals(Files.readString(fs.getPath("/tags/step3/training.json")), Files.readString(fs.getPath("/tags/avg/training.json")));
      assertEquals(8, files(fs.getPath("/tags/step1/updater")).size(), "the checkpoints keep theirs");
    }
    // modelfs avg computes the same means (summed in double in the order listed, rounded once)
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(0, Main.run(new String[] {"avg", sdz.toString(), "--tags", "step1,step2,step3", "--into", "cli"},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)), err.toString(StandardCharsets.UTF_8));
    try (FileSystem fs = ModelFileSystems.open(sdz, Map.of("readOnly", true))) {
      for (String p : PARAMS) {
        assertArrayEquals(Files.readAllBytes(fs.getPath("/tags/cli/params", p)),
            Files.readAllBytes(fs.getPath("/tags/avg/params", p)), p + ": the program and modelfs avg agree");
      }
    }
  }

  @Test
  void averageCheckpointsOfSeparateFilesIntoANewModel() throws Exception {
    Path a = Files.copy(MODEL, tmp.resolve("a.fb"));
    Path b = Files.copy(MODEL, tmp.resolve("b.fb"));
    try (FileSystem fs = ModelFileSystems.open(b)) { // a second "checkpoint": every weight + 0.5
      for (String p : PARAMS) {
        float[] v = floats(fs.getPath("/params", p));
        ByteBuffer bb = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
          bb.putFloat(f + 0.5f);
        }
        Files.write(fs.getPath("/params", p), bb.array());
      }
    }
    for (String name : List.of("mean.fb", "mean.sdz")) {
      Path out = tmp.resolve(name);
      run(AverageCheckpoints::main, out.toString(), a.toString(), b + "#default");
      try (FileSystem fs = ModelFileSystems.open(out, Map.of("readOnly", true))) {
        assertEquals(PARAMS, files(fs.getPath("/params")), name);
        for (String p : PARAMS) {
          assertArrayEquals(mean(List.of(floats(a, "/params/" + p), floats(b, "/params/" + p))),
              floats(fs.getPath("/params", p)), name + " " + p);
          assertArrayEquals(SHAPES.get(p), (long[]) Files.getAttribute(fs.getPath("/params", p), "samediff:shape"));
        }
        assertEquals(Files.readString(mount(b).getPath("/graph.json")), Files.readString(fs.getPath("/graph.json")),
            name + ": the last input's graph");
      }
    }
    // an existing file is not overwritten
    assertThrows(FileAlreadyExistsException.class,
        () -> run(AverageCheckpoints::main, a.toString(), a.toString(), b.toString()));
    assertArrayEquals(Files.readAllBytes(MODEL), Files.readAllBytes(a));
  }

  @Test
  void editMetadataSetsReadsAndRemovesKeys() throws Exception {
    String out = run(EditMetadata::main);
    Path sdz = workDir(out).resolve("mlp.sdz");
    byte[] magic = Arrays.copyOf(Files.readAllBytes(sdz), 2);
    assertArrayEquals("PK".getBytes(StandardCharsets.US_ASCII), magic, "the copy was committed as SDZ (a zip)");
    assertTrue(out.contains("  author = ModelFS examples"), out);
    Path edited = Files.copy(sdz, tmp.resolve("edited.sdz"));
    out = run(EditMetadata::main, edited.toString(), "author=", "license=Apache-2.0", "notes/training=more steps");
    try (FileSystem fs = ModelFileSystems.open(edited, Map.of("readOnly", true))) {
      assertFalse(Files.exists(fs.getPath("/metadata/author")), out);
      assertEquals("Apache-2.0", Files.readString(fs.getPath("/metadata/license")));
      assertEquals("more steps", Files.readString(fs.getPath("/metadata/notes/training")));
      assertEquals("synthetic, 3 classes, 24 points", Files.readString(fs.getPath("/metadata/dataset")));
      for (String p : PARAMS) {
        assertArrayEquals(bytes(MODEL, "/params/" + p), Files.readAllBytes(fs.getPath("/params", p)), p);
      }
    }
    assertTrue(out.contains("  license = Apache-2.0"), out);
  }

  @Test
  void editMetadataOfAnFbModelIsRefusedAndChangesNothing() throws Exception {
    Path fb = Files.copy(MODEL, tmp.resolve("m.fb"));
    IOException e = assertThrows(IOException.class, () -> run(EditMetadata::main, fb.toString(), "author=me"));
    assertTrue(e.getMessage().contains("metadata"), e.getMessage());
    assertArrayEquals(Files.readAllBytes(MODEL), Files.readAllBytes(fb));
  }

  @Test
  void editGraphChangesOneArgumentAndRefusesABadOne() throws Exception {
    String out = run(EditGraph::main);
    assertTrue(out.contains("now shows relu scalar: 0.1"), out);
    Path m = Files.copy(MODEL, tmp.resolve("m.fb"));
    out = run(EditGraph::main, m.toString(), "matmul", "tArgs.alpha=2.0");
    assertTrue(out.contains("matmul tArgs.alpha: 1.0 -> 2.0"), out);
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      String json = Files.readString(fs.getPath("/graph.json"));
      assertTrue(json.contains("\"alpha\": 2.0"), "the first matmul's alpha");
      for (String p : PARAMS) {
        assertArrayEquals(bytes(MODEL, "/params/" + p), Files.readAllBytes(fs.getPath("/params", p)), p);
      }
    }
    byte[] before = Files.readAllBytes(m);
    out = run(EditGraph::main, m.toString(), "softmax", "iArgs.dimension=\"one\"");
    assertTrue(out.contains("refused: ") && out.contains("op 'softmax' (softmax), iArgs \"dimension\" (position 0):"
        + " expected an integer, found \"one\""), out);
    assertArrayEquals(before, Files.readAllBytes(m), "a refused edit changes nothing");
  }

  // ------------------------------------------------------------------------------------------
  // all of them

  @Test
  void everyProgramRunsWithItsDefaultsAndLeavesTheExampleAsItIs() throws Exception {
    String sha = sha256(MODEL);
    List<String> listing = listing(Path.of("examples"));
    Map<String, Program> programs = new LinkedHashMap<>();
    programs.put("ReadParameter", ReadParameter::main);
    programs.put("CopyParameters", CopyParameters::main);
    programs.put("RenameLayer", RenameLayer::main);
    programs.put("AverageCheckpoints", AverageCheckpoints::main);
    programs.put("EditMetadata", EditMetadata::main);
    programs.put("EditGraph", EditGraph::main);
    assertEquals(PROGRAMS, List.copyOf(programs.keySet()));
    for (Map.Entry<String, Program> e : programs.entrySet()) {
      String out = run(e.getValue());
      assertFalse(out.isBlank(), e.getKey() + " says what it does");
      if (!e.getKey().equals("ReadParameter")) {
        assertNotNull(workDir(out), e.getKey() + " works in a temp dir");
      }
      assertEquals(sha, sha256(MODEL), e.getKey() + " left examples/mlp.fb as it is");
      assertEquals(listing, listing(Path.of("examples")), e.getKey() + " left nothing in examples/");
    }
  }

  @Test
  void programsUseOnlyThePublicApiAndEachIsListedHere() throws Exception {
    List<String> found;
    try (Stream<Path> s = Files.list(SOURCES)) {
      found = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".java"))
          .map(n -> n.substring(0, n.length() - 5)).sorted().toList();
    }
    assertEquals(PROGRAMS.stream().sorted().toList(), found, "every program in examples/src is run by this test");
    Pattern imports = Pattern.compile("(?m)^import\\s+(static\\s+)?([\\w.]+)\\s*;");
    for (String name : PROGRAMS) {
      String src = Files.readString(SOURCES.resolve(name + ".java"));
      assertTrue(src.contains("public static void main(String[] args)"), name + " has a main");
      Matcher m = imports.matcher(src);
      while (m.find()) {
        String imported = m.group(2);
        assertTrue(imported.startsWith("java.") || API.contains(imported), name + " imports " + imported
            + ": the examples use java.* and the public org.modelfs API only");
      }
      assertFalse(src.replaceAll("(?m)^import .*$", "").matches("(?s).*\\borg\\.modelfs\\.(?!examples\\b)\\w+\\.\\w.*"),
          name + " names no internal package");
    }
  }

  @Test
  void eachProgramCompilesOnItsOwnAgainstTheLibrary() throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    String cp = libraryClassPath();
    for (String name : PROGRAMS) {
      Path out = Files.createDirectories(tmp.resolve("classes-" + name));
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int rc = javac.run(null, null, err, "-d", out.toString(), "-cp", cp, "-proc:none", "-Xlint:all,-path", "-Werror",
          SOURCES.resolve(name + ".java").toString());
      assertEquals(0, rc, name + " alone: " + err.toString(StandardCharsets.UTF_8));
    }
  }

  /** As examples/README.md runs them: Java's single-file source launch, the library on the class path. */
  @Test
  void readParameterRunsAsASingleSourceFile() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-cp", libraryClassPath(),
        SOURCES.resolve("ReadParameter.java").toString(), MODEL.toString(), "layer1/b")
        .redirectErrorStream(true).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    float[] b = floats(MODEL, "/params/layer1/b");
    assertTrue(out.contains(String.format("row 0: %.6f %.6f %.6f", b[0], b[1], b[2])), out);
  }

  /**
   * In a JVM of their own, as a user runs them: a default run's temporary directory is gone when
   * the program ends, and run outside the project a program says where it looked for the example
   * model and how to name one, with exit code 2 and no stack trace.
   */
  @Test
  void aDefaultRunCleansUpAndOutsideTheProjectSaysWhatIsMissing() throws Exception {
    String out = java(Path.of("").toAbsolutePath(), "EditGraph", 0);
    Matcher m = Pattern.compile("(?m)^working in (.+)$").matcher(out);
    assertTrue(m.find(), out);
    assertFalse(Files.exists(Path.of(m.group(1))), "the program removed " + m.group(1) + " when it ended");
    for (String program : PROGRAMS) {
      String err = java(tmp, program, 2);
      assertTrue(err.startsWith(program + ": no example model at " + tmp.toRealPath().resolve("examples/mlp.fb")
          + ": run it from the ModelFS project's directory, or name a model: " + program + " "), err);
      assertFalse(err.contains("Exception") || err.contains("\tat "), err);
      try (Stream<Path> made = Files.list(tmp)) {
        assertEquals(List.of(), made.toList(), program + " made nothing where it ran");
      }
    }
  }

  /** {@code java org.modelfs.examples.PROGRAM} in {@code dir}: its output (stdout and stderr), after checking its exit code. */
  private static String java(Path dir, String program, int exitCode) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        "org.modelfs.examples." + program).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished");
    assertEquals(exitCode, p.exitValue(), program + ": " + out);
    return out;
  }

  // ------------------------------------------------------------------------------------------

  /** Runs {@code main(args)} with {@code System.out} captured (and echoed to the test log). */
  private static String run(Program program, String... args) throws Exception {
    PrintStream stdout = System.out;
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(b, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      program.main(args);
    } finally {
      System.setOut(stdout);
    }
    return b.toString(StandardCharsets.UTF_8);
  }

  /** The temp dir a program made for its default run ("working in DIR"); removed after the test. */
  private Path workDir(String out) {
    Matcher m = Pattern.compile("(?m)^working in (.+)$").matcher(out);
    assertTrue(m.find(), out);
    Path dir = Path.of(m.group(1));
    madeByPrograms.add(dir);
    return dir;
  }

  /** The class path of the library alone: the test class path without the test classes (where the examples are compiled). */
  private static String libraryClassPath() throws Exception {
    Path testClasses = Path.of(ExamplesTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.isEmpty() && !Path.of(e).toAbsolutePath().equals(testClasses.toAbsolutePath()))
        .collect(Collectors.joining(File.pathSeparator));
  }

  private final List<FileSystem> mounts = new ArrayList<>();

  /** A read-only mount of {@code model}, closed after the test. */
  private FileSystem mount(Path model) throws IOException {
    FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true));
    mounts.add(fs);
    return fs;
  }

  @AfterEach
  void closeMounts() throws IOException {
    for (FileSystem fs : mounts) {
      fs.close();
    }
  }

  private static byte[] bytes(Path model, String path) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      return Files.readAllBytes(fs.getPath(path));
    }
  }

  private static float[] floats(Path model, String path) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      return floats(fs.getPath(path));
    }
  }

  private static float[] floats(Path p) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    float[] f = new float[b.capacity() / 4];
    b.asFloatBuffer().get(f);
    return f;
  }

  /** Summed in double in order, divided, rounded once to float. */
  private static float[] mean(List<float[]> arrays) {
    float[] m = new float[arrays.get(0).length];
    for (int i = 0; i < m.length; i++) {
      double s = 0;
      for (float[] a : arrays) {
        s += a[i];
      }
      m[i] = (float) (s / arrays.size());
    }
    return m;
  }

  /** The regular files below {@code dir}, relative to it, sorted. */
  private static List<String> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }

  /** Every path below {@code dir} with its size, for "nothing changed here". */
  private static List<String> listing(Path dir) throws IOException {
    Map<String, Long> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        m.put(dir.relativize(p).toString(), Files.isRegularFile(p) ? Files.size(p) : -1);
      }
    }
    return m.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList();
  }

  private static String sha256(Path p) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
  }
}
