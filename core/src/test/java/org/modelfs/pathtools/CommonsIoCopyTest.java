package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user cloning and measuring a tag with Apache commons-io:
 * {@code PathUtils.copyDirectory(source, target)} (no copy options: it never replaces a file),
 * then {@code PathUtils.directoryContentEquals(source, target)} and
 * {@code PathUtils.sizeOfDirectory(dir)}. Issue 13 items 1 and 2: a new tag is empty, so the copy
 * succeeds and the tags are identical (also by our {@link TreeSnapshot}, which adds the samediff
 * attributes), after commit and reopen too; with {@code REPLACE_EXISTING} it refreshes a copy
 * that exists.
 */
class CommonsIoCopyTest {
  @TempDir Path tmp;

  @Test
  void copyDirectoryIntoATagMadeByCreateDirectory() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.createDirectory(fs.getPath("/tags/v2"));
      CommonsIoIdioms.copyDirectory(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
      assertEqualByCommonsIo(fs);
      JdkCopyIntoNewTagTest.assertIdenticalTags(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEqualByCommonsIo(fs);
      JdkCopyIntoNewTagTest.assertIdenticalTags(fs);
    }
  }

  @Test
  void copyDirectoryMakesTheNewTagItself() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      CommonsIoIdioms.copyDirectory(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
      assertEqualByCommonsIo(fs);
      JdkCopyIntoNewTagTest.assertIdenticalTags(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      JdkCopyIntoNewTagTest.assertIdenticalTags(fs);
    }
  }

  /**
   * What REPLACE_EXISTING is for: refreshing a copy that exists ({@code cp -rf}). v2 is a clone
   * of default; then default's layer0/W and training.json change; copying default over v2 with
   * {@code PathUtils.copyDirectory(source, target, REPLACE_EXISTING)} makes v2 equal again —
   * graph, graph.json, training.json and every array replaced in place.
   */
  @Test
  void copyDirectoryWithReplaceExistingRefreshesAnExistingCopy() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      CommonsIoIdioms.copyDirectory(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
      PathToolsModels.commit(fs);
      Files.write(fs.getPath("/tags/default/params/layer0/W"), new byte[128]);
      String training = Files.readString(fs.getPath("/tags/default/training.json"));
      Files.writeString(fs.getPath("/tags/default/training.json"), training.replace("\"minimize\" : true",
          "\"minimize\" : false"));
      assertNotEquals(TreeSnapshot.of(fs.getPath("/tags/default")), TreeSnapshot.of(fs.getPath("/tags/v2")));
      CommonsIoIdioms.copyDirectory(fs.getPath("/tags/default"), fs.getPath("/tags/v2"),
          StandardCopyOption.REPLACE_EXISTING);
      JdkCopyIntoNewTagTest.assertIdenticalTags(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      JdkCopyIntoNewTagTest.assertIdenticalTags(fs);
      assertTrue(Files.readString(fs.getPath("/tags/v2/training.json")).contains("\"minimize\" : false"));
    }
  }

  @Test
  void sizeOfDirectoryIsTheSumOfItsFiles() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      Path tag = fs.getPath("/tags/default");
      long sum;
      try (Stream<Path> s = Files.walk(tag)) {
        sum = s.filter(Files::isRegularFile).mapToLong(PathToolsModels::size).sum();
      }
      assertTrue(sum > 0);
      assertEquals(sum, CommonsIoIdioms.sizeOfDirectory(tag));
    }
  }

  private static void assertEqualByCommonsIo(FileSystem fs) throws Exception {
    assertTrue(CommonsIoIdioms.directoryContentEquals(fs.getPath("/tags/default"), fs.getPath("/tags/v2")),
        "PathUtils.directoryContentEquals");
    assertEquals(CommonsIoIdioms.sizeOfDirectory(fs.getPath("/tags/default")),
        CommonsIoIdioms.sizeOfDirectory(fs.getPath("/tags/v2")), "PathUtils.sizeOfDirectory");
  }
}
