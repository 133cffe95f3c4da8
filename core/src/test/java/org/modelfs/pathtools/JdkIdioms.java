package org.modelfs.pathtools;

import static java.nio.file.FileVisitResult.CONTINUE;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.modelfs.testing.RecursiveCopy;

/**
 * The JDK's own examples, as its Javadoc writes them (Java 17 API documentation). No
 * {@code REPLACE_EXISTING} or other option the examples do not have.
 */
final class JdkIdioms {
  private JdkIdioms() {}

  /**
   * {@code java.nio.file.FileVisitor} Javadoc, "Usage Examples": "suppose we want to copy a file
   * tree to a target location. In that case, symbolic links should be followed and the target
   * directory should be created before the entries in the directory are copied." — the example
   * verbatim (no clobbering: {@code Files.copy} without options). The one change: when
   * {@code target} is on another file system (zip, jimfs), a relative path of the source's
   * provider must be turned into a string before {@code target.resolve} (every provider throws
   * {@code ProviderMismatchException} for a foreign {@code Path}); on one file system the call is
   * the example's {@code target.resolve(source.relativize(dir))}.
   */
  static void copyTree(Path source, Path target) throws IOException {
    RecursiveCopy.copyTree(source, target); // the same example, kept once
  }

  /**
   * {@code java.nio.file.FileVisitor} Javadoc, "Usage Examples": "Suppose we want to delete a
   * file tree. In that case, each directory should be deleted after the entries in the directory
   * are deleted." — verbatim.
   */
  static void deleteTree(Path start) throws IOException {
    Files.walkFileTree(start, new SimpleFileVisitor<Path>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
          throws IOException
      {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }
      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e)
          throws IOException
      {
        if (e == null) {
          Files.delete(dir);
          return FileVisitResult.CONTINUE;
        } else {
          // directory iteration failed
          throw e;
        }
      }
    });
  }

  /**
   * {@code FileSystem.getPathMatcher} Javadoc: {@code PathMatcher matcher =
   * fs.getPathMatcher(syntaxAndPattern); if (matcher.matches(path)) …} — applied to every path
   * {@code Files.walk(start)} yields (the {@code Files.walk} Javadoc: the stream is closed by
   * try-with-resources).
   */
  static List<Path> walkMatching(Path start, String syntaxAndPattern) throws IOException {
    FileSystem fs = start.getFileSystem();
    PathMatcher matcher = fs.getPathMatcher(syntaxAndPattern);
    List<Path> found = new ArrayList<>();
    try (Stream<Path> stream = Files.walk(start)) {
      stream.forEach(path -> {
        if (matcher.matches(path)) {
          found.add(path);
        }
      });
    }
    return found;
  }
}
