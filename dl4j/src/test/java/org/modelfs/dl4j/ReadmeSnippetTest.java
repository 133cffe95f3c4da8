package org.modelfs.dl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The README's "Saving models larger than 2 GB from DL4J" snippet, run as written (on the mlp_adam
 * fixture, in a temporary directory), and checked to be the README's text line for line.
 */
class ReadmeSnippetTest {
  private static final Path SELF = Path.of("src/test/java/org/modelfs/dl4j/ReadmeSnippetTest.java");

  @TempDir Path dir;

  @Test
  void theSnippetRunsAsWritten() throws Exception {
    SameDiff sd = SameDiff.load(Path.of(System.getProperty("modelfs.fixtures"), "mlp_adam.fb").toFile(), true);
    DataSet batch = new DataSet(Nd4j.rand(DataType.FLOAT, 5, 4), Nd4j.rand(DataType.FLOAT, 5, 3));
    // README begin
    // sd: your SameDiff (any size), trained or not; dir: where to save it
    Path file = dir.resolve("model.sdmc");                    // one container file; "model.sdnb" with
    SameDiffFiles.save(sd, file);                             // Map.of("format", "sdnb-sharded"): 1 GiB shards
    SameDiff restored = SameDiffFiles.load(file);
    restored.fit(batch);                                      // continues with the saved Adam/... state
    // README end
    sd.fit(batch);
    assertEquals(Dl4jState.of(sd), Dl4jState.of(restored));
  }

  @Test
  void theReadmeShowsThisCode() throws Exception {
    String src = Files.readString(SELF);
    String body = src.substring(src.indexOf("// README begin\n") + 16, src.indexOf("    // README end\n"));
    String readme = Files.readString(Path.of("../README.md"));
    StringBuilder expected = new StringBuilder();
    for (String line : body.split("\n")) {
      expected.append(line.length() >= 4 ? line.substring(4) : line.strip()).append('\n');
    }
    assertTrue(readme.contains("```java\n" + expected + "```\n"), "README.md shows:\n" + expected);
  }
}
