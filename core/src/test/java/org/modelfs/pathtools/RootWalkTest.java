package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user (or a tool: a backup, {@code du}, an indexer) walking the whole mounted tree
 * with {@code Files.walk(fs.getPath("/"))} or Guava's
 * {@code MoreFiles.fileTraverser().depthFirstPreOrder(root)}. Issue 13 item 5: each stored array
 * is seen exactly once — the root aliases do not show the newest tag a second time — while
 * {@code Files.walk(fs.getPath("/params"))} (no {@code FOLLOW_LINKS}) still walks the newest tag's
 * parameters and {@code /params} exists and is a directory. On a two-tag SDZ.
 */
class RootWalkTest {
  @TempDir Path tmp;

  @Test
  void walkOfTheRootSeesEachArrayOnce() throws Exception {
    Path model = PathToolsModels.twoTagSdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      List<Path> seen;
      try (Stream<Path> s = Files.walk(fs.getPath("/"))) {
        seen = s.filter(RootWalkTest::isArrayFile).toList();
      }
      assertSeenOnce(fs, seen);
    }
  }

  @Test
  void guavaFileTraverserOfTheRootSeesEachArrayOnce() throws Exception {
    Path model = PathToolsModels.twoTagSdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      List<Path> seen = new ArrayList<>();
      for (Path p : GuavaIdioms.preOrder(fs.getPath("/"))) {
        if (isArrayFile(p)) {
          seen.add(p);
        }
      }
      assertSeenOnce(fs, seen);
    }
  }

  @Test
  void walkOfParamsStillWalksTheNewestTag() throws Exception {
    Path model = PathToolsModels.twoTagSdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      Path params = fs.getPath("/params");
      assertTrue(Files.exists(params));
      assertTrue(Files.isDirectory(params));
      List<String> found;
      try (Stream<Path> s = Files.walk(params)) {
        found = s.filter(Files::isRegularFile).map(Path::toString).sorted().toList();
      }
      assertTrue(found.contains("/params/layer0/W"), "found: " + found);
      assertEquals(PathToolsModels.PARAMS.size(), found.size(), "found: " + found);
      assertEquals(Files.getAttribute(fs.getPath("/tags/v1/params/layer0/W"), "fileKey"),
          Files.getAttribute(fs.getPath("/params/layer0/W"), "fileKey"), "the newest tag's");
    }
  }

  /** A regular file below some {@code params/} or {@code updater/}. */
  private static boolean isArrayFile(Path p) {
    String s = p.toString();
    return Files.isRegularFile(p) && (s.contains("/params/") || s.contains("/updater/"));
  }

  /**
   * {@code seen} holds every array of the model once: as many paths as there are distinct arrays
   * (distinct file keys of the array files below {@code /tags}), and no two with one file key.
   */
  private static void assertSeenOnce(FileSystem fs, List<Path> seen) throws IOException {
    Set<Object> stored = new HashSet<>();
    try (Stream<Path> s = Files.walk(fs.getPath("/tags"))) {
      for (Path p : s.filter(RootWalkTest::isArrayFile).toList()) {
        stored.add(Files.getAttribute(p, "fileKey"));
      }
    }
    assertEquals(2 * (PathToolsModels.PARAMS.size() + PathToolsModels.UPDATER.size()), stored.size(), "two tags' arrays");
    Set<Object> keys = new HashSet<>();
    for (Path p : seen) {
      assertTrue(keys.add(Files.getAttribute(p, "fileKey")), "seen twice: " + p);
    }
    assertEquals(stored.size(), seen.size(), "each array once: " + seen);
  }
}
