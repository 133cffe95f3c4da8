package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedWriter;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user writing a note into a model's metadata with {@code Files.newBufferedWriter}
 * (UTF-8, the default {@code CREATE, TRUNCATE_EXISTING, WRITE}) and reading it with
 * {@code Files.readAllLines}, on an SDZ model (fb cannot hold metadata): the lines read back at
 * once, after commit, and after reopening.
 */
class MetadataWriterTest {
  @TempDir Path tmp;

  private static final List<String> NOTE = List.of("trained on run 42", "lr schedule: cosine, ünïcödé ok");

  @Test
  void aNoteWrittenWithABufferedWriterReadsBack() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path note = fs.getPath("/metadata/note");
      try (BufferedWriter writer = Files.newBufferedWriter(note)) {
        for (String line : NOTE) {
          writer.write(line);
          writer.newLine();
        }
      }
      assertEquals(NOTE, Files.readAllLines(note));
      PathToolsModels.commit(fs);
      assertEquals(NOTE, Files.readAllLines(note));
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(NOTE, Files.readAllLines(fs.getPath("/metadata/note")));
      assertEquals(NOTE, Files.readAllLines(fs.getPath("/tags/default/metadata/note")));
    }
  }
}
