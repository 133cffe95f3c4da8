package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.testing.SyntheticModels;

/**
 * A mount of an SDNB with 1,000,000 one-float parameters (108 MB) works in a child JVM with
 * {@code -Xmx256m}: open, read, list the directory of a million files, 3,000 changes (issue 15
 * item 4; the bytes per array are in docs/PERFORMANCE.md). Before: {@code OutOfMemoryError}
 * while opening.
 */
class MillionParametersTest {
  private static final int PARAMS = 1_000_000;

  @TempDir Path tmp;

  @Test
  void millionParametersIn256MegabyteHeap() throws Exception {
    Path model = SyntheticModels.sdnb(tmp.resolve("million.sdnb"), PARAMS);
    Process p = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
            MillionMain.class.getName(), model.toString(), Integer.toString(PARAMS))
        .redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
    assertTrue(p.waitFor(10, TimeUnit.MINUTES), "timed out");
    String log = Files.readString(tmp.resolve("child.log"));
    assertEquals(0, p.exitValue(), log);
    assertTrue(log.startsWith("OK"), log);
  }
}
