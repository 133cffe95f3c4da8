package org.modelfs.testing;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A recursive copy that replaces what exists (walkFileTree + {@code Files.copy(…,
 * REPLACE_EXISTING)}, like {@code cp -rf}) — NOT the JDK documentation's no-clobber copy. That
 * one still fails when its target is a new tag, because an empty tag already shows a
 * {@code graph} and a {@code graph.json}; issue 13 ("a new tag is empty") owns the fix, and the
 * tests that use this helper move to the documented form with it.
 */
public final class RecursiveCopy {
  private RecursiveCopy() {}

  /** Copies the tree below {@code from} to {@code to}, replacing files that exist. */
  public static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        Files.createDirectories(to.resolve(from.relativize(dir).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
