package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user backing a tag up to another file system and restoring it as a new tag, with
 * the JDK documentation's recursive copy both ways: model → zip (jdk.zipfs) → new tag
 * {@code /tags/v3}, and model → jimfs → {@code /tags/v3}. The copy out is byte-identical
 * ({@code Files.mismatch} is -1 for every file; Guava's {@code MoreFiles.equal} and
 * {@code asByteSource(..).contentEquals} agree); issue 13 item 2: the copy back into the new,
 * empty tag makes a tag identical to the source (paths, bytes, samediff attributes), after
 * commit and reopen too.
 */
class ForeignRoundTripTest {
  @TempDir Path tmp;

  @Test
  void aTagThroughAZipAndBack() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    Path zip = tmp.resolve("backup.zip");
    try (FileSystem fs = ModelFileSystems.open(model);
        FileSystem zipfs = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
      JdkIdioms.copyTree(fs.getPath("/tags/default"), zipfs.getPath("/default"));
      assertSameFiles(fs.getPath("/tags/default"), zipfs.getPath("/default"));
    }
    try (FileSystem fs = ModelFileSystems.open(model);
        FileSystem zipfs = FileSystems.newFileSystem(zip, Map.of())) {
      JdkIdioms.copyTree(zipfs.getPath("/default"), fs.getPath("/tags/v3"));
      assertSameFiles(zipfs.getPath("/default"), fs.getPath("/tags/v3"));
      assertIdenticalToDefault(fs);
      PathToolsModels.commit(fs);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertIdenticalToDefault(fs);
    }
  }

  @Test
  void aTagThroughJimfsAndBack() throws Exception {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
      Path backup = jimfs.getPath("/backup/default");
      Files.createDirectories(backup.getParent());
      try (FileSystem fs = ModelFileSystems.open(model)) {
        JdkIdioms.copyTree(fs.getPath("/tags/default"), backup);
        assertSameFiles(fs.getPath("/tags/default"), backup);
      }
      try (FileSystem fs = ModelFileSystems.open(model)) {
        JdkIdioms.copyTree(backup, fs.getPath("/tags/v3"));
        assertSameFiles(backup, fs.getPath("/tags/v3"));
        assertIdenticalToDefault(fs);
        PathToolsModels.commit(fs);
      }
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertIdenticalToDefault(fs);
    }
  }

  /** Same relative paths and bytes below both; every file pair equal by Files.mismatch and Guava. */
  private static void assertSameFiles(Path from, Path to) throws Exception {
    assertEquals(TreeSnapshot.bytesOf(from), TreeSnapshot.bytesOf(to));
    try (Stream<Path> s = Files.walk(from)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        Path g = to.resolve(from.relativize(f).toString());
        assertEquals(-1L, Files.mismatch(f, g), f + " vs " + g);
        assertTrue(GuavaIdioms.equal(f, g), "MoreFiles.equal " + f);
        assertTrue(GuavaIdioms.contentEquals(f, g), "MoreFiles.asByteSource().contentEquals " + f);
      }
    }
  }

  private static void assertIdenticalToDefault(FileSystem fs) throws Exception {
    assertEquals(List.of("default", "v3"), PathToolsModels.names(fs.getPath("/tags")));
    assertEquals(TreeSnapshot.of(fs.getPath("/tags/default")), TreeSnapshot.of(fs.getPath("/tags/v3")));
  }
}
