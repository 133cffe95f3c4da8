package org.modelfs.provider;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.WriteOptions;
import org.modelfs.testing.SyntheticModels;

/**
 * A 512 MiB parameter read whole through {@code map} and through a channel in a child JVM with
 * {@code -Xmx128m}, from SDNB, STORED SDZ and big-endian fb: reads stream or map, the heap
 * never holds the array.
 */
class LargeReadTest {
  private static final long ELEMENTS = 128L * 1024 * 1024; // 512 MiB of FLOAT
  @TempDir Path tmp;

  @Test
  void fiveHundredTwelveMegabyteParameterWith128MegabyteHeap() throws Exception {
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), 1, (int) ELEMENTS);
    List<String> models = List.of("big.sdnb", "big.sdz", "big.fb");
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), tmp.resolve("big.sdnb"), WriteOptions.of(ModelFormat.SDNB));
      ModelFiles.write(synthetic.tag(), tmp.resolve("big.sdz"), WriteOptions.of(ModelFormat.SDZ));
      ModelFiles.write(synthetic.tag(), tmp.resolve("big.fb"), WriteOptions.of(ModelFormat.FB));
    }
    Files.delete(tmp.resolve("data.bin"));
    for (String m : models) {
      Process p = new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
              "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
              LargeReadMain.class.getName(), tmp.resolve(m).toString(), Long.toString(ELEMENTS))
          .redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), m + " timed out");
      String log = Files.readString(tmp.resolve("child.log"));
      assertEquals(0, p.exitValue(), m + ": " + log);
      assertTrue(log.startsWith("OK " + m), log);
      Files.delete(tmp.resolve(m));
    }
  }
}
