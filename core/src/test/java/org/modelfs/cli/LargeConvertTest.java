package org.modelfs.cli;

import java.security.MessageDigest;
import java.util.HexFormat;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.Model;
import org.modelfs.model.Variable;
import org.modelfs.testing.SyntheticModels;

/**
 * A model larger than the heap converted by the CLI through every format in a child JVM with a
 * small {@code -Xmx}: arrays stream through bounded buffers, so the heap never holds one. The
 * default run converts 64 MB (4 arrays of 16 MB, each half the heap) with {@code -Xmx32m};
 * {@code -Pslow} also 300 MB (5 × 60 MB) with {@code -Xmx256m}.
 */
class LargeConvertTest {
  @TempDir Path tmp;

  @Test
  void convertsSixtyFourMegabytesWith32MegabyteHeap() throws Exception {
    convertChain(4, 4_000_000, "-Xmx32m", 20_000_000);
  }

  @Test
  @Tag("slow")
  void convertsThreeHundredMegabytesWith256MegabyteHeap() throws Exception {
    convertChain(5, 15_000_000, "-Xmx256m", 100_000_000);
  }

  /** {@code arrays} FLOAT arrays of {@code elements} through every format in a CLI JVM with {@code heap}. */
  private void convertChain(int arrays, int elements, String heap, long shardBytes) throws Exception {
    Path fb = tmp.resolve("big.fb");
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), arrays, elements);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), fb, WriteOptions.of(ModelFormat.FB));
    }
    Files.delete(tmp.resolve("data.bin"));
    String expected = hashes(fb, arrays);

    String[][] chain = {
      {"convert", "big.fb", "a.sdnb"},
      {"convert", "a.sdnb", "b.sdnb", "--max-shard-bytes", Long.toString(shardBytes)},
      {"convert", "b.sdnb", "c.sdz"},
      {"convert", "c.sdz", "d.sdz", "--compression", "deflate"},
      {"convert", "d.sdz", "e.fb"},
    };
    for (String[] step : chain) {
      runCli(heap, step);
    }
    assertEquals(expected, hashes(tmp.resolve("e.fb"), arrays));
    assertEquals(expected, hashes(tmp.resolve("b.sdnb"), arrays));
  }

  private void runCli(String heap, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        heap, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true)
        .redirectOutput(tmp.resolve("cli.log").toFile()).start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", args));
    }
    assertEquals(0, p.exitValue(), String.join(" ", args) + " failed:" + File.separator
        + Files.readString(tmp.resolve("cli.log")));
  }

  /** Streams every array through SHA-256. */
  private static String hashes(Path model, int arrays) throws Exception {
    StringBuilder sb = new StringBuilder();
    try (Model m = Models.open(model)) {
      for (Variable v : m.newest().arrays()) {
        var md = MessageDigest.getInstance("SHA-256");
        try (InputStream in = ArrayStreams.littleEndianStream(v.array())) {
          byte[] buf = new byte[1 << 16];
          int n;
          while ((n = in.read(buf)) > 0) {
            md.update(buf, 0, n);
          }
        }
        sb.append(v.name()).append(' ').append(HexFormat.of().formatHex(md.digest())).append('\n');
      }
    }
    assertEquals(arrays, sb.toString().lines().count(), "arrays of " + model.getFileName());
    return sb.toString();
  }
}
