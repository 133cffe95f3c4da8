package org.modelfs.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.hostile.LoadableCommitsCpIntoAndSharedChannelsTest;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Issue 20, item 1: every fb ModelFS commits must load in real DL4J 1.0.0-M2.1
 * ({@code SameDiff.load(file, true)}). For each scenario the commit is either refused (an
 * IOException from commit/close, or a non-zero CLI exit) and the model is byte-identical, or it
 * is accepted and DL4J loads the result. Some scenarios must be accepted (valid changes).
 *
 * <p>HOW IT FAILS TODAY (2bb93c2): every scenario below that should be refused is accepted by
 * ModelFS and the committed file then fails in DL4J. What DL4J M2.1 does with each committed
 * file (observed on today's code, which accepts them all) is in the table of
 * {@link #everyCommittedFbLoadsInDl4jOrTheCommitIsRefused}. Every test of this class prints its
 * own table to stdout ({@code [issue20]} lines) so the outcome of each case can be read off.
 */
@Tag("interop")
class Dl4jLoadsWhatWeCommitInteropTest {
  @TempDir Path tmp;

  private static final Path EXAMPLE = Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb");

  /** What ModelFS and then DL4J did with one scenario. */
  record Outcome(String name, boolean refused, String refusal, boolean unchanged, String dl4j, String note) {
    boolean loaded() {
      return !refused && dl4j == null;
    }

    @Override
    public String toString() {
      return String.format("%-44s %s", name, refused
          ? "REFUSED by ModelFS (" + refusal + ")" + (unchanged ? ", file unchanged" : ", FILE CHANGED")
          : "accepted; DL4J " + (dl4j == null ? "loads it" : "FAILS: " + dl4j) + (note == null ? "" : " " + note));
    }
  }

  interface Change {
    void apply(FileSystem fs) throws IOException;
  }

  private Path copy(String name) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_")));
    return Files.copy(EXAMPLE, dir.resolve("m.fb"));
  }

  /** Mount a copy, change, commit (close); on failure roll back. Then DL4J loads the file if it was accepted. */
  private Outcome run(String name, Change change) throws IOException {
    Path m = copy(name);
    byte[] before = Files.readAllBytes(m);
    String refusal = null;
    FileSystem fs = ModelFileSystems.open(m);
    try {
      change.apply(fs);
      ((JournaledFileSystem) fs).commit();
    } catch (IOException e) {
      refusal = e.getClass().getSimpleName() + ": " + e.getMessage();
    } catch (RuntimeException e) {
      refusal = "NOT AN IOException: " + e;
    } finally {
      try {
        ((JournaledFileSystem) fs).rollback();
      } finally {
        fs.close();
      }
    }
    return outcome(name, m, before, refusal);
  }

  /** The outcome of a CLI run on a copy: {@code args} with "M" replaced by the copy's path. */
  private Outcome cli(String name, String... args) throws IOException {
    Path m = copy(name);
    byte[] before = Files.readAllBytes(m);
    String[] a = Stream.of(args).map(s -> s.replace("M", m.toString())).toArray(String[]::new);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(a, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
    return outcome(name, m, before, code == 0 ? null : "exit " + code + ": " + err.toString().strip());
  }

  private static Outcome outcome(String name, Path m, byte[] before, String refusal) throws IOException {
    boolean unchanged = Arrays.equals(before, Files.readAllBytes(m));
    String dl4j = null;
    String note = null;
    if (refusal == null) {
      try {
        SameDiff sd = Dl4jSnapshot.loadSameDiff(m);
        assertNotNull(sd);
        note = strings(sd);
      } catch (Throwable t) {
        dl4j = t.getClass().getSimpleName() + ": " + firstLine(t.getMessage());
      }
    }
    Outcome o = new Outcome(name, refusal != null, refusal == null ? null : firstLine(refusal), unchanged, dl4j, note);
    System.out.println("[issue20] " + o);
    return o;
  }

  /** For the UTF8 scenarios: what DL4J reads from the loaded variable "s" (the loader may be lazier than a read). */
  private static String strings(SameDiff sd) {
    if (!sd.hasVariable("s")) {
      return null;
    }
    try {
      INDArray s = sd.getVariable("s").getArr();
      List<String> out = new ArrayList<>();
      for (int i = 0; i < s.length(); i++) {
        out.add(s.getString(i));
      }
      return "(reads strings " + out + ")";
    } catch (Throwable t) {
      return "(but reading the strings throws " + t.getClass().getSimpleName() + ": " + firstLine(t.getMessage()) + ")";
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "null";
    }
    String l = s.strip().lines().findFirst().orElse("");
    return l.length() > 160 ? l.substring(0, 160) + "…" : l;
  }

  /** Asserts: refused with the file unchanged, or accepted and DL4J loads it. */
  private static void refusedOrLoads(List<String> problems, Outcome o) {
    if (o.refused() && uncheckedRefusal(o)) {
      problems.add(o + " — refused with an unchecked exception, not an IOException");
    } else if (o.refused() && !o.unchanged()) {
      problems.add(o + " — refused but the model file changed");
    } else if (!o.refused() && o.dl4j() != null) {
      problems.add(o + " — ModelFS committed a file DL4J cannot load");
    }
  }

  /** Asserts: refused, and the file unchanged. */
  private static void refused(List<String> problems, Outcome o) {
    if (!o.refused() || !o.unchanged() || uncheckedRefusal(o)) {
      problems.add(o + " — must be refused (with an IOException) and the file unchanged");
    }
  }

  /** A "refusal" that was a crash: a RuntimeException instead of an IOException naming the problem. */
  private static boolean uncheckedRefusal(Outcome o) {
    return o.refusal() != null && o.refusal().startsWith("NOT AN IOException");
  }

  /** Asserts: accepted and DL4J loads it. */
  private static void loads(List<String> problems, Outcome o) {
    if (!o.loaded()) {
      problems.add(o + " — must be accepted and load in DL4J");
    }
  }

  private static void assertNone(List<String> problems) {
    assertTrue(problems.isEmpty(), problems.size() + " problem(s):\n  " + String.join("\n  ", problems));
  }

  private static void deleteUpdaterState(FileSystem fs) throws IOException {
    try (Stream<Path> s = Files.walk(fs.getPath("/updater"))) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Files.delete(p);
      }
    }
  }

  private static String originalTraining() throws IOException {
    try (FileSystem fs = ModelFileSystems.open(EXAMPLE, Map.of("readOnly", true))) {
      return Files.readString(fs.getPath("/training.json"));
    }
  }

  /** training.json texts that are not a TrainingConfig DL4J can read (the unit suite's table). */
  static Map<String, String> badTrainingJson() {
    return LoadableCommitsCpIntoAndSharedChannelsTest.badTrainingJson();
  }

  /**
   * Items 1a, 1b, 1c. FAILS TODAY (2bb93c2): 20 problems — ModelFS accepts every scenario that
   * must be refused and commits a file DL4J cannot load. The table for the implementer
   * (observed on 2bb93c2, where ModelFS accepts every text; the example's Adam state M, V stays
   * unless said otherwise):
   *
   * <pre>
   * scenario                                   DL4J M2.1 SameDiff.load(file, true)
   * rm /training.json (CLI and API)            NPE: "sd.trainingConfig" is null (getUpdater())
   * rm /training.json + every /updater file    loads
   * /graph without trainingConfig, state kept  NPE: "sd.trainingConfig" is null (since issue 13:
   *                                            training.json stays, and DL4J loads it)
   * hello                                      RuntimeException(JsonParseException: Unrecognized token 'hello')
   * hello, no updater state                    same: DL4J parses training.json even without state
   * {"updater":                                RuntimeException(JsonEOFException)
   * []                                         RuntimeException(MismatchedInputException: ... TrainingConfig from Array value)
   * {"minimize": "yes"}                        RuntimeException(InvalidFormatException: boolean from String "yes")
   * updater @class ...config.Nope              RuntimeException(InvalidTypeIdException: Could not resolve type id)
   * updater without @class                     RuntimeException(InvalidTypeIdException: missing type id)
   * {"iterationCount": "x"}                    RuntimeException(InvalidFormatException: int from String "x")
   * {"initialLossDataType": "NOPE"}            RuntimeException(InvalidFormatException: DataType from "NOPE")
   * comment / NaN / single quotes / trailing , RuntimeException(JsonParseException / JsonMappingException) —
   *                                            strict Jackson: no comments, no NaN, no ' quotes, no trailing comma
   * null  (the JSON literal)                   NPE: "sd.trainingConfig" is null
   * "" and " \n"                               RuntimeException(MismatchedInputException: No content to map)
   * {} with updater state                      NPE: TrainingConfig.getUpdater() is null (IUpdater.instantiate)
   * {} without updater state                   loads
   * original + "bogus": 1                      loads (unknown keys are ignored)
   * original rewritten unchanged               loads
   * </pre>
   */
  @Test
  void everyCommittedFbLoadsInDl4jOrTheCommitIsRefused() throws Exception {
    List<String> problems = new ArrayList<>();
    // 1a: rm /training.json while updater state remains
    refused(problems, cli("1a rm training.json (CLI)", "rm", "M", "/training.json"));
    refused(problems, run("1a delete training.json (API)", fs -> Files.delete(fs.getPath("/training.json"))));
    // removing training.json together with all updater state is fine
    loads(problems, run("1a delete training.json + updater", fs -> {
      Files.delete(fs.getPath("/training.json"));
      deleteUpdaterState(fs);
    }));

    // 1b: a graph without training config, updater state kept. Since issue 13 the training
    // configuration lives in training.json alone: such a graph leaves it in place, and DL4J loads
    // the result with its updater state (docs/FILESYSTEM.md §7)
    byte[] bare = bareGraph();
    loads(problems, run("1b /graph without training config", fs -> Files.write(fs.getPath("/graph"), bare)));

    // 1c: training.json that DL4J cannot read
    for (Map.Entry<String, String> e : badTrainingJson().entrySet()) {
      refused(problems, run("1c training.json " + e.getKey(),
          fs -> Files.writeString(fs.getPath("/training.json"), e.getValue())));
    }
    // DL4J parses training.json even when there is no updater state
    refused(problems, run("1c training.json hello, no updater state", fs -> {
      deleteUpdaterState(fs);
      Files.writeString(fs.getPath("/training.json"), "hello");
    }));
    refused(problems, run("1c training.json {} with updater state",
        fs -> Files.writeString(fs.getPath("/training.json"), "{}")));
    // 1c positive
    String orig = originalTraining();
    loads(problems, run("1c training.json + \"bogus\": 1", fs -> Files.writeString(fs.getPath("/training.json"),
        orig.replaceFirst("\\{", "{ \"bogus\" : 1,"))));
    loads(problems, run("1c training.json {} without updater state", fs -> {
      deleteUpdaterState(fs);
      Files.writeString(fs.getPath("/training.json"), "{}");
    }));
    loads(problems, run("1c training.json unchanged, rewritten", fs -> Files.writeString(fs.getPath("/training.json"), orig)));
    assertNone(problems);
  }

  /**
   * Item 1c, the updater switch: DL4J decides; ModelFS must refuse what DL4J cannot load and
   * accept what it can. FAILS TODAY: 6 problems (every mismatching switch is accepted). DL4J M2.1
   * over the Adam state {M, V} (each updater's state keys must match exactly):
   *
   * <pre>
   * Sgd        IllegalStateException: SGD updater does not have any updater state, attempting to set with 2 values
   * AMSGrad    IllegalStateException: State map should contain only keys [M,V,V_HAT] but has keys [V, M]
   * Nesterovs  IllegalStateException: State map should contain only key [V] ...
   * RmsProp    IllegalStateException: ... only key [G] ...
   * AdaGrad    IllegalStateException: ... only key [grad] ...
   * AdaDelta   IllegalStateException: ... only keys [msg,msdx] ...
   * Nadam      loads (state M, V)        AdaMax  loads (state M, V)
   * Sgd with the updater state deleted: loads (also with Adam's beta1/beta2/epsilon keys left in: ignored)
   * </pre>
   */
  @Test
  void switchingTheUpdaterClassToSgd() throws Exception {
    List<String> problems = new ArrayList<>();
    String orig = originalTraining();
    String sgd = orig.replace("org.nd4j.linalg.learning.config.Adam", "org.nd4j.linalg.learning.config.Sgd")
        .replaceAll(",\\s*\"beta1\"[^,]*,\\s*\"beta2\"[^,]*,\\s*\"epsilon\"[^\\n]*", "");
    System.out.println("[issue20] Sgd training.json: " + sgd);
    // DL4J M2.1: IllegalStateException "SGD updater does not have any updater state, attempting to set with 2 values"
    refused(problems, run("1c Sgd, Adam state M,V kept", fs -> Files.writeString(fs.getPath("/training.json"), sgd)));
    // other updaters over Adam's M,V state: whatever ModelFS accepts, DL4J must load
    for (String u : List.of("Nadam", "AdaMax", "AMSGrad", "Nesterovs", "RmsProp", "AdaGrad", "AdaDelta")) {
      refusedOrLoads(problems, run("1c " + u + ", Adam state M,V kept", fs -> Files.writeString(fs.getPath("/training.json"),
          orig.replace("org.nd4j.linalg.learning.config.Adam", "org.nd4j.linalg.learning.config." + u))));
    }
    Outcome sgdNoState = run("1c Sgd, updater state deleted", fs -> {
      deleteUpdaterState(fs);
      Files.writeString(fs.getPath("/training.json"), sgd);
    });
    loads(problems, sgdNoState);
    Outcome sgdKeepBetas = run("1c Sgd (Adam's beta keys kept), state deleted", fs -> {
      deleteUpdaterState(fs);
      Files.writeString(fs.getPath("/training.json"),
          orig.replace("org.nd4j.linalg.learning.config.Adam", "org.nd4j.linalg.learning.config.Sgd"));
    });
    refusedOrLoads(problems, sgdKeepBetas);
    assertNone(problems);
  }

  /**
   * Item 1d: UTF8 parameters whose offsets are wrong; a valid one DL4J reads back. FAILS TODAY:
   * 5 problems (only "fewer bytes than the offsets" is refused, by today's check of §3.8). DL4J
   * M2.1, for a UTF8 VARIABLE "s" of shape [2]:
   *
   * <pre>
   * offsets 0,4,2 (decreasing)          NegativeArraySizeException: -2 at load
   * offsets 0,3,9 (beyond the data)     loads; getString gives "abc" and "def" + 3 bytes read past the data
   * offsets 1,3,6 (first not 0)         loads, gives "bc", "def" (silently drops a byte)
   * offsets -8,3,6                      loads, gives 8 junk chars (the offset header) + "abc", "def"
   * offsets 0,3,6 with 4 text bytes     loads; getString gives "abc" and "d" + 2 bytes read past the data
   * offsets 0,3 (header cut short)      refused by ModelFS today already
   * offsets 0,3,6 + "abcdef"            loads, "abc", "def"
   * </pre>
   *
   * So DL4J itself only crashes on decreasing offsets; the others load as garbage. ModelFS must
   * refuse all of them.
   */
  @Test
  void utf8ParamsWithBadOffsetsAreRefusedAndAGoodOneLoads() throws Exception {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : badUtf8().entrySet()) {
      refused(problems, run("1d UTF8 " + e.getKey(), fs -> newUtf8(fs, "/params/s", e.getValue())));
    }
    Outcome ok = run("1d UTF8 valid 0,3,6 abcdef", fs -> newUtf8(fs, "/params/s", utf8(new long[] {0, 3, 6}, "abcdef")));
    loads(problems, ok);
    if (ok.loaded()) {
      SameDiff sd = Dl4jSnapshot.loadSameDiff(tmp.resolve("1d_UTF8_valid_0_3_6_abcdef/m.fb"));
      INDArray s = sd.getVariable("s").getArr();
      assertEquals(DataType.UTF8, s.dataType());
      assertEquals(List.of("abc", "def"), List.of(s.getString(0), s.getString(1)));
    }
    assertNone(problems);
  }

  static byte[] utf8(long[] offsets, String text) {
    return LoadableCommitsCpIntoAndSharedChannelsTest.utf8(offsets, text);
  }

  /** UTF8 buffers of shape {2} whose offsets are wrong. */
  static Map<String, byte[]> badUtf8() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("offsets decreasing 0,4,2", utf8(new long[] {0, 4, 2}, "abcdef"));
    m.put("last offset beyond the data 0,3,9", utf8(new long[] {0, 3, 9}, "abcdef"));
    m.put("first offset not 0 (1,3,6)", utf8(new long[] {1, 3, 6}, "abcdef"));
    m.put("first offset negative (-8,3,6)", utf8(new long[] {-8, 3, 6}, "abcdef"));
    m.put("fewer bytes than the offsets 0,3", utf8(new long[] {0, 3}, ""));
    m.put("offsets 0,3,6 but only 4 bytes of text", utf8(new long[] {0, 3, 6}, "abcd"));
    return m;
  }

  static void newUtf8(FileSystem fs, String path, byte[] bytes) throws IOException {
    LoadableCommitsCpIntoAndSharedChannelsTest.newUtf8(fs, path, bytes);
  }

  /** The /graph of a copy of the example without training.json and without updater state. */
  private byte[] bareGraph() throws IOException {
    Path m = copy("bare");
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.delete(fs.getPath("/training.json"));
      deleteUpdaterState(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      assertTrue(Files.notExists(fs.getPath("/training.json")));
      return Files.readAllBytes(fs.getPath("/graph"));
    }
  }

  /** The bare graph itself (no training config, no updater state) is a model DL4J loads. PASSES TODAY (guard). */
  @Test
  void theBareGraphLoadsInDl4j() throws Exception {
    Path m = copy("bare-check");
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.delete(fs.getPath("/training.json"));
      deleteUpdaterState(fs);
    }
    SameDiff sd = Dl4jSnapshot.loadSameDiff(m);
    assertEquals(null, sd.getTrainingConfig());
    assertArrayEquals(Dl4jSnapshot.cOrderLeBytes(EXAMPLE, "layer0/W"), Dl4jSnapshot.cOrderLeBytes(m, "layer0/W"));
  }
}
