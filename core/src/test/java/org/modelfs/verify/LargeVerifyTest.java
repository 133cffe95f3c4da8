package org.modelfs.verify;

import org.modelfs.format.Codecs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.cli.Main;
import org.modelfs.format.JsonText;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * {@code modelfs verify --finite} streams: in a child JVM whose heap is far smaller than one
 * parameter, every array is read to its end (and a STORED SDZ's entries once more for their
 * CRC) and the model is sound. The default suite reads a 256 MiB parameter with {@code -Xmx32m}
 * from a STORED SDZ and a big-endian fb; the slow ones ({@code -Pslow}) a 2 GiB model of two
 * 1 GiB parameters (SDNB, STORED SDZ) and a 1 GiB big-endian fb parameter with {@code -Xmx64m}.
 */
class LargeVerifyTest {
  @TempDir Path tmp;

  @Test
  void aQuarterGigabyteParameterWith32MegabyteHeap() throws Exception {
    verifyInChild(1, 64 * 1024 * 1024, "-Xmx32m", List.of("big.sdz", "big.fb"));
  }

  @Test
  @Tag("slow")
  void aTwoGigabyteModelWith64MegabyteHeap() throws Exception {
    verifyInChild(2, 256 * 1024 * 1024, "-Xmx64m", List.of("big.sdnb", "big.sdz"));
  }

  @Test
  @Tag("slow")
  void aGigabyteBigEndianParameterWith64MegabyteHeap() throws Exception {
    verifyInChild(1, 256 * 1024 * 1024, "-Xmx64m", List.of("big.fb"));
  }

  /** Writes {@code count} FLOAT parameters of {@code elements} each as every model, and verifies each in a child JVM. */
  private void verifyInChild(int count, int elements, String heap, List<String> models) throws Exception {
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), count, elements);
    try (var data = synthetic.data()) {
      for (String m : models) {
        ModelFiles.write(synthetic.tag(), tmp.resolve(m), WriteOptions.of(Codecs.fromFileName(m)));
      }
    }
    Files.delete(tmp.resolve("data.bin"));
    long bytes = 4L * elements * count;
    for (String m : models) {
      Process p = new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(), heap,
              "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
              Main.class.getName(), "verify", "--finite", "--json", "--quiet", tmp.resolve(m).toString())
          .redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError(m + " timed out");
      }
      String log = Files.readString(tmp.resolve("child.log"));
      assertEquals(0, p.exitValue(), m + ": " + log);
      Map<?, ?> json = (Map<?, ?>) JsonText.parse(log, 8, true);
      assertEquals(List.of(), json.get("problems"), m + ": " + log);
      assertEquals((long) count, json.get("arrays"), m + ": " + log);
      assertEquals(bytes, json.get("bytes"), m + ": " + log);
      Files.delete(tmp.resolve(m));
    }
  }
}
