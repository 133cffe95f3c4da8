package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.hostile.HostileSupport.cli;
import static org.modelfs.hostile.HostileSupport.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.hostile.HostileSupport.Cli;
import org.modelfs.hostile.HostileSupport.Problems;
import org.modelfs.testing.Fifos;

/**
 * Commits DL4J can load, {@code cp} into an existing destination, and two write channels on one
 * parameter — through the public API and the CLI only.
 *
 * <ol>
 *   <li>Commits that would write a model DL4J 1.0.0-M2.1 cannot load are refused, the model left
 *       byte-identical (the DL4J proof and DL4J's own reaction to each case is in
 *       {@code src/interop/.../Dl4jLoadsWhatWeCommitInteropTest}); valid changes are accepted.
 *   <li>{@code modelfs cp MODEL:PATH DEST} writes into an existing DEST like {@code cat > DEST}:
 *       open, truncate, write — never delete-and-recreate; {@code -} is stdout.
 *   <li>Two write channels on one parameter of one mount share one content (POSIX): no write
 *       is silently lost.
 * </ol>
 *
 * Each test's comment says how it fails on 2bb93c2.
 */
public class LoadableCommitsCpIntoAndSharedChannelsTest {
  @TempDir Path tmp;

  private static final Path EXAMPLE = Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb");

