package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Fixtures;

/**
 * The tag-name rules of docs/FILESYSTEM.md §1.1 through {@code Files.*}: names are
 * {@code [A-Za-z0-9][A-Za-z0-9._-]{0,127}} and unique ignoring case; a bad name is refused with
 * the rule in the message, a duplicate in another case with the existing name.
 */
class TagNameRulesTest {
  @TempDir Path tmp;

  private FileSystem mount() throws Exception {
    Path m = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("m.sdz")); // fb bytes, committed as the SDZ its name says
    return ModelFileSystems.open(m, Map.of("format", "sdz"));
  }

  static List<String> invalid() {
    return List.of("-x", ".x", "_x", "a b", "é", "a:b", "a+b", "%41", "a\tb", "x".repeat(129));
  }

  static List<String> valid() {
    return List.of("a", "9", "A.b-c_1", "v1.0", "x--..__", "x".repeat(128));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void invalidNamesAreRefusedWithTheRule(String name) throws Exception {
    try (FileSystem fs = mount()) {
      FileSystemException e = assertThrows(FileSystemException.class, () -> Files.createDirectory(fs.getPath("/tags", name)));
      assertTrue(e.getMessage().contains("[A-Za-z0-9][A-Za-z0-9._-]{0,127}"), e.getMessage());
      FileSystemException mv = assertThrows(FileSystemException.class,
          () -> Files.move(fs.getPath("/tags/default"), fs.getPath("/tags", name)));
      assertTrue(mv.getMessage().contains("[A-Za-z0-9][A-Za-z0-9._-]{0,127}"), mv.getMessage());
      assertEquals(List.of("default"), tags(fs));
    }
  }

  @ParameterizedTest
  @MethodSource("valid")
  void validNamesAreAccepted(String name) throws Exception {
    try (FileSystem fs = mount()) {
      Files.createDirectory(fs.getPath("/tags", name));
      assertEquals(List.of("default", name), tags(fs));
      ((JournaledFileSystem) fs).rollback();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"DEFAULT", "Default", "default"})
  void aNameThatExistsInAnyCaseIsRefused(String name) throws Exception {
    try (FileSystem fs = mount()) {
      Files.createDirectory(fs.getPath("/tags/v2"));
      FileSystemException e = assertThrows(FileSystemException.class, () -> Files.createDirectory(fs.getPath("/tags", name)));
      assertTrue(e.getMessage().contains("default"), e.getMessage());
      FileSystemException mv = assertThrows(FileSystemException.class,
          () -> Files.move(fs.getPath("/tags/v2"), fs.getPath("/tags", name)));
      assertTrue(mv.getMessage().contains("default"), mv.getMessage());
      assertEquals(List.of("default", "v2"), tags(fs));
      ((JournaledFileSystem) fs).rollback();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"DEFAULT", "Default"})
  void aTagMayBeRenamedToAnotherCaseOfItsOwnName(String name) throws Exception {
    try (FileSystem fs = mount()) {
      Files.move(fs.getPath("/tags/default"), fs.getPath("/tags", name));
      assertEquals(List.of(name), tags(fs));
      ((JournaledFileSystem) fs).rollback();
    }
  }

  private static List<String> tags(FileSystem fs) throws Exception {
    try (Stream<Path> s = Files.list(fs.getPath("/tags"))) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }
}
