package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.springframework.util.FileSystemUtils;

/**
 * Idioms users copy from answers and frameworks rather than from Javadoc, each written as it is
 * usually seen: the one-line {@code Files.walk(...).forEach(Files.copy)} copy, the reverse-sorted
 * {@code Files.walk} delete, Spring's own {@code FileSystemUtils.copyRecursively} (spring-core,
 * which walks with FOLLOW_LINKS, makes directories with {@code createDirectories} and copies
 * with {@code REPLACE_EXISTING}), and a whole model copied
 * through a zip into a model made with {@code create=true}.
 */
class EverydayIdiomsTest {
  @TempDir Path tmp;

  @Test
  void walkForEachCopyMakesTheTagItself() throws IOException {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path src = fs.getPath("/tags/default");
      Path dst = fs.getPath("/tags/v2");
      try (Stream<Path> s = Files.walk(src)) {
        s.forEach(p -> {
          try {
            Files.copy(p, dst.resolve(src.relativize(p)));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
      assertEquals(TreeSnapshot.of(src), TreeSnapshot.of(dst));
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(TreeSnapshot.of(fs.getPath("/tags/default")), TreeSnapshot.of(fs.getPath("/tags/v2")));
    }
  }

  @Test
  void reverseSortedWalkDeletesATag() throws IOException {
    Path model = PathToolsModels.twoTagSdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      try (Stream<Path> s = Files.walk(fs.getPath("/tags/v1"))) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> {
          try {
            Files.delete(p);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
      assertFalse(Files.exists(fs.getPath("/tags/v1")));
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertFalse(Files.exists(fs.getPath("/tags/v1")));
      assertEquals(PathToolsModels.PARAMS.size(), PathToolsModels.files(fs.getPath("/params")).size());
    }
  }

  @Test
  void springCopyRecursivelyIntoANewTag() throws IOException {
    Path model = PathToolsModels.sdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      FileSystemUtils.copyRecursively(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
      assertEquals(TreeSnapshot.of(fs.getPath("/tags/default")), TreeSnapshot.of(fs.getPath("/tags/v2")));
    }
  }

  @Test
  void aWholeModelThroughAZipIntoANewModel() throws IOException {
    Path model = PathToolsModels.twoTagSdz(tmp);
    Path zip = tmp.resolve("copy.zip");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true));
        FileSystem z = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
      JdkIdioms.copyTree(fs.getPath("/"), z.getPath("/"));
    }
    Path copy = tmp.resolve("copy.sdz");
    try (FileSystem z = FileSystems.newFileSystem(zip);
        FileSystem fs = ModelFileSystems.open(copy, Map.of("create", "true"))) {
      JdkIdioms.copyTree(z.getPath("/"), fs.getPath("/"));
    }
    try (FileSystem a = ModelFileSystems.open(model, Map.of("readOnly", true));
        FileSystem b = ModelFileSystems.open(copy, Map.of("readOnly", true))) {
      assertEquals(PathToolsModels.names(a.getPath("/tags")), PathToolsModels.names(b.getPath("/tags")));
      for (String tag : PathToolsModels.names(a.getPath("/tags"))) {
        Map<String, String> want = TreeSnapshot.bytesOf(a.getPath("/tags", tag));
        Map<String, String> got = TreeSnapshot.bytesOf(b.getPath("/tags", tag));
        want.keySet().removeIf(k -> k.startsWith("metadata/")); // the SDNB writer's own keys differ (creation time)
        got.keySet().removeIf(k -> k.startsWith("metadata/"));
        assertEquals(want, got, tag);
      }
      assertTrue(Files.isDirectory(b.getPath("/params")));
    }
  }
}
