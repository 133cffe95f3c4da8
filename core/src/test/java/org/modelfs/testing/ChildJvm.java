package org.modelfs.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of this build in a child JVM with the JVM options a test gives (a small
 * heap, another {@code java.io.tmpdir}), so that an {@code OutOfMemoryError} or a file written
 * outside the test is seen as the child's failure, not the test runner's.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** What the child did: its exit code and its stdout and stderr together. */
  public record Result(int exit, String output) {
    /** True if the child ran out of heap (the JVM prints the error's name). */
    public boolean outOfMemory() {
      return output.contains("OutOfMemoryError");
    }
  }

  /**
   * Runs {@code main} with {@code jvmOptions} and {@code args}, at most {@code seconds}; the
   * output goes through {@code log} (a file in the test's directory).
   */
  public static Result run(Path log, int seconds, List<String> jvmOptions, Class<?> main, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("child did not finish within " + seconds + " s: " + String.join(" ", args));
    }
    return new Result(p.exitValue(), new String(Files.readAllBytes(log), StandardCharsets.UTF_8));
  }
}
