package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user dropping the optimizer state of some parameters with a generic recursive
 * delete: the JDK documentation's walkFileTree delete, commons-io
 * {@code PathUtils.deleteDirectory} and {@code cleanDirectory}, Guava
 * {@code MoreFiles.deleteRecursively(path)} (secure: needs {@code SecureDirectoryStream}), with
 * {@code ALLOW_INSECURE}, and {@code deleteDirectoryContents}. Issue 13 item 1: a directory stays
 * until it is deleted, also when its last file goes, so each tool finishes without an error;
 * the parameters stay; the commit is accepted (DL4J loads a model whose Adam state covers only
 * some parameters); after reopening the deleted state is gone and the rest is unchanged.
 */
class UpdaterDeleteTest {
  @TempDir Path tmp;

  @Test
  void jdkDocsDeleteOfOneParametersState() throws Exception {
    deleteAndCheck(fs -> JdkIdioms.deleteTree(fs.getPath("/updater/layer0/W")),
        "/updater/layer0/W", List.of("layer0/W"));
  }

  @Test
  void commonsIoDeleteDirectoryOfALayersState() throws Exception {
    deleteAndCheck(fs -> CommonsIoIdioms.deleteDirectory(fs.getPath("/updater/layer0")),
        "/updater/layer0", List.of("layer0/W", "layer0/b"));
  }

  @Test
  void guavaDeleteRecursivelyOfOneParametersState() throws Exception {
    deleteAndCheck(fs -> GuavaIdioms.deleteRecursively(fs.getPath("/updater/layer0/W")),
        "/updater/layer0/W", List.of("layer0/W"));
  }

  @Test
  void guavaDeleteRecursivelyAllowInsecureOfALayersState() throws Exception {
    deleteAndCheck(fs -> GuavaIdioms.deleteRecursivelyAllowInsecure(fs.getPath("/updater/layer0")),
        "/updater/layer0", List.of("layer0/W", "layer0/b"));
  }

  @Test
  void guavaDeleteDirectoryContentsKeepsTheDirectory() throws Exception {
    deleteAndCheck(fs -> {
      GuavaIdioms.deleteDirectoryContents(fs.getPath("/updater/layer0"));
      assertTrue(Files.isDirectory(fs.getPath("/updater/layer0")), "deleteDirectoryContents keeps the directory");
      assertEquals(List.of(), PathToolsModels.names(fs.getPath("/updater/layer0")));
    }, null, List.of("layer0/W", "layer0/b"));
  }

  @Test
  void commonsIoCleanDirectoryKeepsTheDirectories() throws Exception {
    deleteAndCheck(fs -> {
      CommonsIoIdioms.cleanDirectory(fs.getPath("/updater/layer0"));
      assertEquals(List.of("W", "b"), PathToolsModels.names(fs.getPath("/updater/layer0")), "cleanDirectory keeps directories");
      assertEquals(List.of(), PathToolsModels.names(fs.getPath("/updater/layer0/W")));
    }, null, List.of("layer0/W", "layer0/b"));
  }

  /**
   * Runs {@code delete} on a mounted copy of the example; then {@code deletedDir} (if given) is
   * gone, the state of {@code params} is gone, every parameter and all other state unchanged;
   * commit; reopen: the same.
   */
  private void deleteAndCheck(PathToolsModels.FsAction delete, String deletedDir, List<String> params)
      throws Exception {
    Path model = PathToolsModels.fb(tmp);
    Map<String, byte[]> before;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      before = PathToolsModels.files(fs.getPath("/tags/default"));
      delete.run(fs);
      if (deletedDir != null) {
        assertFalse(Files.exists(fs.getPath(deletedDir)), deletedDir + " deleted");
      }
      assertRemaining(fs, before, params);
      PathToolsModels.commit(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertRemaining(fs, before, params);
    }
  }

  /** Everything of {@code before} except the updater state of {@code params} is there, unchanged; that state is not. */
  private static void assertRemaining(FileSystem fs, Map<String, byte[]> before, List<String> params) throws Exception {
    Map<String, byte[]> now = PathToolsModels.files(fs.getPath("/tags/default"));
    for (Map.Entry<String, byte[]> e : before.entrySet()) {
      String name = e.getKey();
      boolean gone = params.stream().anyMatch(p -> name.startsWith("updater/" + p + "/"));
      assertEquals(!gone, now.containsKey(name), name);
      // graph and graph.json are renderings of the changed model; the arrays are what must stay
      if (!gone && !name.equals("graph") && !name.equals("graph.json")) {
        assertArrayEquals(e.getValue(), now.get(name), name);
      }
    }
    for (String p : params) {
      assertTrue(Files.isRegularFile(fs.getPath("/params/" + p)), "the parameter stays: " + p);
      assertFalse(Files.exists(fs.getPath("/updater/" + p + "/M")) || Files.exists(fs.getPath("/updater/" + p + "/V")));
    }
  }
}
