package org.modelfs.pathtools;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.modelfs.testing.ModelTsv;

/**
 * Our own comparator of two trees, over {@code Files.walkFileTree} (no links followed): relative
 * path → {@code "dir"} or the file's SHA-256 and size, plus — on a mounted model, for an array —
 * its samediff attributes dtype, shape, order and kind. ({@code tag} and {@code stored} are left
 * out: they say where an array is, not what it is.) Two trees are identical when their maps are
 * equal; {@code assertEquals} of two maps shows the first difference.
 */
final class TreeSnapshot {
  private TreeSnapshot() {}

  /** Relative paths, bytes and (on a model) the array attributes of everything below {@code root}. */
  static Map<String, String> of(Path root) throws IOException {
    return walk(root, true);
  }

  /** Relative paths and bytes only: for comparing a model's tree with a copy on another file system. */
  static Map<String, String> bytesOf(Path root) throws IOException {
    return walk(root, false);
  }

  private static Map<String, String> walk(Path root, boolean arrayAttributes) throws IOException {
    Map<String, String> m = new TreeMap<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        m.put(root.relativize(dir) + "/", "dir");
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        String d = attrs.isRegularFile() ? content(file) : "not a regular file";
        if (arrayAttributes) {
          d += array(file);
        }
        m.put(root.relativize(file).toString(), d);
        return FileVisitResult.CONTINUE;
      }
    });
    return m;
  }

  private static String content(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    return "sha256=" + sha256(b) + " size=" + b.length;
  }

  /** " dtype=… shape=[…] order=… kind=…" of an array on a mounted model; "" otherwise. */
  static String array(Path file) throws IOException {
    if (!file.getFileSystem().supportedFileAttributeViews().contains("samediff")) {
      return "";
    }
    Map<String, Object> a = Files.readAttributes(file, "samediff:*");
    if (a.get("dtype") == null) {
      return "";
    }
    return " dtype=" + a.get("dtype") + " shape=" + Arrays.toString((long[]) a.get("shape"))
        + " order=" + a.get("order") + " kind=" + a.get("kind");
  }

  static String sha256(byte[] b) {
    return ModelTsv.sha256(b);
  }
}
