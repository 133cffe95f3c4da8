package org.modelfs.pathtools;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Guava {@code com.google.common.io.MoreFiles}, called as its Javadoc documents each method.
 * {@code deleteRecursively(path)} and {@code deleteDirectoryContents(path)} without options "throw
 * {@code InsecureRecursiveDeleteException} if [they] can't guarantee the security of recursive
 * deletes", i.e. unless the parent's (resp. the directory's) {@code DirectoryStream} is a
 * {@code SecureDirectoryStream}; "If you wish to allow the recursive deletes anyway, pass
 * {@code RecursiveDeleteOption.ALLOW_INSECURE}".
 */
final class GuavaIdioms {
  private GuavaIdioms() {}

  /** {@code MoreFiles.deleteRecursively(path)}: the secure default. */
  static void deleteRecursively(Path path) throws IOException {
    MoreFiles.deleteRecursively(path);
  }

  /** {@code MoreFiles.deleteRecursively(path, RecursiveDeleteOption.ALLOW_INSECURE)}. */
  static void deleteRecursivelyAllowInsecure(Path path) throws IOException {
    MoreFiles.deleteRecursively(path, RecursiveDeleteOption.ALLOW_INSECURE);
  }

  /** {@code MoreFiles.deleteDirectoryContents(path)}: "Does not delete the directory itself." */
  static void deleteDirectoryContents(Path path) throws IOException {
    MoreFiles.deleteDirectoryContents(path);
  }

  /** {@code MoreFiles.fileTraverser().depthFirstPreOrder(start)}: every file below {@code start}, not following links. */
  static Iterable<Path> preOrder(Path start) {
    return MoreFiles.fileTraverser().depthFirstPreOrder(start);
  }

  /** {@code MoreFiles.asByteSource(a).contentEquals(MoreFiles.asByteSource(b))}. */
  static boolean contentEquals(Path a, Path b) throws IOException {
    return MoreFiles.asByteSource(a).contentEquals(MoreFiles.asByteSource(b));
  }

  /** {@code MoreFiles.equal(a, b)}: "Returns true if the files located by the given paths exist, are not directories, and contain the same bytes." */
  static boolean equal(Path a, Path b) throws IOException {
    return MoreFiles.equal(a, b);
  }
}
