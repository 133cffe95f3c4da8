package org.modelfs.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;

/**
 * Compares two mounts of one model node by node: the same paths (Files.walk), the attributes
 * that belong to the model rather than to where it is stored (size, type, and every
 * {@code samediff:} attribute but times and file keys), and every regular file's bytes.
 * Shared by every store module's differential tests (s3, azure, hdfs: a store mount equals the
 * local mount of the same model).
 */
public final class SameTree {
  /** Attributes of {@code samediff:*} that describe the storage, not the model. */
  private static final List<String> STORAGE = List.of("lastModifiedTime", "lastAccessTime", "creationTime", "fileKey");

  private SameTree() {}

  /** Asserts {@code actual} shows exactly the tree of {@code expected}; returns the number of regular files. */
  public static int assertSame(FileSystem expected, FileSystem actual, String what) throws IOException {
    Map<String, Path> want = nodes(expected);
    Map<String, Path> got = nodes(actual);
    assertEquals(want.keySet(), got.keySet(), what + ": the paths of the tree");
    int files = 0;
    for (Map.Entry<String, Path> e : want.entrySet()) {
      Path w = e.getValue();
      Path g = got.get(e.getKey());
      assertEquals(attributes(w), attributes(g), what + ": attributes of " + e.getKey());
      if (Files.isRegularFile(w)) {
        assertArrayEquals(Files.readAllBytes(w), Files.readAllBytes(g), what + ": bytes of " + e.getKey());
        files++;
      }
    }
    assertTrue(files > 0, what + ": a tree with files");
    return files;
  }

  /** Mounts both models read-only and asserts the second shows exactly the first's tree. */
  public static void assertSameModel(Path local, Path remote) throws IOException {
    try (FileSystem l = ModelFileSystems.open(local, Map.of("readOnly", "true"));
        FileSystem r = ModelFileSystems.open(remote, Map.of("readOnly", "true"))) {
      assertSame(l, r, remote.toUri().toString());
    }
  }

  private static Map<String, Path> nodes(FileSystem fs) throws IOException {
    Map<String, Path> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(fs.getPath("/"))) {
      s.forEach(p -> out.put(p.toString(), p));
    }
    return out;
  }

  /** The model's attributes of {@code p}, arrays as lists (comparable with equals). */
  private static Map<String, Object> attributes(Path p) throws IOException {
    Map<String, Object> out = new TreeMap<>();
    for (Map.Entry<String, Object> a : Files.readAttributes(p, "samediff:*").entrySet()) {
      if (!STORAGE.contains(a.getKey())) {
        Object v = a.getValue();
        out.put(a.getKey(), v instanceof long[] l ? Arrays.toString(l) : v instanceof int[] i ? Arrays.toString(i) : v);
      }
    }
    return out;
  }
}
