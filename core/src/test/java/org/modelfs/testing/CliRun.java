package org.modelfs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.modelfs.cli.Main;

/**
 * The {@code modelfs} commands run in this JVM through {@link Main#run}, as the store modules'
 * CLI tests (s3, azure, hdfs) run them against their servers: the exit code, stdout's bytes and
 * stderr's text.
 */
public final class CliRun {
  private CliRun() {}

  /** What a command did. */
  public record Result(int code, byte[] bytes, String err) {
    /** Stdout as UTF-8 text. */
    public String out() {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** Runs {@code modelfs args…}. */
  public static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }

  /** Runs {@code modelfs args…}, which must exit 0 (else the failure shows its stderr). */
  public static Result ok(String... args) {
    Result r = run(args);
    assertEquals(0, r.code(), String.join(" ", args) + ": " + r.err());
    return r;
  }
}
