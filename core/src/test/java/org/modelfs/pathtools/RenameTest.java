package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user renaming a layer or one parameter with {@code Files.move} (no options).
 * Issue 13 item 3: moving {@code /params/layer0} to {@code /params/encoder0} renames every
 * parameter below it, its updater state, and the variables and op inputs in the graph
 * (graph.json lists {@code encoder0/W}; {@code matmul}'s input is {@code encoder0/W}; no
 * {@code layer0/} is left); each array's bytes are unchanged; after commit and reopen the same.
 * Moving one file renames that variable likewise. Moving onto an existing target without
 * {@code REPLACE_EXISTING} is {@code FileAlreadyExistsException}.
 */
class RenameTest {
  @TempDir Path tmp;

  @Test
  void movingALayerDirectoryRenamesItsParametersStateAndGraph() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    Map<String, byte[]> before;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      before = arrays(fs, "layer0");
      Files.move(fs.getPath("/params/layer0"), fs.getPath("/params/encoder0"));
      assertRenamed(fs, before, "layer0", "encoder0");
      assertTrue(PathToolsModels.opInputs(PathToolsModels.graphJson(fs)).containsAll(List.of("encoder0/W", "encoder0/b")));
      PathToolsModels.commit(fs);
      assertRenamed(fs, before, "layer0", "encoder0");
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertRenamed(fs, before, "layer0", "encoder0");
      assertArrayEquals(new long[] {4, 8}, (long[]) Files.getAttribute(fs.getPath("/params/encoder0/W"), "samediff:shape"));
    }
  }

  @Test
  void movingOneParameterRenamesThatVariable() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    Map<String, byte[]> before;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      before = arrays(fs, "layer1");
      Files.move(fs.getPath("/params/layer1/W"), fs.getPath("/params/dense/W"));
      // as mv(1) leaves the directory a file moved out of: layer1/ stays, empty, until the commit
      assertTrue(Files.isDirectory(fs.getPath("/params/layer1")));
      assertTrue(Files.isDirectory(fs.getPath("/updater/layer1")));
      Files.delete(fs.getPath("/params/layer1"));
      Files.delete(fs.getPath("/updater/layer1"));
      assertRenamed(fs, before, "layer1", "dense");
      assertTrue(PathToolsModels.opInputs(PathToolsModels.graphJson(fs)).contains("dense/W"));
      PathToolsModels.commit(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertRenamed(fs, before, "layer1", "dense");
      assertArrayEquals(new long[] {8, 3}, (long[]) Files.getAttribute(fs.getPath("/params/dense/W"), "samediff:shape"));
    }
  }

  @Test
  void movingOntoAnExistingTargetIsFileAlreadyExists() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Map<String, byte[]> before = PathToolsModels.files(fs.getPath("/tags/default"));
      assertThrows(FileAlreadyExistsException.class,
          () -> Files.move(fs.getPath("/params/layer0/W"), fs.getPath("/params/layer1/W")));
      assertThrows(FileAlreadyExistsException.class,
          () -> Files.move(fs.getPath("/params/layer0"), fs.getPath("/params/layer1")));
      Map<String, byte[]> after = PathToolsModels.files(fs.getPath("/tags/default"));
      assertEquals(before.keySet(), after.keySet());
      for (String name : before.keySet()) {
        assertArrayEquals(before.get(name), after.get(name), name);
      }
    }
  }

  /** The parameters and updater state named {@code <prefix>/…}: "params/<name>" / "updater/<name>/<key>" → bytes. */
  private static Map<String, byte[]> arrays(FileSystem fs, String prefix) throws Exception {
    Map<String, byte[]> m = new TreeMap<>();
    for (String dir : List.of("params", "updater")) {
      Path p = fs.getPath("/" + dir + "/" + prefix);
      if (Files.exists(p)) {
        PathToolsModels.files(p).forEach((rel, b) -> m.put(dir + "/" + prefix + "/" + rel, b));
      }
    }
    return m;
  }

  /**
   * Every array of {@code before} (named with {@code from}) is now at {@code to} with the same
   * bytes; nothing is left below {@code from}; graph.json names {@code to}'s variables and no
   * {@code from/} anywhere.
   */
  private static void assertRenamed(FileSystem fs, Map<String, byte[]> before, String from, String to) throws Exception {
    assertFalse(before.isEmpty());
    for (Map.Entry<String, byte[]> e : before.entrySet()) {
      String name = e.getKey().replaceFirst("^(params|updater)/" + from + "/", "$1/" + to + "/");
      Path p = fs.getPath("/" + name);
      assertTrue(Files.isRegularFile(p), name);
      assertArrayEquals(e.getValue(), Files.readAllBytes(p), name);
    }
    assertFalse(Files.exists(fs.getPath("/params/" + from)), "/params/" + from);
    assertFalse(Files.exists(fs.getPath("/updater/" + from)), "/updater/" + from);
    assertTrue(Files.exists(fs.getPath("/updater/" + to + "/W/M")), "/updater/" + to + "/W/M");
    String json = PathToolsModels.graphJson(fs);
    assertTrue(PathToolsModels.variables(json).contains(to + "/W"), "graph.json variables: " + PathToolsModels.variables(json));
    assertFalse(json.contains("\"" + from + "/"), "graph.json still names " + from + "/…");
  }
}
