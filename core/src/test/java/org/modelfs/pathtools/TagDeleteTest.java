package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user removing a whole tag with a generic recursive delete instead of
 * {@code Files.delete("/tags/v1")}: the JDK documentation's walkFileTree delete (every file,
 * then every directory, bottom up), commons-io {@code PathUtils.deleteDirectory}, Guava
 * {@code MoreFiles.deleteRecursively(path)} (secure: the provider's directory streams must be
 * {@code SecureDirectoryStream}s) and with {@code ALLOW_INSECURE}. Issue 13 item 1: recursive
 * delete works; in a two-tag SDZ the tag is gone, the other is intact, and the commit is accepted.
 */
class TagDeleteTest {
  @TempDir Path tmp;

  @Test
  void jdkDocsDeleteOfATag() throws Exception {
    deleteTagV1(fs -> JdkIdioms.deleteTree(fs.getPath("/tags/v1")));
  }

  @Test
  void commonsIoDeleteDirectoryOfATag() throws Exception {
    deleteTagV1(fs -> CommonsIoIdioms.deleteDirectory(fs.getPath("/tags/v1")));
  }

  @Test
  void guavaDeleteRecursivelyOfATag() throws Exception {
    deleteTagV1(fs -> GuavaIdioms.deleteRecursively(fs.getPath("/tags/v1")));
  }

  @Test
  void guavaDeleteRecursivelyAllowInsecureOfATag() throws Exception {
    deleteTagV1(fs -> GuavaIdioms.deleteRecursivelyAllowInsecure(fs.getPath("/tags/v1")));
  }

  /** Tags default and v1 (newest); {@code delete} must remove v1 and leave default as it was. */
  private void deleteTagV1(PathToolsModels.FsAction delete) throws Exception {
    Path model = PathToolsModels.twoTagSdz(tmp);
    Map<String, String> defaultTag;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      defaultTag = TreeSnapshot.of(fs.getPath("/tags/default"));
      delete.run(fs);
      assertFalse(Files.exists(fs.getPath("/tags/v1")));
      assertEquals(List.of("default"), PathToolsModels.names(fs.getPath("/tags")));
      assertEquals(defaultTag, TreeSnapshot.of(fs.getPath("/tags/default")));
      PathToolsModels.commit(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(List.of("default"), PathToolsModels.names(fs.getPath("/tags")));
      assertEquals(defaultTag, TreeSnapshot.of(fs.getPath("/tags/default")));
    }
  }
}
