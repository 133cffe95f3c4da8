package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.testing.Fixtures;

/**
 * {@code modelfs import} changes an array's shape only when asked ({@code --change-shape}), as it
 * changes a dtype only with {@code --change-dtype} (oracle scripts 33, 48: DL4J loads the
 * reshaped parameter, and its op fails at the first run); with it, updater state left in the old
 * shape is still refused by the commit.
 */
class ImportShapeChangeTest {
  @TempDir Path tmp;

  private Path model() throws IOException {
    return Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("m.fb"));
  }

  private Path npy(String shape, int elements) throws IOException {
    return ArrayValuesRoutesTest.npy(tmp.resolve("a.npy"), "<f4", shape, new byte[4 * elements]);
  }

  @Test
  void aNpyOfAnotherShapeIsRefusedUnlessAsked() throws IOException {
    Path m = model();
    byte[] before = Files.readAllBytes(m);
    GraphRulesRoutesTest.Result r = GraphRulesRoutesTest.run("import", npy("(2, 2)", 4).toString(), m + ":const/scale");
    assertEquals(2, r.code(), r.out());
    assertTrue(r.err().contains("shape [] in the model, [2, 2] in the file: a shape changes only when asked (--change-shape)"), r.err());
    assertArrayEquals(before, Files.readAllBytes(m));

    r = GraphRulesRoutesTest.run("import", npy("(2, 2)", 4).toString(), m + ":const/scale", "--change-shape");
    assertEquals(0, r.code(), r.err());
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertArrayEquals(new long[] {2, 2},
          Files.readAttributes(fs.getPath("/params/const/scale"), SamediffFileAttributes.class).shape());
    }
  }

  @Test
  void withChangeShapeUpdaterStateOfTheOldShapeIsStillRefused() throws IOException {
    Path m = model();
    byte[] before = Files.readAllBytes(m);
    GraphRulesRoutesTest.Result r = GraphRulesRoutesTest.run("import", npy("(8, 4)", 32).toString(), m + ":layer0/W", "--change-shape");
    assertNotEquals(0, r.code(), r.out());
    assertTrue(r.err().contains("differs from its parameter's [8, 4]"), r.err());
    assertArrayEquals(before, Files.readAllBytes(m));
  }

  @Test
  void theSameShapeNeedsNoFlag() throws IOException {
    Path m = model();
    GraphRulesRoutesTest.Result r = GraphRulesRoutesTest.run("import", npy("(4, 8)", 32).toString(), m + ":layer0/W");
    assertEquals(0, r.code(), r.err());
  }
}
