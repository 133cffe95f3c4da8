package org.modelfs.pathtools;

import java.io.IOException;
import java.nio.file.CopyOption;
import java.nio.file.Path;
import org.apache.commons.io.file.PathUtils;

/**
 * Apache commons-io {@code org.apache.commons.io.file.PathUtils} (2.x), called as its Javadoc
 * documents each method, with the defaults a user gets: {@code copyDirectory(source, target)}
 * passes no {@code CopyOption} to {@code Files.copy} (its {@code CopyDirectoryVisitor} copies each
 * file with exactly the options given, and creates a target directory only when
 * {@code Files.notExists} says it is missing); {@code deleteDirectory} deletes files in
 * {@code visitFile} and a directory in {@code postVisitDirectory} once
 * {@code PathUtils.isEmptyDirectory} says it is empty.
 */
final class CommonsIoIdioms {
  private CommonsIoIdioms() {}

  /** {@code PathUtils.copyDirectory(Path, Path, CopyOption...)}: "Copies a directory to another directory." */
  static void copyDirectory(Path source, Path target, CopyOption... options) throws IOException {
    PathUtils.copyDirectory(source, target, options);
  }

  /** {@code PathUtils.deleteDirectory(Path)}: "Deletes a directory including subdirectories." */
  static void deleteDirectory(Path directory) throws IOException {
    PathUtils.deleteDirectory(directory);
  }

  /** {@code PathUtils.cleanDirectory(Path)}: "Cleans a directory including subdirectories without deleting directories." */
  static void cleanDirectory(Path directory) throws IOException {
    PathUtils.cleanDirectory(directory);
  }

  /**
   * {@code PathUtils.directoryContentEquals(Path, Path)}: "Compares the file sets of two Paths to
   * determine if they are equal or not while considering file contents."
   */
  static boolean directoryContentEquals(Path a, Path b) throws IOException {
    return PathUtils.directoryContentEquals(a, b);
  }

  /** {@code PathUtils.sizeOfDirectory(Path)}: "Returns the size of the specified directory, recursively." */
  static long sizeOfDirectory(Path directory) throws IOException {
    return PathUtils.sizeOfDirectory(directory);
  }
}
