package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for user code that relies on POSIX directory semantics — every recursive delete and
 * copy does. Issue 13 item 1: a directory that exists stays until it is deleted, also when its
 * last file goes; {@code Files.delete} of it then works; {@code Files.delete} of a non-empty one is
 * {@code DirectoryNotEmptyException}; a directory made by {@code createDirectory} exists; the
 * provider's directory streams are {@code SecureDirectoryStream}s (what Guava's secure recursive
 * delete needs). Item 4: a path below a regular file is {@code NotDirectoryException}.
 */
class DirectoryLifecycleTest {
  @TempDir Path tmp;

  @Test
  void aDirectoryStaysWhenItsLastFileIsDeleted() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path dir = fs.getPath("/updater/layer0/W");
      Files.delete(dir.resolve("M"));
      Files.delete(dir.resolve("V"));
      assertTrue(Files.exists(dir), "still there");
      assertTrue(Files.isDirectory(dir));
      assertEquals(List.of(), PathToolsModels.names(dir));
      assertEquals(List.of("W", "b"), PathToolsModels.names(fs.getPath("/updater/layer0")));
      Files.delete(dir);
      assertFalse(Files.exists(dir));
      assertEquals(List.of("b"), PathToolsModels.names(fs.getPath("/updater/layer0")));
      PathToolsModels.commit(fs);
    }
  }

  @Test
  void deletingANonEmptyDirectoryIsDirectoryNotEmpty() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertThrows(DirectoryNotEmptyException.class, () -> Files.delete(fs.getPath("/updater/layer1/W")));
      assertThrows(DirectoryNotEmptyException.class, () -> Files.delete(fs.getPath("/params/layer0")));
      assertTrue(Files.isRegularFile(fs.getPath("/params/layer0/W")));
    }
  }

  @Test
  void aCreatedDirectoryExistsUntilDeleted() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path dir = fs.getPath("/params/encoder");
      Files.createDirectory(dir);
      assertTrue(Files.isDirectory(dir), "exists after createDirectory");
      assertTrue(PathToolsModels.names(fs.getPath("/params")).contains("encoder"));
      Files.delete(dir);
      assertFalse(Files.exists(dir));
    }
  }

  @Test
  void directoryStreamsAreSecure() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      for (String dir : List.of("/", "/tags", "/tags/default", "/params", "/updater/layer0")) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(fs.getPath(dir))) {
          assertTrue(s instanceof SecureDirectoryStream, dir + ": " + s.getClass().getName());
        }
      }
    }
  }

  @Test
  void nothingIsCreatedBelowARegularFile() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertThrows(NotDirectoryException.class, () -> Files.createFile(fs.getPath("/params/layer0/W/x")));
      assertTrue(Files.isRegularFile(fs.getPath("/params/layer0/W")));
    }
  }
}
