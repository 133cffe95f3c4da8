package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * A path a listing gave is found from its directory, once ({@code ModelPath.lookupIn}): the walk
 * then asks the index one name per path instead of the whole path from the tag's root
 * (docs/PERFORMANCE.md, item 5). Held to what a path made by the caller finds — the node, its
 * attributes, its real path — for every path of walks from the root, from a tag and through a
 * root alias, over names the mapping lays out every way (split, one segment with {@code %2F},
 * escaped {@code %}, a file beside a directory of its name), and after the tree changed under
 * a listing (then the listed path is looked up again, as a new one would be).
 */
class ListedPathsTest {
  @TempDir Path tmp;

  /** Metadata keys laid out every way docs/FILESYSTEM.md §2 names. */
  private static final List<String> KEYS = List.of("x", "x%2Fy", "a/b/c", "a/b/d", "a/e", "p%25q", "%2E", "k/%",
      "deep/1/2/3/4");

  private FileSystem mounted() throws IOException {
    FileSystem fs = ModelFileSystems.open(ProviderTestModels.copy(tmp, "mlp_adam.fb"), Map.of("commitOnClose", "false"));
    for (String k : KEYS) {
      Path p = fs.getPath("/metadata/" + k);
      Files.writeString(p, "v");
    }
    Files.createDirectories(fs.getPath("/metadata/kept/empty"));
    return fs;
  }

  @Test
  void everyListedPathFindsWhatAPathOfTheSameNameFinds() throws IOException {
    try (FileSystem fs = mounted()) {
      int n = 0;
      for (String root : List.of("/", "/tags/default", "/metadata", "/params", "/updater", "/tags/DEFAULT/metadata/a")) {
        for (Path listed : walk(fs.getPath(root))) {
          same(listed, fs.getPath(listed.toString()));
          n++;
        }
      }
      assertTrue(n > 40, n + " paths");
    }
  }

  @Test
  void aListingOfAnOlderTreeIsLookedUpAgain() throws IOException {
    try (FileSystem fs = mounted()) {
      List<Path> listed = walk(fs.getPath("/metadata"));
      listed.addAll(walk(fs.getPath("/params")));
      // the tree changes: a file goes, a directory comes where a file was, a parameter is renamed
      Files.delete(fs.getPath("/metadata/a/e"));
      Files.delete(fs.getPath("/metadata/x"));
      Files.createDirectories(fs.getPath("/metadata/x"));
      Files.move(fs.getPath("/params/layer0"), fs.getPath("/params/moved"));
      for (Path p : listed) {
        Path fresh = fs.getPath(p.toString());
        assertEquals(Files.exists(fresh), Files.exists(p), p.toString());
        if (Files.exists(fresh)) {
          same(p, fresh);
        }
      }
      assertFalse(Files.exists(listed.stream().filter(p -> p.toString().equals("/metadata/a/e")).findFirst().get()));
    }
  }

  private static List<Path> walk(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return new ArrayList<>(s.toList());
    }
  }

  private static void same(Path listed, Path fresh) throws IOException {
    BasicFileAttributes a = Files.readAttributes(listed, BasicFileAttributes.class);
    BasicFileAttributes b = Files.readAttributes(fresh, BasicFileAttributes.class);
    assertEquals(b.isDirectory(), a.isDirectory(), listed.toString());
    assertEquals(b.size(), a.size(), listed.toString());
    assertEquals(b.fileKey(), a.fileKey(), listed.toString());
    assertEquals(fresh.toRealPath(), listed.toRealPath(), listed.toString());
    assertEquals(samediff(fresh), samediff(listed), listed.toString());
  }

  /** The samediff attributes, arrays by their content. */
  private static Map<String, String> samediff(Path p) throws IOException {
    Map<String, String> out = new TreeMap<>();
    Files.readAttributes(p, "samediff:*").forEach((k, v) ->
        out.put(k, v instanceof long[] a ? Arrays.toString(a) : String.valueOf(v)));
    return out;
  }
}
