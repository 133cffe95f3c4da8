package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.testing.Fixtures;

/**
 * The rule where the new file cannot be given the old one's owner (docs/CLI.md "Output files"):
 * a user writing someone else's group- or world-writable file. Run as root, the CLI runs in a
 * child JVM as uid/gid 65534 ({@code setpriv}); skipped elsewhere. An output is then written
 * into (the owner stays); an edit of such a model is refused and the model is left as it was.
 */
class NonOwnerOutputsTest {
  @TempDir Path tmp;
  private Path shared;
  private String classPath;

  @BeforeEach
  void asAnotherUser() throws Exception {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to run a child as nobody");
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv");
    Files.setAttribute(tmp, "unix:mode", 0755);
    shared = Files.createDirectory(tmp.resolve("shared"));
    Files.setAttribute(shared, "unix:mode", 0777); // not sticky: a rename over root's file would be allowed
    Path lib = Files.createDirectory(tmp.resolve("lib"));
    List<String> cp = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(e);
      if (p.toString().endsWith(".jar") && (p.getFileName().toString().startsWith("flatbuffers")
          || p.getFileName().toString().startsWith("commons-compress") || p.getFileName().toString().startsWith("commons-io")
          || p.getFileName().toString().startsWith("commons-lang3") || p.getFileName().toString().startsWith("commons-codec"))) {
        cp.add(Files.copy(p, lib.resolve(p.getFileName())).toString()); // ~/.m2 is root's only
      } else if (Files.isDirectory(p) && p.endsWith("classes") && !p.getParent().endsWith("test-classes")) {
        cp.add(p.toString());
      }
    }
    classPath = String.join(File.pathSeparator, cp);
  }

  private record Run(int code, String output) {}

  private Run asNobody(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC", "-Xmx128m",
        "-Djava.io.tmpdir=" + shared, "-cp", classPath, Main.class.getName()));
    cmd.addAll(List.of(args));
    Path log = tmp.resolve("child.log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("the child did not finish within 60 s");
    }
    return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  /** A root-owned file anyone may write. */
  private Path rootsWritableFile(String name, byte[] content) throws IOException {
    Path f = Files.write(shared.resolve(name), content);
    Files.setAttribute(f, "unix:mode", 0666);
    return f;
  }

  private Set<String> names() throws IOException {
    try (Stream<Path> s = Files.list(shared)) {
      return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void anOutputOwnedBySomeoneElseIsWrittenInto() throws Exception {
    Path model = Files.copy(Fixtures.get("mlp_adam.fb"), shared.resolve("m.fb"));
    Files.setAttribute(model, "unix:mode", 0644);
    Path ref = tmp.resolve("ref.npy");
    MainTest.Result r = MainTest.run("export", model + ":layer0/W", ref.toString());
    assertEquals(0, r.code(), r.err());
    Path out = rootsWritableFile("out.npy", "old".getBytes());
    Object ino = Files.getAttribute(out, "unix:ino");
    Set<String> before = names();
    Run run = asNobody("export", model + ":layer0/W", out.toString());
    assertEquals(0, run.code(), run.output());
    assertArrayEquals(Files.readAllBytes(ref), Files.readAllBytes(out));
    assertEquals(0, Files.getAttribute(out, "unix:uid"), "the owner stays");
    assertEquals(0666, (Integer) Files.getAttribute(out, "unix:mode") & 07777);
    assertEquals(ino, Files.getAttribute(out, "unix:ino"), "written into");
    assertEquals(before, names(), "no temporary left");

    Path sdnb = rootsWritableFile("out.sdnb", "old".getBytes());
    before = names();
    run = asNobody("convert", model.toString(), sdnb.toString(), "--quiet");
    assertEquals(0, run.code(), run.output());
    assertEquals(0, Files.getAttribute(sdnb, "unix:uid"), "the owner stays");
    MainTest.Result info = MainTest.run("info", sdnb.toString());
    assertEquals(0, info.code(), info.err());
    assertEquals(before, names(), "no temporary or lock left");
  }

  @Test
  void anEditOfAModelOwnedBySomeoneElseIsRefusedAndChangesNothing() throws Exception {
    Path model = shared.resolve("m.sdz");
    MainTest.Result r = MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), model.toString());
    assertEquals(0, r.code(), r.err());
    Files.setAttribute(model, "unix:mode", 0666);
    byte[] old = Files.readAllBytes(model);
    Set<String> before = names();
    Run run = asNobody("meta", "set", model.toString(), "author", "nobody");
    assertEquals(2, run.code(), run.output());
    assertTrue(run.output().contains("owner, group and mode") && run.output().contains("nothing was"), run.output());
    assertArrayEquals(old, Files.readAllBytes(model));
    assertEquals(0, Files.getAttribute(model, "unix:uid"));
    assertEquals(before, names(), "no temporary, journal or lock left");
  }
}