  /** A copy of the example (fb, Adam training config, Adam state M, V) as {@code name} in its own directory. */
  private Path example(String name) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".d"));
    return Files.copy(EXAMPLE, dir.resolve("m.fb"));
  }

  /** The example converted (CLI) to {@code format}, as {@code dir/m.<ext>}. */
  private Path exampleAs(String name, String format, String ext) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".d"));
    Path m = dir.resolve("m." + ext);
    Cli c = cli("convert", EXAMPLE.toString(), m.toString(), "--format", format);
    assertEquals(0, c.code(), c.toString());
    return m;
  }

  interface FsChange {
    void apply(FileSystem fs) throws IOException;
  }

  /** Mounts {@code m} writable, applies {@code change}, commits; always rolls back and closes. */
  private static Executable commitOf(Path m, FsChange change) {
    return () -> {
      FileSystem fs = ModelFileSystems.open(m);
      try {
        change.apply(fs);
        ((JournaledFileSystem) fs).commit();
      } finally {
        try {
          ((JournaledFileSystem) fs).rollback();
        } finally {
          fs.close();
        }
      }
    };
  }

  /** {@code action} fails with an IOException, and the model file is byte-identical and still opens. */
  private static void refused(Problems pr, String what, Path m, Executable action) throws IOException {
    byte[] before = Files.readAllBytes(m);
    pr.check(what + ": refused with an IOException", () -> assertNotNull(io(action), "the commit was accepted"));
    pr.check(what + ": model file byte-identical", () -> assertArrayEquals(before, Files.readAllBytes(m),
        "the model file was replaced (" + Files.size(m) + " bytes, was " + before.length + ")"));
    pr.check(what + ": still opens", () -> {
      try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
        assertTrue(Files.isDirectory(fs.getPath("/params")));
      }
    });
  }

  /** The CLI run fails (non-zero exit), and the model file is byte-identical. */
  private static void refusedByCli(Problems pr, String what, Path m, String... args) throws IOException {
    byte[] before = Files.readAllBytes(m);
    Cli c = cli(args);
    pr.check(what + ": non-zero exit", () -> assertNotEquals(0, c.code(), c.toString()));
    pr.check(what + ": model file byte-identical", () -> assertArrayEquals(before, Files.readAllBytes(m)));
  }

  private static void deleteUpdaterState(FileSystem fs) throws IOException {
    try (Stream<Path> s = Files.walk(fs.getPath("/updater"))) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Files.delete(p);
      }
    }
  }

  private static String read(Path m, String path) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      return Files.readString(fs.getPath(path));
    }
  }

  // ---------------------------------------------------------------- item 1a, 1b

  /**
   * Item 1a: training.json deleted while updater state remains (DL4J: NPE, trainingConfig null).
   * FAILS TODAY: 8 problems (4 cases) — fb (CLI and API), sdnb and sdz all accept the delete
   * and commit (CLI exit 0);
   * deleting training.json together with every updater file is accepted (that part passes).
   */
  @Test
  void item1a_trainingJsonIsNotRemovedWhileUpdaterStateRemains() throws Exception {
    Problems pr = new Problems();
    Path fb = example("1a-cli");
    refusedByCli(pr, "CLI rm m.fb /training.json", fb, "rm", fb.toString(), "/training.json");
    Path api = example("1a-api");
    refused(pr, "API delete /training.json (fb)", api, commitOf(api, fs -> Files.delete(fs.getPath("/training.json"))));
    for (String[] f : List.of(new String[] {"sdnb", "sdnb"}, new String[] {"sdz", "sdz"})) {
      Path m = exampleAs("1a-" + f[0], f[0], f[1]);
      refused(pr, "API delete /training.json (" + f[0] + ")", m, commitOf(m, fs -> Files.delete(fs.getPath("/training.json"))));
    }
    // together with every updater file: a model without training (DL4J loads it)
    Path both = example("1a-both");
    pr.check("delete training.json and every updater file: accepted", () -> commitOf(both, fs -> {
      Files.delete(fs.getPath("/training.json"));
      deleteUpdaterState(fs);
    }).execute());
    pr.assertNone();
  }

  /**
   * Item 1b: /graph replaced by a FlatGraph without trainingConfig while the updater state
   * stays. Was: accepted, and the committed fb had updater state and no training config (DL4J:
   * NPE). Now the training configuration lives in training.json alone (docs/FILESYSTEM.md §3):
   * the graph file shows none, and a graph written without one leaves training.json as it is —
   * the commit keeps both, as DL4J needs. A graph that carries a different one is refused.
   */
  @Test
  void item1b_aGraphWithoutTrainingConfigKeepsTrainingJson() throws Exception {
    Problems pr = new Problems();
    Path bare = example("1b-bare");
    try (FileSystem fs = ModelFileSystems.open(bare)) {
      Files.delete(fs.getPath("/training.json"));
      deleteUpdaterState(fs);
    }
    byte[] graph;
    try (FileSystem fs = ModelFileSystems.open(bare, Map.of("readOnly", true))) {
      assertFalse(Files.exists(fs.getPath("/training.json")));
      graph = Files.readAllBytes(fs.getPath("/graph"));
    }
    Path m = example("1b");
    String training = read(m, "/training.json");
    pr.check("write /graph without training config: accepted, training.json kept", () -> {
      commitOf(m, fs -> Files.write(fs.getPath("/graph"), graph)).execute();
      if (!training.equals(read(m, "/training.json"))) {
        throw new AssertionError("training.json changed");
      }
    });
    pr.assertNone();
  }

  // ---------------------------------------------------------------- item 1c

  /**
   * training.json texts DL4J M2.1 cannot read (each makes SameDiff.load throw; the interop test
   * loads them with DL4J and shares this table).
   */
  public static Map<String, String> badTrainingJson() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("hello", "hello");
    m.put("truncated", "{\"updater\": ");
    m.put("array", "[]");
    m.put("minimize-yes", "{\"minimize\": \"yes\"}");
    m.put("unknown-updater-class", "{\"updater\": {\"@class\": \"org.nd4j.linalg.learning.config.Nope\"}}");
    m.put("updater-without-class", "{\"updater\": {\"learningRate\": 0.1}}");
    m.put("iterationCount-x", "{\"iterationCount\": \"x\"}");
    m.put("initialLossDataType-NOPE", "{\"initialLossDataType\": \"NOPE\"}");
    m.put("comment", "/* c */ {\"minimize\": true}");
    m.put("NaN", "{\"updater\": {\"@class\": \"org.nd4j.linalg.learning.config.Adam\", \"learningRate\": NaN}}");
    m.put("single-quotes", "{'minimize': true}");
    m.put("trailing-comma", "{\"minimize\": true,}");
    m.put("null", "null");
    m.put("empty", "");
    m.put("whitespace", " \n");
    return m;
  }

  /**
   * Item 1c: training.json that is not a TrainingConfig DL4J can read is refused, at the write
   * or at the commit. FAILS TODAY: every text is accepted and committed (17 cases: the 14 texts,
   * "hello" without updater state, {} with updater state, Sgd over Adam's state M, V).
   */
  @Test
  void item1c_trainingJsonDl4jCannotReadIsRefused() throws Exception {
    Problems pr = new Problems();
    for (Map.Entry<String, String> e : badTrainingJson().entrySet()) {
      Path m = example("1c-" + e.getKey());
      refused(pr, "training.json " + e.getKey(), m, commitOf(m, fs -> Files.writeString(fs.getPath("/training.json"), e.getValue())));
    }
    Path noState = example("1c-hello-no-state");
    refused(pr, "training.json hello without updater state", noState, commitOf(noState, fs -> {
      deleteUpdaterState(fs);
      Files.writeString(fs.getPath("/training.json"), "hello");
    }));
    Path empty = example("1c-empty-object");
    refused(pr, "training.json {} with updater state", empty,
        commitOf(empty, fs -> Files.writeString(fs.getPath("/training.json"), "{}")));
    // DL4J: IllegalStateException "SGD updater does not have any updater state, attempting to set with 2 values"
    Path sgd = example("1c-sgd");
    String sgdJson = read(EXAMPLE, "/training.json").replace("org.nd4j.linalg.learning.config.Adam", "org.nd4j.linalg.learning.config.Sgd");
    refused(pr, "training.json Sgd over Adam's state M, V", sgd,
        commitOf(sgd, fs -> Files.writeString(fs.getPath("/training.json"), sgdJson)));
    pr.assertNone();
  }

  /**
   * Item 1c, the valid texts: accepted, and read back as written. PASSES TODAY (a guard for the
   * fix: an unknown key is ignored by DL4J, so it must not be refused).
   */
  @Test
  void item1c_validTrainingJsonIsAccepted() throws Exception {
    Problems pr = new Problems();
    String orig = read(EXAMPLE, "/training.json");
    String bogus = orig.replaceFirst("\\{", "{ \"bogus\" : 1,");
    String sgd = orig.replace("org.nd4j.linalg.learning.config.Adam", "org.nd4j.linalg.learning.config.Sgd");
    Map<String, FsChange> cases = new LinkedHashMap<>();
    cases.put("original + \"bogus\": 1", fs -> Files.writeString(fs.getPath("/training.json"), bogus));
    cases.put("{} without updater state", fs -> {
      deleteUpdaterState(fs);
      Files.writeString(fs.getPath("/training.json"), "{}");
    });
    cases.put("Sgd without updater state", fs -> {
      deleteUpdaterState(fs);
      Files.writeString(fs.getPath("/training.json"), sgd);
    });
    Map<String, String> expected = Map.of("original + \"bogus\": 1", bogus, "{} without updater state", "{}",
        "Sgd without updater state", sgd);
    for (Map.Entry<String, FsChange> c : cases.entrySet()) {
      Path m = example("1c-ok-" + c.getKey());
      pr.check(c.getKey() + ": accepted", () -> commitOf(m, c.getValue()).execute());
      pr.check(c.getKey() + ": read back", () -> assertEquals(expected.get(c.getKey()), read(m, "/training.json")));
    }
    pr.assertNone();
  }

  // ---------------------------------------------------------------- item 1d

  /** (n+1) little-endian int64 offsets then the bytes of {@code text}. */
  public static byte[] utf8(long[] offsets, String text) {
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(8 * offsets.length + t.length).order(ByteOrder.LITTLE_ENDIAN);
    for (long o : offsets) {
      b.putLong(o);
    }
    return b.put(t).array();
  }

  public static void newUtf8(FileSystem fs, String path, byte[] bytes) throws IOException {
    try (SeekableByteChannel c = Files.newByteChannel(fs.getPath(path),
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        ModelFileSystems.attribute("dtype", "UTF8"), ModelFileSystems.attribute("shape", new long[] {2}))) {
      c.write(ByteBuffer.wrap(bytes));
    }
  }

  /**
   * Item 1d: a UTF8 parameter of shape {2} whose offsets do not describe its data is refused;
   * a valid one is accepted and read back. FAILS TODAY: 10 problems (5 cases) — decreasing offsets, last
   * offset beyond the data, first offset not 0 (1 and -8) and offsets needing more text bytes
   * than there are are all committed (DL4J: NegativeArraySizeException for the decreasing ones,
   * garbage strings for the rest); only "fewer bytes than the offsets" is refused today.
   */
  @Test
  void item1d_utf8OffsetsOutsideTheDataAreRefused() throws Exception {
    Problems pr = new Problems();
    Map<String, byte[]> bad = new LinkedHashMap<>();
    bad.put("offsets decreasing 0,4,2", utf8(new long[] {0, 4, 2}, "abcdef"));
    bad.put("last offset beyond the data 0,3,9", utf8(new long[] {0, 3, 9}, "abcdef"));
    bad.put("first offset not 0 (1,3,6)", utf8(new long[] {1, 3, 6}, "abcdef"));
    bad.put("first offset negative (-8,3,6)", utf8(new long[] {-8, 3, 6}, "abcdef"));
    bad.put("fewer bytes than the offsets (0,3 only)", utf8(new long[] {0, 3}, ""));
    bad.put("offsets 0,3,6 with 4 text bytes", utf8(new long[] {0, 3, 6}, "abcd"));
    for (Map.Entry<String, byte[]> e : bad.entrySet()) {
      Path m = example("1d-" + e.getKey());
      refused(pr, "UTF8 " + e.getKey(), m, commitOf(m, fs -> newUtf8(fs, "/params/s", e.getValue())));
    }
    Path m = example("1d-ok");
    byte[] good = utf8(new long[] {0, 3, 6}, "abcdef");
    pr.check("valid UTF8 0,3,6 abcdef: accepted", () -> commitOf(m, fs -> newUtf8(fs, "/params/s", good)).execute());
    pr.check("valid UTF8: read back", () -> {
      try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
        assertArrayEquals(good, Files.readAllBytes(fs.getPath("/params/s")));
        assertEquals("UTF8", String.valueOf(Files.getAttribute(fs.getPath("/params/s"), "samediff:dtype")));
      }
    });
    pr.assertNone();
  }

  /**
   * Item 1, sdnb and sdz: updater state without a readable training config is refused there
   * too (training.json "hello", "{}", CLI rm), and so are an updater class whose state keys do
   * not match (Sgd over M, V) and UTF8 offsets that decrease. FAILS TODAY: 10 problems (5 cases) per
   * format — all five are committed.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdz"})
  void item1_sdnbAndSdzRefuseUpdaterStateWithoutTrainingConfig(String format) throws Exception {
    Problems pr = new Problems();
    Path m = exampleAs("1-" + format + "-bad-json", format, format);
    refused(pr, format + ": training.json hello", m, commitOf(m, fs -> Files.writeString(fs.getPath("/training.json"), "hello")));
    Path e = exampleAs("1-" + format + "-empty", format, format);
    refused(pr, format + ": training.json {} with updater state", e,
        commitOf(e, fs -> Files.writeString(fs.getPath("/training.json"), "{}")));
    Path cliRm = exampleAs("1-" + format + "-cli", format, format);
    refusedByCli(pr, format + ": CLI rm /training.json", cliRm, "rm", cliRm.toString(), "/training.json");
    // the same rules as fb for the rest
    Path sgd = exampleAs("1-" + format + "-sgd", format, format);
    String sgdJson = read(EXAMPLE, "/training.json").replace("org.nd4j.linalg.learning.config.Adam", "org.nd4j.linalg.learning.config.Sgd");
    refused(pr, format + ": training.json Sgd over Adam's state M, V", sgd,
        commitOf(sgd, fs -> Files.writeString(fs.getPath("/training.json"), sgdJson)));
    Path utf = exampleAs("1-" + format + "-utf8", format, format);
    refused(pr, format + ": UTF8 offsets decreasing 0,4,2", utf,
        commitOf(utf, fs -> newUtf8(fs, "/params/s", utf8(new long[] {0, 4, 2}, "abcdef"))));
    pr.assertNone();
  }

  // ---------------------------------------------------------------- item 2: cp into DEST

  private static final byte[] OLD = "old contents, longer than any parameter written here: ".repeat(8).getBytes(StandardCharsets.UTF_8);

  /** The bytes of /params/layer0/b (32 bytes) of the example. */
  private static byte[] bias() throws IOException {
    try (FileSystem fs = ModelFileSystems.open(EXAMPLE, Map.of("readOnly", true))) {
      return Files.readAllBytes(fs.getPath("/params/layer0/b"));
    }
  }

  private String src() throws IOException {
    return example("cp-src") + ":/params/layer0/b";
  }

  /**
   * Item 2: DEST a symlink to a file. FAILS TODAY: Files.copy(REPLACE_EXISTING) deletes the
   * link and puts a regular file in its place; the target keeps its old bytes.
   */
  @Test
  void item2_cpIntoASymlinkWritesTheTargetAndKeepsTheLink() throws Exception {
    Path target = Files.write(tmp.resolve("target.bin"), OLD);
    Path link = Files.createSymbolicLink(tmp.resolve("link.bin"), target.getFileName());
    Cli c = cli("cp", src(), link.toString());
    assertEquals(0, c.code(), c.toString());
    assertTrue(Files.isSymbolicLink(link), "DEST is no longer a symlink");
    assertEquals(target.getFileName(), Files.readSymbolicLink(link));
    assertArrayEquals(bias(), Files.readAllBytes(target), "the link's target holds the parameter (truncated to it)");
  }

  /**
   * Item 2: DEST a FIFO read by a {@code cat} child. FAILS TODAY: the FIFO is deleted and
   * replaced by a regular file; the reader gets 0 bytes (or never returns — the test kills it).
   */
  @Test
  void item2_cpIntoAFifoFeedsTheReader() throws Exception {
    Path fifo = tmp.resolve("fifo");
    Fifos.make(fifo);
    AtomicReference<byte[]> got = new AtomicReference<>();
    Process cat = Fifos.reader(fifo, got);
    String from = src();
    AtomicReference<Cli> result = new AtomicReference<>();
    Thread cp = new Thread(() -> result.set(cli("cp", from, fifo.toString())));
    cp.setDaemon(true);
    cp.start();
    try {
      cp.join(20_000);
      assertNotNull(result.get(), "cp did not finish within 20 s");
      assertEquals(0, result.get().code(), result.get().toString());
      assertNotNull(Fifos.await(cat, got, 10),
          "the reader got no end of file within 10 s (the FIFO was replaced under it)");
      assertArrayEquals(bias(), got.get(), "the reader gets every byte of the parameter");
      PosixFileAttributes a = Files.readAttributes(fifo, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      assertTrue(a.isOther(), "DEST is still a FIFO (not a regular file)");
    } finally {
      cat.destroyForcibly();
      cat.waitFor(5, TimeUnit.SECONDS);
    }
  }

  /** Item 2: DEST a 0600 file. FAILS TODAY: recreated with the umask's mode (rw-r--r--). */
  @Test
  void item2_cpKeepsTheModeOfDest() throws Exception {
    Path dest = Files.write(tmp.resolve("secret.bin"), OLD);
    Files.setPosixFilePermissions(dest, PosixFilePermissions.fromString("rw-------"));
    Object owner = Files.getAttribute(dest, "unix:uid");
    Object group = Files.getAttribute(dest, "unix:gid");
    Cli c = cli("cp", src(), dest.toString());
    assertEquals(0, c.code(), c.toString());
    assertArrayEquals(bias(), Files.readAllBytes(dest));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dest)));
    // a file with one link is replaced atomically by a new one given its owner, group and mode
    // (store.OutputFile; docs/CLI.md "Output files"); several links: written in place (next test)
    assertEquals(owner, Files.getAttribute(dest, "unix:uid"));
    assertEquals(group, Files.getAttribute(dest, "unix:gid"));
  }

  /** Item 2: DEST with a second hard link. FAILS TODAY: DEST becomes a new inode; the other name keeps the old bytes. */
  @Test
  void item2_cpIntoAHardLinkedFileUpdatesBothNames() throws Exception {
    Path dest = Files.write(tmp.resolve("a.bin"), OLD);
    Path other = Files.createLink(tmp.resolve("b.bin"), dest);
    Cli c = cli("cp", src(), dest.toString());
    assertEquals(0, c.code(), c.toString());
    assertArrayEquals(bias(), Files.readAllBytes(dest));
    assertArrayEquals(bias(), Files.readAllBytes(other), "the second hard link shows the new bytes");
    assertEquals(Files.getAttribute(other, "unix:ino"), Files.getAttribute(dest, "unix:ino"), "same inode");
    assertEquals(2, ((Number) Files.getAttribute(dest, "unix:nlink")).intValue());
  }

  /**
   * Item 2: {@code -} as DEST is stdout. FAILS TODAY: a file named "-" is created in the working
   * directory (the test removes it) and nothing goes to {@code out}.
   */
  @Test
  void item2_cpToDashWritesStdout() throws Exception {
    Path dash = Path.of("-").toAbsolutePath();
    assertFalse(Files.exists(dash, LinkOption.NOFOLLOW_LINKS), "a file named '-' exists before the test: " + dash);
    String from = src();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream po = new PrintStream(out, true); PrintStream pe = new PrintStream(err, true)) {
      code = Main.run(new String[] {"cp", from, "-"}, po, pe);
    }
    boolean created = Files.exists(dash, LinkOption.NOFOLLOW_LINKS);
    if (created) {
      Files.delete(dash);
    }
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    assertFalse(created, "cp created a file named '-' in " + dash.getParent());
    assertArrayEquals(bias(), out.toByteArray(), "the bytes go to the out stream");
  }

  /** Item 2: DEST a directory: a file named after the source inside it. PASSES TODAY (keep). */
  @Test
  void item2_cpIntoADirectoryCreatesAFileNamedAfterTheSource() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("outdir"));
    Cli c = cli("cp", src(), dir.toString());
    assertEquals(0, c.code(), c.toString());
    assertArrayEquals(bias(), Files.readAllBytes(dir.resolve("b")));
  }

  // ---------------------------------------------------------------- item 3: two channels

  private static byte[] bytes(int n, int v) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) v);
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private static final String P = "/params/layer0/b"; // FLOAT [1, 8]: 32 bytes

  /**
   * Item 3: channels A ([0,16)) and B ([16,32)) on one parameter of one mount, closed in
   * either order. FAILS TODAY: each channel writes its own copy and the last close wins — the
   * first-closed channel's range is silently lost (the mount reads it back, and the commit
   * stores it, with the old bytes).
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void item3_twoWriteChannelsOnOneParamKeepBothWrites(boolean closeAFirst) throws Exception {
    Path m = example("3-" + closeAFirst);
    byte[] a = bytes(16, 0x11);
    byte[] b = bytes(16, 0x22);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Path p = fs.getPath(P);
      assertEquals(32, Files.size(p));
      FileChannel ca = FileChannel.open(p, StandardOpenOption.WRITE);
      FileChannel cb = FileChannel.open(p, StandardOpenOption.WRITE);
      ca.write(ByteBuffer.wrap(a), 0);
      cb.write(ByteBuffer.wrap(b), 16);
      (closeAFirst ? ca : cb).close();
      (closeAFirst ? cb : ca).close();
      assertArrayEquals(concat(a, b), Files.readAllBytes(p), "the mount reads both writes after both closed");
      ((JournaledFileSystem) fs).commit();
    }
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      assertArrayEquals(concat(a, b), Files.readAllBytes(fs.getPath(P)), "the committed parameter holds both writes");
    }
  }

  /**
   * Item 3, TRUNCATE_EXISTING: a second open with TRUNCATE_EXISTING truncates the content both
   * channels share (POSIX). A writes [0,16) before B's truncating open — that write is gone;
   * B then writes [16,32), leaving a 32-byte file of 16 zero bytes and B's bytes. A second round
   * where A writes after the truncation keeps both writes. FAILS TODAY (same cause as above):
   * round 1 "A sees the truncation too: expected 0 but was 32", round 2 "B sees A's write:
   * expected 16 but was 0" — each channel has its own private copy.
   */
  @Test
  void item3_truncatingSecondOpenTruncatesTheSharedContent() throws Exception {
    Problems pr = new Problems();
    byte[] a = bytes(16, 0x33);
    byte[] b = bytes(16, 0x44);
    // round 1: A writes, then B opens with TRUNCATE_EXISTING, then B writes [16,32)
    Path m1 = example("3-trunc-1");
    pr.check("A's write before B's truncating open", () -> {
      try (FileSystem fs = ModelFileSystems.open(m1)) {
        Path p = fs.getPath(P);
        FileChannel ca = FileChannel.open(p, StandardOpenOption.WRITE);
        ca.write(ByteBuffer.wrap(a), 0);
        FileChannel cb = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        assertEquals(0, cb.size(), "B sees the truncated content");
        assertEquals(0, ca.size(), "A sees the truncation too (one shared content)");
        cb.write(ByteBuffer.wrap(b), 16);
        ca.close();
        cb.close();
        assertEquals(32, Files.size(p), "final size after the writes");
        assertArrayEquals(concat(new byte[16], b), Files.readAllBytes(p));
        ((JournaledFileSystem) fs).commit();
      }
      try (FileSystem fs = ModelFileSystems.open(m1, Map.of("readOnly", true))) {
        assertArrayEquals(concat(new byte[16], b), Files.readAllBytes(fs.getPath(P)));
      }
    });
    // round 2: both open (B truncating), then A writes [0,16), B writes [16,32)
    Path m2 = example("3-trunc-2");
    pr.check("A's write after B's truncating open", () -> {
      try (FileSystem fs = ModelFileSystems.open(m2)) {
        Path p = fs.getPath(P);
        FileChannel ca = FileChannel.open(p, StandardOpenOption.WRITE);
        FileChannel cb = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        ca.write(ByteBuffer.wrap(a), 0);
        assertEquals(16, cb.size(), "B sees A's write");
        cb.write(ByteBuffer.wrap(b), 16);
        cb.close();
        ca.close();
        assertEquals(32, Files.size(p), "final size after the writes");
        assertArrayEquals(concat(a, b), Files.readAllBytes(p));
        ((JournaledFileSystem) fs).commit();
      }
      try (FileSystem fs = ModelFileSystems.open(m2, Map.of("readOnly", true))) {
        assertArrayEquals(concat(a, b), Files.readAllBytes(fs.getPath(P)));
      }
    });
    pr.assertNone();
  }
}
