package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user deleting parameters: {@code Files.delete}, the JDK documentation's recursive
 * delete of a layer's directory, and the JDK's {@code Files.copy(diskFile, modelPath,
 * REPLACE_EXISTING)} from the default file system (which deletes, then creates). Issue 13 item 4:
 * a parameter no op uses goes entirely at commit (from {@code params/}, from graph.json, with its
 * updater state); one an op uses may be deleted in the tree, but the commit is refused with an
 * {@code IOException} naming the op(s) that use it — unless a new array arrives in the same
 * change; {@code rollback()} restores it.
 *
 * <p>The mlp_adam.fb fixture has no parameter that no op uses (each of its six is an op input, see
 * {@link PathToolsModels}), so the unused one is made first.
 */
class ParameterDeleteTest {
  @TempDir Path tmp;

  @Test
  void recursiveDeleteOfALayerUsedByOpsIsRefusedAtCommitNamingTheOps() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    byte[] before = Files.readAllBytes(model);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Map<String, byte[]> layer0 = PathToolsModels.files(fs.getPath("/params/layer0"));
      JdkIdioms.deleteTree(fs.getPath("/params/layer0"));
      assertFalse(Files.exists(fs.getPath("/params/layer0")));
      IOException e = assertThrows(IOException.class, () -> PathToolsModels.commit(fs));
      assertNamesOp(e, "matmul"); // inputs: input, layer0/W
      assertNamesOp(e, "add"); // inputs: matmul, layer0/b
      PathToolsModels.rollback(fs);
      assertEquals(layer0.keySet(), PathToolsModels.files(fs.getPath("/params/layer0")).keySet());
      for (Map.Entry<String, byte[]> f : layer0.entrySet()) {
        assertArrayEquals(f.getValue(), Files.readAllBytes(fs.getPath("/params/layer0").resolve(f.getKey())));
      }
      assertFalse(((JournaledFileSystem) fs).hasPendingChanges());
    }
    assertArrayEquals(before, Files.readAllBytes(model), "nothing was committed");
  }

  @Test
  void deleteOfAParameterUsedByAnOpIsRefusedAtCommitNamingTheOp() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.delete(fs.getPath("/params/layer1/W"));
      IOException e = assertThrows(IOException.class, () -> PathToolsModels.commit(fs));
      assertNamesOp(e, "matmul_1"); // inputs: multiply, layer1/W
      PathToolsModels.rollback(fs);
      assertTrue(Files.isRegularFile(fs.getPath("/params/layer1/W")));
    }
  }

  @Test
  void aParameterReplacedByTheJdksCopyFromDiskStaysValid() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    byte[] w = new byte[128];
    for (int i = 0; i < w.length; i++) {
      w[i] = (byte) (i * 7);
    }
    Path disk = Files.write(tmp.resolve("w.bin"), w);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.copy(disk, fs.getPath("/params/layer0/W"), StandardCopyOption.REPLACE_EXISTING);
      PathToolsModels.commit(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path p = fs.getPath("/params/layer0/W");
      assertArrayEquals(w, Files.readAllBytes(p));
      assertArrayEquals(new long[] {4, 8}, (long[]) Files.getAttribute(p, "samediff:shape"));
      assertEquals("VARIABLE", Files.getAttribute(p, "samediff:kind"));
    }
  }

  @Test
  void anUnusedParameterGoesEntirely() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.write(fs.getPath("/params/extra"), new byte[16]);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertTrue(Files.isRegularFile(fs.getPath("/params/extra")));
      assertTrue(PathToolsModels.variables(PathToolsModels.graphJson(fs)).contains("extra"), "committed as a variable");
      assertFalse(PathToolsModels.opInputs(PathToolsModels.graphJson(fs)).contains("extra"), "no op uses it");
      Files.delete(fs.getPath("/params/extra"));
      PathToolsModels.commit(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertFalse(Files.exists(fs.getPath("/params/extra")));
      assertFalse(PathToolsModels.variables(PathToolsModels.graphJson(fs)).contains("extra"), "gone from graph.json");
      assertFalse(Files.exists(fs.getPath("/updater/extra")));
    }
  }

  /** The message names {@code op} as a whole word ({@code matmul} is not {@code matmul_1}). */
  private static void assertNamesOp(IOException e, String op) {
    String msg = String.valueOf(e.getMessage());
    assertTrue(Pattern.compile("(?<![\\w/])" + Pattern.quote(op) + "(?![\\w/])").matcher(msg).find(),
        "the refusal names op " + op + ": " + msg);
  }
}
