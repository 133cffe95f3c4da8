package org.modelfs.testing;

import static java.nio.file.FileVisitResult.CONTINUE;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;

/**
 * The JDK documentation's recursive copy — the {@code java.nio.file.FileVisitor} Javadoc's "copy
 * a file tree to a target location" example, verbatim: links followed, each directory made by
 * {@code Files.copy(dir, targetdir)} (a {@code FileAlreadyExistsException} tolerated only when
 * the target is a directory), each file by {@code Files.copy(file, target)} with no options, so
 * nothing is replaced. Copying a tag into a new tag this way needs the new tag to be empty
 * (issue 13, "a new tag is empty").
 */
public final class RecursiveCopy {
  private RecursiveCopy() {}

  /**
   * Copies the tree below {@code source} to {@code target}; never replaces a file. The one change
   * to the example: across two file systems (zip, jimfs) a relative path of the source's
   * provider is turned into a string before {@code target.resolve} (every provider throws
   * {@code ProviderMismatchException} for a foreign {@code Path}).
   */
  public static void copyTree(Path source, Path target) throws IOException {
    Files.walkFileTree(source, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            Path targetdir = resolve(target, source.relativize(dir));
            try {
              Files.copy(dir, targetdir);
            } catch (FileAlreadyExistsException e) {
              if (!Files.isDirectory(targetdir))
                throw e;
            }
            return CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.copy(file, resolve(target, source.relativize(file)));
            return CONTINUE;
          }
        });
  }

  private static Path resolve(Path target, Path relative) {
    return relative.getFileSystem() == target.getFileSystem()
        ? target.resolve(relative)
        : target.resolve(relative.toString());
  }
}
