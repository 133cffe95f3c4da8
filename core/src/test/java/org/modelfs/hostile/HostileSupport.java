package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;

/** Helpers of the hostile suite: public API only (ModelFileSystems, Files, JournaledFileSystem, cli.Main). */
final class HostileSupport {
  private HostileSupport() {}

  /** {@code n} float32 little-endian values, all {@code v}. */
  static byte[] fill(int n, float v) {
    ByteBuffer b = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      b.putFloat(v);
    }
    return b.array();
  }

  /** {@code n} float32 little-endian values {@code seed * 1e6 + i}: distinct per seed. */
  static byte[] pattern(int n, int seed) {
    ByteBuffer b = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      b.putFloat(seed * 1_000_000f + (i % 500_000));
    }
    return b.array();
  }

  /** The single value all floats of {@code b} hold, or NaN when they differ (or b is empty). */
  static float uniform(byte[] b) {
    ByteBuffer f = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    if (b.length < 4) {
      return Float.NaN;
    }
    float v = f.getFloat(0);
    for (int i = 4; i + 4 <= b.length; i += 4) {
      if (Float.floatToIntBits(f.getFloat(i)) != Float.floatToIntBits(v)) {
        return Float.NaN;
      }
    }
    return v;
  }

  /** Creates a model through the public API: {@code create=true} plus {@code env}, writes {@code params}, closes (commits). */
  static Path create(Path file, Map<String, ?> env, Map<String, byte[]> params) throws IOException {
    Map<String, Object> e = new HashMap<>(env);
    e.put("create", true);
    try (FileSystem fs = ModelFileSystems.open(file, e)) {
      for (Map.Entry<String, byte[]> p : params.entrySet()) {
        Files.write(fs.getPath("/params/" + p.getKey()), p.getValue());
      }
    }
    return file;
  }

  /** {@code count} params {@code w0..} of {@code floats} floats each, all {@code v}. */
  static Map<String, byte[]> uniformParams(int count, int floats, float v) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      m.put("w" + i, fill(floats, v));
    }
    return m;
  }

  /** A sharded SDNB {@code dir/m.sdnb} of {@code count} params of {@code floats} floats each, value v. */
  static Path sharded(Path dir, int count, int floats, float v) throws IOException {
    Path m = dir.resolve("m.sdnb");
    create(m, Map.of("format", "sdnb-sharded", "maxShardBytes", (long) floats * 4), uniformParams(count, floats, v));
    List<Path> shards = shards(dir, "m");
    assertTrue(shards.size() >= 3, "expected >= 3 shards, got " + shards);
    return m;
  }

  /** The shard files {@code <base>.shard*-of-*.sdnb} in {@code dir}, sorted. */
  static List<Path> shards(Path dir, String base) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().matches(Pattern.quote(base) + "\\.shard\\d+-of-\\d+\\.sdnb"))
          .sorted().toList();
    }
  }

  /** Every param below /params of a mounted model: path → bytes. */
  static Map<String, byte[]> params(FileSystem fs) throws IOException {
    return files(fs, "/params");
  }

  /** Every regular file below {@code root} of a mounted model: path → bytes. */
  static Map<String, byte[]> files(FileSystem fs, String root) throws IOException {
    Map<String, byte[]> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(fs.getPath(root))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          m.put(p.toString(), Files.readAllBytes(p));
        }
      }
    }
    return m;
  }

  /** Content fingerprint of a disk directory tree, not following links: relative path → sha256 / "dir" / "link→target". */
  static Map<String, String> snapshot(Path dir) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String rel = dir.relativize(p).toString();
        if (Files.isSymbolicLink(p)) {
          m.put(rel, "link->" + Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          m.put(rel, "dir");
        } else {
          m.put(rel, sha(Files.readAllBytes(p)));
        }
      }
    }
    return m;
  }

  static String sha(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** Names in {@code dir} (not recursive), sorted. */
  static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** Result of one CLI run. */
  record Cli(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + " out=[" + out.strip() + "] err=[" + err.strip() + "]";
    }
  }

  static Cli cli(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code;
    try (PrintStream po = new PrintStream(o, true, StandardCharsets.UTF_8);
        PrintStream pe = new PrintStream(e, true, StandardCharsets.UTF_8)) {
      code = Main.run(args, po, pe);
    }
    return new Cli(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  /** Starts {@link HostileMain} in a child JVM (stderr inherited). */
  static Process child(String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), HostileMain.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  /** Runs a child to its end (at most {@code seconds}); returns its stdout. */
  static String runChild(int seconds, String... args) throws Exception {
    Process p = child(args);
    byte[] out;
    try {
      out = p.getInputStream().readAllBytes();
      if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
        throw new AssertionError("child " + List.of(args) + " did not finish");
      }
    } finally {
      p.destroyForcibly();
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /**
   * Runs {@code e}: an IOException is what a caller may get; any other throwable (a
   * RuntimeException or Error reaching the caller) is itself a fault and is rethrown as an
   * AssertionError. Returns the IOException or null.
   */
  static IOException io(Executable e) {
    try {
      e.execute();
      return null;
    } catch (IOException x) {
      return x;
    } catch (Throwable t) {
      throw new AssertionError("not an IOException: " + t, t);
    }
  }

  /** Collects the failures of several sub-cases so that one test reports them all. */
  static final class Problems {
    private final List<String> list = new ArrayList<>();

    void check(String what, Executable e) {
      try {
        e.execute();
      } catch (Throwable t) {
        list.add(what + ": " + t);
      }
    }

    void add(String s) {
      list.add(s);
    }

    void assertNone() {
      assertTrue(list.isEmpty(), list.size() + " problem(s):\n  " + String.join("\n  ", list));
    }
  }

  /** Starts a thread that adds every line {@code child} prints to {@code lines} (synchronized on it). */
  static Thread collectLines(Process child, List<String> lines) {
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String l; (l = r.readLine()) != null; ) {
          synchronized (lines) {
            lines.add(l);
          }
        }
      } catch (IOException ignored) {
        // the child is gone: its output ends here
      }
    });
    reader.start();
    return reader;
  }
}
