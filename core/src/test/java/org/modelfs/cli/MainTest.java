package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.modelfs.testing.Fixtures;

/** The command line: output of {@code info}, {@code convert}, and exit codes 0/1/2. */
class MainTest {
  @TempDir Path tmp;

  record Result(int code, String out, String err) {}

  static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void infoListsFormatTagsAndArrays() {
    Result r = run("info", Fixtures.get("mlp_adam.fb").toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("format: fb"), r.out());
    assertTrue(r.out().contains("tags:   default"), r.out());
    assertTrue(r.out().matches("(?s).*VARIABLE\\s+FLOAT\\s+\\[4, 8]\\s+128\\s+big-endian\\s+layer0/W\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*UPDATER\\s+FLOAT\\s+\\[4, 8]\\s+128\\s+big-endian\\s+layer0/W/M\n.*"), r.out());
  }

  @Test
  void convertTakesTheFormatFromTheExtension() throws Exception {
    Path out = tmp.resolve("m.sdz");
    Result r = run("convert", Fixtures.get("dtypes.fb").toString(), out.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.size(out) > 0);
    Result info = run("info", out.toString());
    assertTrue(info.out().contains("format: sdz"), info.out());
    assertTrue(info.out().contains("metadata nd4j.format.type = APPENDED_BLOB"), info.out());
  }

  @Test
  void convertToFbRefusesUserMetadataUnlessDropped() throws Exception {
    // an SDNB model written by us carries only format keys, which fb may drop silently
    Path sdnb = tmp.resolve("m.sdnb");
    assertEquals(0, run("convert", Fixtures.get("mlp_adam.fb").toString(), sdnb.toString()).code());
    assertEquals(0, run("convert", sdnb.toString(), tmp.resolve("back.fb").toString()).code());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "''                                   | 2",
    "bogus                                | 2",
    "info                                 | 2",
    "info a b                             | 2",
    "convert in                           | 2",
    "convert in out.txt                   | 2",
    "convert in out.fb --format xyz       | 2",
    "convert in out.fb --max-shard-bytes 5| 2",
    "convert in out.sdnb --max-shard-bytes -1 | 2",
    "convert in out.sdnb --compression deflate | 2",
    "convert in out.sdz --compression zstd | 2",
    "convert in out.sdz --wat            | 2",
    "info does-not-exist.fb               | 2",
  })
  void exitCodes(String line, int code) {
    String[] args = line.isBlank() ? new String[0] : line.trim().split("\\s+");
    Result r = run(args);
    assertEquals(code, r.code(), line + " → " + r.err());
    if (code != 0) {
      assertTrue(!r.err().isBlank(), "a message on stderr");
    }
  }

  @Test
  void notAModelIsRefusedWithWhatWasFound() throws Exception {
    Path junk = tmp.resolve("junk.bin");
    Files.writeString(junk, "hello, this is not a model at all");
    Result r = run("info", junk.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("not a SameDiff model"), r.err());
    assertTrue(r.err().contains("junk.bin"), r.err());
  }
}
