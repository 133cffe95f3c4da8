package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.testing.Fifos;
import org.modelfs.testing.Fixtures;

/**
 * Every command that writes a file the user names, into every kind of destination, by one rule
 * (store.OutputFile, docs/CLI.md "Output files"): a symbolic link followed and kept, a dangling
 * one refused as GNU cp refuses it, a FIFO and a device fed, an existing file's mode, owner, group
 * and hard links kept — and nothing else left in any directory. The table is checked against
 * {@code Main.COMMANDS}: a new command fails {@link #everyCommandIsDeclared} until it is declared
 * here by what it writes.
 */
class OutputFilesTest {
  @TempDir Path tmp;

  /** What a command writes. */
  enum Writes {
    /** standard output only */
    NOTHING,
    /** a file the user names (OUTPUTS) */
    OUTPUT,
    /** the model it is given, by a commit (EDITS) */
    MODEL,
    /** removes crash leftovers beside a model, never writes a file */
    LEFTOVERS
  }

  static final Map<String, Set<Writes>> COMMANDS = Map.ofEntries(
      Map.entry("info", Set.of(Writes.NOTHING)), Map.entry("tree", Set.of(Writes.NOTHING)),
      Map.entry("ls", Set.of(Writes.NOTHING)), Map.entry("cat", Set.of(Writes.NOTHING)),
      Map.entry("graph", Set.of(Writes.NOTHING)), Map.entry("diff", Set.of(Writes.NOTHING)),
      Map.entry("verify", Set.of(Writes.NOTHING)), Map.entry("clean", Set.of(Writes.LEFTOVERS)),
      Map.entry("cp", Set.of(Writes.OUTPUT, Writes.MODEL)), Map.entry("convert", Set.of(Writes.OUTPUT)),
      Map.entry("extract", Set.of(Writes.OUTPUT)), Map.entry("export", Set.of(Writes.OUTPUT)),
      Map.entry("rm", Set.of(Writes.MODEL)), Map.entry("meta", Set.of(Writes.MODEL)),
      Map.entry("tag", Set.of(Writes.MODEL)), Map.entry("avg", Set.of(Writes.MODEL)),
      Map.entry("import", Set.of(Writes.MODEL)), Map.entry("view", Set.of(Writes.OUTPUT)));

  /** A command writing a user-named file: the extension its name needs, its arguments for DEST. */
  record Output(String label, String ext, boolean anyName, BiFunction<Path, String, String[]> args) {
    /** Whether it writes a model (whose bytes hold the time it was written: compared with {@code diff}). */
    boolean model() {
      return command().equals("convert") || command().equals("extract");
    }

    String command() {
      return args.apply(Path.of("m"), "d")[0];
    }

    @Override
    public String toString() {
      return label;
    }
  }

  static final List<Output> OUTPUTS = List.of(
      new Output("cp", "bin", true, (m, d) -> new String[] {"cp", m + ":/params/layer0/W", d}),
      new Output("export npy", "npy", false, (m, d) -> new String[] {"export", m + ":layer0/W", d}),
      new Output("export safetensors", "safetensors", false, (m, d) -> new String[] {"export", m.toString(), d}),
      new Output("convert", "sdnb", true, (m, d) -> new String[] {"convert", m.toString(), d, "--format", "sdnb"}),
      new Output("convert sdz", "sdz", true, (m, d) -> new String[] {"convert", m.toString(), d, "--format", "sdz"}),
      new Output("extract", "fb", true, (m, d) -> new String[] {"extract", m.toString(), "default", d, "--format", "fb"}),
      new Output("view", "html", true, (m, d) -> new String[] {"view", m.toString(), "-o", d}),
      new Output("view --json", "json", true, (m, d) -> new String[] {"view", m.toString(), "--json", "-o", d}));

  /** The kinds of destination. */
  enum Dest { ABSENT, REGULAR_0600, HARD_LINKED, SYMLINK, DANGLING, FIFO, DEVICE_LINK, DEV_NULL }

  @Test
  void everyCommandIsDeclared() {
    assertEquals(new TreeSet<>(Main.commandNames()), new TreeSet<>(COMMANDS.keySet()),
        "a command was added or removed: declare what it writes here, and test it in OUTPUTS or EDITS");
    for (Map.Entry<String, Set<Writes>> e : COMMANDS.entrySet()) {
      boolean output = OUTPUTS.stream().anyMatch(o -> o.command().equals(e.getKey()));
      assertEquals(e.getValue().contains(Writes.OUTPUT), output, e.getKey() + ": in OUTPUTS iff it writes a user's file");
      boolean edit = EDITS.stream().anyMatch(o -> o.args().apply(Path.of("m"), Path.of("w"))[0].equals(e.getKey()));
      assertEquals(e.getValue().contains(Writes.MODEL), edit, e.getKey() + ": in EDITS iff it commits to a model");
    }
  }

