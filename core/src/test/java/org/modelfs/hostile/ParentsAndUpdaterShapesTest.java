package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;

/**
 * Two rules a POSIX user and DL4J expect: nothing is created below a regular file (the JDK's
 * {@code NotDirectoryException}, not a new parameter {@code layer0/W/x}); and a parameter's
 * updater state keeps its shape — reshaping one without the other is refused at commit, naming
 * both, because DL4J would load the model and fail at the first training step.
 */
class ParentsAndUpdaterShapesTest {
  @TempDir Path tmp;

  private Path model() throws Exception {
    return Files.copy(Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1", "mlp_adam.fb"), tmp.resolve("m.fb"));
  }

  @Test
  void nothingIsCreatedBelowAFile() throws Exception {
    Path m = model();
    byte[] before = Files.readAllBytes(m);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertThrows(NotDirectoryException.class, () -> Files.createFile(fs.getPath("/params/layer0/W/x")));
      assertThrows(NotDirectoryException.class, () -> Files.write(fs.getPath("/params/layer0/W/x"), new byte[4]));
      assertThrows(NotDirectoryException.class, () -> Files.createDirectory(fs.getPath("/params/layer0/W/d")));
      assertThrows(NotDirectoryException.class, () -> Files.createDirectories(fs.getPath("/params/layer0/W/d/e")));
      assertThrows(NotDirectoryException.class,
          () -> Files.write(fs.getPath("/tags/default/params/layer0/b/x/y"), new byte[4]));
      Files.write(fs.getPath("/params/layer0/new"), new byte[4]); // beside a file: fine
      ((JournaledFileSystem) fs).rollback();
    }
    assertArrayEquals(before, Files.readAllBytes(m));
  }

  @Test
  void reshapingAParameterWithoutItsUpdaterStateIsRefused() throws Exception {
    Path m = model();
    byte[] before = Files.readAllBytes(m);
    Path w = Files.write(tmp.resolve("w.bin"), new byte[128]);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"cp", w.toString(), m + ":/params/layer0/W", "--shape", "2,16"},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    String e = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code, e); // an error (docs/CLI.md: 2)
    assertTrue(e.contains("updater/layer0/W/M: shape [4, 8] differs from its parameter's [2, 16]")
        && e.contains("params/layer0/W"), e);
    assertArrayEquals(before, Files.readAllBytes(m), "the refused commit wrote nothing");
    // reshaping both is a model DL4J can train: accepted
    try (FileSystem fs = ModelFileSystems.open(m)) {
      for (String p : new String[] {"/params/layer0/W", "/updater/layer0/W/M", "/updater/layer0/W/V"}) {
        Files.setAttribute(fs.getPath(p), "samediff:shape", new long[] {2, 16});
      }
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertArrayEquals(new long[] {2, 16}, (long[]) Files.getAttribute(fs.getPath("/updater/layer0/W/V"), "samediff:shape"));
    }
  }
}
