package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user cloning a tag with the JDK documentation's recursive copy
 * ({@link JdkIdioms#copyTree}: {@code Files.copy(dir, targetdir)} in preVisitDirectory, a
 * {@code FileAlreadyExistsException} tolerated for a directory, {@code Files.copy(file, target)}
 * without options in visitFile). Issue 13 item 2: a new tag is empty, so the no-clobber copy of
 * {@code /tags/default} into it — made beforehand by {@code Files.createDirectory} or by the
 * copy itself — yields an identical tag: the same relative paths, the same bytes of every file
 * (graph, graph.json, training.json, params, updater, metadata) and the same samediff attributes
 * of every array; after commit and reopen as well.
 */
class JdkCopyIntoNewTagTest {
  @TempDir Path tmp;

  @Test
  void copyIntoATagMadeByCreateDirectory() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.createDirectory(fs.getPath("/tags/v2"));
      JdkIdioms.copyTree(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
      assertIdenticalTags(fs);
      PathToolsModels.commit(fs);
      assertIdenticalTags(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertIdenticalTags(fs);
    }
  }

  @Test
  void copyMakesTheNewTagItself() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      JdkIdioms.copyTree(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
      assertIdenticalTags(fs);
      PathToolsModels.commit(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertIdenticalTags(fs);
    }
  }

  /** Tags default and v2 (newest), identical by {@link TreeSnapshot}. */
  static void assertIdenticalTags(FileSystem fs) throws Exception {
    assertEquals(List.of("default", "v2"), PathToolsModels.names(fs.getPath("/tags")));
    assertEquals(TreeSnapshot.of(fs.getPath("/tags/default")), TreeSnapshot.of(fs.getPath("/tags/v2")));
  }
}