  static Stream<Arguments> outputs() {
    List<Arguments> out = new ArrayList<>();
    for (Output o : OUTPUTS) {
      for (Dest d : Dest.values()) {
        if (d != Dest.DEV_NULL || o.anyName()) {
          out.add(Arguments.of(o, d));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} into {1}")
  @MethodSource("outputs")
  void outputFollowsTheRule(Output o, Dest kind) throws Exception {
    Path model = Fixtures.get("mlp_adam.fb");
    reference(o, model);
    Path devNull = devNull();
    Path ref = tmp.resolve("ref").resolve("out." + o.ext());
    Path dir = Files.createDirectory(tmp.resolve("dir"));
    Path other = Files.createDirectory(tmp.resolve("other"));
    Path dest = dir.resolve("out." + o.ext());
    Path target = other.resolve("target." + o.ext()); // a link's target, in another directory
    byte[] old = "old bytes".getBytes();
    switch (kind) {
      case ABSENT, FIFO, DEV_NULL -> { }
      case REGULAR_0600 -> {
        Files.write(dest, old);
        mode(dest, 0600);
        chownToNobody(dest);
      }
      case HARD_LINKED -> {
        Files.write(dest, old);
        mode(dest, 0640);
        Files.createLink(dir.resolve("other-name." + o.ext()), dest);
      }
      case SYMLINK -> {
        Files.write(target, old);
        mode(target, 0600);
        Files.createSymbolicLink(dest, Path.of("..", "other", target.getFileName().toString()));
      }
      case DANGLING -> Files.createSymbolicLink(dest, Path.of("..", "other", target.getFileName().toString()));
      case DEVICE_LINK -> Files.createSymbolicLink(dest, devNull);
    }
    if (kind == Dest.FIFO) {
      Fifos.make(dest);
    }
    Set<String> dirBefore = names(dir);
    Set<String> otherBefore = names(other);
    Map<String, Object> before = kind == Dest.ABSENT || kind == Dest.DANGLING || kind == Dest.DEV_NULL
        || kind == Dest.FIFO ? Map.of() : Files.readAttributes(dest, "unix:*");
    String arg = kind == Dest.DEV_NULL ? devNull.toString() : dest.toString();
    Set<String> devBefore = names(devNull.getParent());
    MainTest.Result r;
    byte[] fed = null;
    if (kind == Dest.FIFO) {
      AtomicReference<byte[]> got = new AtomicReference<>();
      Process cat = Fifos.reader(dest, got);
      try {
        r = MainTest.run(o.args().apply(model, arg));
        fed = Fifos.await(cat, got, 20);
      } finally {
        cat.destroyForcibly();
      }
    } else {
      r = MainTest.run(o.args().apply(model, arg));
    }
    String what = o + " into " + kind + ": " + r.err();
    if (kind == Dest.DANGLING) {
      assertNotEquals(0, r.code(), what);
      assertTrue(r.err().contains("dangling symbolic link"), what);
      assertTrue(Files.isSymbolicLink(dest), what);
      assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), "nothing created through the link: " + what);
    } else {
      assertEquals(0, r.code(), what);
    }
    switch (kind) {
      case ABSENT -> {
        assertTrue(Files.isRegularFile(dest, LinkOption.NOFOLLOW_LINKS), what);
        same(o, ref, Files.readAllBytes(dest), what);
        dirBefore.add(dest.getFileName().toString());
      }
      case REGULAR_0600 -> {
        same(o, ref, Files.readAllBytes(dest), what);
        Map<String, Object> after = Files.readAttributes(dest, "unix:*", LinkOption.NOFOLLOW_LINKS);
        for (String a : List.of("mode", "uid", "gid", "nlink")) {
          assertEquals(before.get(a), after.get(a), a + " kept: " + what);
        }
      }
      case HARD_LINKED -> {
        Map<String, Object> after = Files.readAttributes(dest, "unix:*", LinkOption.NOFOLLOW_LINKS);
        for (String a : List.of("mode", "uid", "gid", "ino", "nlink")) {
          assertEquals(before.get(a), after.get(a), a + " kept (the same inode, written into): " + what);
        }
        assertEquals(2, after.get("nlink"));
        same(o, ref, Files.readAllBytes(dir.resolve("other-name." + o.ext())), what);
      }
      case SYMLINK -> {
        assertTrue(Files.isSymbolicLink(dest), "the link stays a link: " + what);
        assertEquals(Path.of("..", "other", target.getFileName().toString()), Files.readSymbolicLink(dest));
        same(o, ref, Files.readAllBytes(target), what);
        assertEquals(0600, (Integer) Files.getAttribute(target, "unix:mode") & 07777, what);
      }
      case FIFO -> {
        assertTrue(Files.readAttributes(dest, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS).isOther(), "still a FIFO: " + what);
        assertNotNull(fed, what);
        same(o, ref, fed, "the FIFO's reader got the bytes: " + what);
      }
      case DEVICE_LINK, DEV_NULL -> {
        if (kind == Dest.DEVICE_LINK) {
          assertEquals(devNull, Files.readSymbolicLink(dest), what);
        }
        assertTrue(Files.readAttributes(devNull, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS).isOther(), devNull + " is still a device: " + what);
        assertEquals(devBefore, names(devNull.getParent()), "nothing left beside the device: " + what);
      }
      default -> { }
    }
    assertEquals(dirBefore, names(dir), "no temporary, lock or other file left beside DEST: " + what);
    assertEquals(otherBefore, names(other), "nothing left beside the link's target: " + what);
  }

  /** A commit to a model the user named: link followed, owner, group and mode kept. */
  record Edit(String label, BiFunction<Path, Path, String[]> args) {
    @Override
    public String toString() {
      return label;
    }
  }

  static final List<Edit> EDITS = List.of(
      new Edit("cp into a model", (m, w) -> new String[] {"cp", w.resolve("w.bin").toString(), m + ":params/layer0/W"}),
      new Edit("rm", (m, w) -> new String[] {"rm", m.toString(), "/metadata/note"}),
      new Edit("meta set", (m, w) -> new String[] {"meta", "set", m.toString(), "author", "alice"}),
      new Edit("tag add", (m, w) -> new String[] {"tag", "add", m.toString(), "t3"}),
      new Edit("avg", (m, w) -> new String[] {"avg", m.toString(), "--tags", "default,t2", "--into", "mean"}),
      new Edit("import", (m, w) -> new String[] {"import", w.resolve("w.npy").toString(), m + ":layer0/W"}));

  /** The kinds of model file a commit replaces. */
  enum ModelDest { PRIVATE_FOREIGN_OWNER, SYMLINK, HARD_LINKED }

  static Stream<Arguments> edits() {
    List<Arguments> out = new ArrayList<>();
    for (Edit e : EDITS) {
      for (ModelDest d : ModelDest.values()) {
        out.add(Arguments.of(e, d));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("edits")
  void commitKeepsTheModelFilesAttributes(Edit e, ModelDest kind) throws Exception {
    Path work = Files.createDirectory(tmp.resolve("work"));
    Path dir = Files.createDirectory(tmp.resolve("dir"));
    Path other = Files.createDirectory(tmp.resolve("other"));
    Path real = (kind == ModelDest.SYMLINK ? other : dir).resolve("m.sdz");
    ok("convert", Fixtures.get("mlp_adam.fb").toString(), real.toString());
    ok("tag", "add", real.toString(), "t2");
    ok("meta", "set", real.toString(), "note", "x");
    ok("export", real + ":layer0/W", work.resolve("w.npy").toString());
    Files.write(work.resolve("w.bin"), pattern(128));
    Path npy = work.resolve("w.npy");
    byte[] b = Files.readAllBytes(npy);
    System.arraycopy(pattern(128), 0, b, b.length - 128, 128); // other values, the same header
    Files.write(npy, b);
    Path named = dir.resolve("m.sdz");
    switch (kind) {
      case PRIVATE_FOREIGN_OWNER -> {
        mode(real, 0600);
        chownToNobody(real);
      }
      case SYMLINK -> {
        mode(real, 0640);
        Files.createSymbolicLink(named, Path.of("..", "other", "m.sdz"));
      }
      case HARD_LINKED -> {
        mode(real, 0640);
        Files.createLink(dir.resolve("snapshot.sdz"), real);
      }
    }
    byte[] old = Files.readAllBytes(real);
    Map<String, Object> before = Files.readAttributes(real, "unix:*", LinkOption.NOFOLLOW_LINKS);
    Set<String> dirBefore = names(dir);
    Set<String> otherBefore = names(other);
    MainTest.Result r = MainTest.run(e.args().apply(named, work));
    String what = e + " on " + kind + ": " + r.err();
    assertEquals(0, r.code(), what);
    assertFalse(Arrays.equals(old, Files.readAllBytes(real)), "committed: " + what);
    Map<String, Object> after = Files.readAttributes(real, "unix:*", LinkOption.NOFOLLOW_LINKS);
    for (String a : List.of("mode", "uid", "gid")) {
      assertEquals(before.get(a), after.get(a), a + " kept: " + what);
    }
    if (kind == ModelDest.SYMLINK) {
      assertTrue(Files.isSymbolicLink(named), "the link stays a link: " + what);
    }
    if (kind == ModelDest.HARD_LINKED) {
      // an edit is atomic (old or new): the new model is a new file; another name keeps the old one
      assertEquals(1, after.get("nlink"), what);
      assertArrayEquals(old, Files.readAllBytes(dir.resolve("snapshot.sdz")), what);
    }
    assertEquals(dirBefore, names(dir), "nothing left beside the model: " + what);
    assertEquals(otherBefore, names(other), "nothing left beside the link's target: " + what);
  }

  @Test
  void aLinkNamedLikeAShardIsRefused() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("dir"));
    Path elsewhere = Files.write(tmp.resolve("elsewhere.bin"), "mine".getBytes());
    Files.createSymbolicLink(dir.resolve("m.shard1-of-2.sdnb"), elsewhere);
    MainTest.Result r = MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), dir.resolve("m.sdnb").toString(),
        "--max-shard-bytes", "100");
    assertNotEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("symbolic link named like a shard"), r.err());
    assertTrue(Files.isSymbolicLink(dir.resolve("m.shard1-of-2.sdnb")));
    assertArrayEquals("mine".getBytes(), Files.readAllBytes(elsewhere));
    assertEquals(Set.of("m.shard1-of-2.sdnb"), names(dir));
  }

  /**
   * {@code got} is what the command wrote into {@code ref}: the same bytes, or for a model (whose
   * files hold the time they were written) the same size and a model {@code diff} finds equal.
   */
  private void same(Output o, Path ref, byte[] got, String what) throws IOException {
    if (!o.model()) {
      assertArrayEquals(Files.readAllBytes(ref), got, what);
      return;
    }
    assertEquals(Files.size(ref), got.length, what);
    Path copy = Files.write(Files.createDirectories(tmp.resolve("got")).resolve(ref.getFileName()), got);
    MainTest.Result d = MainTest.run("diff", ref.toString(), copy.toString(), "--exit-code");
    assertEquals(0, d.code(), "the model written equals the reference: " + what + "\n" + d.out() + d.err());
  }

  @Test
  void aShardSetIsNotWrittenIntoAFifo() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("dir"));
    Path fifo = dir.resolve("m.sdnb");
    Fifos.make(fifo);
    MainTest.Result r = MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), fifo.toString(),
        "--max-shard-bytes", "100");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("is a FIFO or device"), r.err());
    assertTrue(Files.readAttributes(fifo, BasicFileAttributes.class,
        LinkOption.NOFOLLOW_LINKS).isOther());
    assertEquals(Set.of("m.sdnb"), names(dir));
  }

  /** The bytes the command writes into a new file. */
  private byte[] reference(Output o, Path model) throws IOException {
    Path ref = Files.createDirectories(tmp.resolve("ref"));
    Path f = ref.resolve("out." + o.ext());
    ok(o.args().apply(model, f.toString()));
    return Files.readAllBytes(f);
  }

  /**
   * A null device: where this process may make device nodes (root), its own {@code null} (char
   * 1,3) in the temporary directory — so a regression that renames over the device replaces that
   * one, never the machine's {@code /dev/null}; else {@code /dev/null}, which a process that
   * cannot make device nodes cannot replace either.
   */
  private Path devNull() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("dev"));
    Path node = dir.resolve("null");
    try {
      Process p = new ProcessBuilder("mknod", "-m", "666", node.toString(), "c", "1", "3").redirectErrorStream(true)
          .start();
      if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return node;
      }
    } catch (IOException e) {
      // no mknod: not root either
    }
    Assumptions.assumeFalse("root".equals(System.getProperty("user.name")),
        "root without mknod: the machine's /dev/null is not put at risk");
    return Path.of("/dev/null");
  }

  private static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 7 + 3);
    }
    return b;
  }

  private static void ok(String... args) {
    MainTest.Result r = MainTest.run(args);
    assertEquals(0, r.code(), String.join(" ", args) + " → " + r.err());
  }

  private static Set<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
    }
  }

  private static void mode(Path p, int mode) throws IOException {
    Files.setAttribute(p, "unix:mode", mode);
  }

  /** Gives {@code p} to uid/gid 65534 where this process may (root); else leaves it ours. */
  private static void chownToNobody(Path p) {
    try {
      Files.setAttribute(p, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(p, "unix:gid", 65534, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | RuntimeException e) {
      // not root: the owner is ours, and the mode is what is checked
    }
  }
}
