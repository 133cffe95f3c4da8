package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.modelfs.cli.Main;

/**
 * A real kernel mount for the tests: {@code modelfs mount} in a child JVM (this class path),
 * waited for through /proc/self/mounts with a bounded timeout, and tools run through {@code sh
 * -c}. Skips (with the reason) where FUSE is missing; always unmounts in {@link #close}.
 */
final class KernelMount implements AutoCloseable {
  final Path dir;
  final Path log;
  private final Process process;

  record Result(int exit, String out, String err) {
    Result ok() {
      assertEquals(0, exit, "exit " + exit + "\nstdout: " + out + "\nstderr: " + err);
      return this;
    }
  }

  /** Skips the calling test class unless /dev/fuse, libfuse.so.2 and fusermount are here. */
  static void assumeFuse() {
    Assumptions.assumeTrue(Files.exists(Path.of("/dev/fuse")), "FUSE tests skipped: /dev/fuse is missing");
    boolean lib = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libfuse.so.2"))
        || Files.exists(Path.of("/lib/x86_64-linux-gnu/libfuse.so.2"))
        || Files.exists(Path.of("/usr/lib/aarch64-linux-gnu/libfuse.so.2"))
        || Files.exists(Path.of("/usr/lib/libfuse.so.2"));
    Assumptions.assumeTrue(lib, "FUSE tests skipped: libfuse.so.2 is missing (apt-get install libfuse2 fuse)");
    Assumptions.assumeTrue(sh("command -v fusermount").exit == 0, "FUSE tests skipped: fusermount is missing (apt-get install fuse)");
  }

  KernelMount(Path model, Path dir, String... options) throws Exception {
    this(model.toString(), List.of(), dir, options);
  }

  /**
   * {@code modelfs mount OPTIONS MODEL DIR}, MODEL as a user writes it (a file or a provider's
   * URI), in a child JVM started with {@code jvmOptions} (e.g. {@code -Dkey=value}).
   */
  KernelMount(String model, List<String> jvmOptions, Path dir, String... options) throws Exception {
    this.dir = dir.toAbsolutePath().normalize();
    Files.createDirectories(dir);
    this.log = dir.resolveSibling(dir.getFileName() + ".log");
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        // staging (and what a killed mount leaves of it) inside the test's own directory
        "-Djava.io.tmpdir=" + this.dir.getParent()));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), FuseMain.class.getName(), "mount"));
    cmd.addAll(List.of(options));
    cmd.add(model);
    cmd.add(this.dir.toString());
    process = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
    if (!MountPoints.await(this.dir, process, 60_000)) {
      process.destroyForcibly();
      throw new IllegalStateException("the mount did not come up; log:\n" + Files.readString(log));
    }
  }

  long pid() {
    return process.pid();
  }

  Process process() {
    return process;
  }

  String logText() throws IOException {
    return Files.readString(log);
  }

  /** Runs a shell command in the mount's parent directory. */
  Result run(String script) {
    return sh("cd '" + dir.getParent() + "' && " + script);
  }

  static Result sh(String script) {
    try {
      Process p = new ProcessBuilder("sh", "-c", script).start();
      p.getOutputStream().close();
      var out = new CompletableFuture<byte[]>();
      Thread t = new Thread(() -> {
        try {
          out.complete(p.getInputStream().readAllBytes());
        } catch (IOException e) {
          out.completeExceptionally(e);
        }
      });
      t.start();
      byte[] err = p.getErrorStream().readAllBytes();
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + script);
      return new Result(p.exitValue(), new String(out.get(), StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new IllegalStateException(script, e);
    }
  }

  /** Unmounts and waits for the mounting JVM to commit and end; returns its exit code. */
  int unmount() throws Exception {
    if (MountPoints.isMounted(dir)) {
      sh("fusermount -u '" + dir + "' || umount -l '" + dir + "'");
    }
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    return process.exitValue();
  }

  @Override
  public void close() throws Exception {
    if (process.isAlive() || MountPoints.isMounted(dir)) {
      try {
        unmount();
      } finally {
        if (MountPoints.isMounted(dir)) {
          sh("fusermount -u -z '" + dir + "'");
        }
      }
    }
  }

  /** {@code modelfs ARGS} of the core CLI, in process: its standard output's bytes. */
  static byte[] modelfs(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, code, String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  static Path fixture(String name) {
    return Path.of(System.getProperty("modelfs.fixtures"), name);
  }

  /** The DL4J fixture {@code mlp_adam.fb} converted to {@code dir/model.sdz} (a format the mount writes back). */
  static Path sdzModel(Path dir) {
    Path m = dir.resolve("model.sdz");
    modelfs("convert", fixture("mlp_adam.fb").toString(), m.toString(), "--quiet");
    return m;
  }
}
