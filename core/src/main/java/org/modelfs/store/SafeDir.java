package org.modelfs.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Removing ModelFS's own files from a model's directory without ever following a link. Where the
 * provider offers a {@link SecureDirectoryStream} (Linux, jimfs) every check and delete is made
 * relative to an open directory, so a name swapped for a link between the check and the delete
 * cannot redirect it; elsewhere the same checks are made by path ({@code NOFOLLOW_LINKS}), and
 * a delete removes a link itself, never what it points to.
 */
final class SafeDir {
  private SafeDir() {}

  /** The names in {@code dir}. */
  static List<String> names(Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        out.add(p.getFileName().toString());
      }
    }
    return out;
  }

  /** Deletes {@code dir/name} if it is a regular file (not a link, not a directory); returns whether it did. */
  static boolean deleteRegularFile(Path dir, String name) throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      Path rel = dir.getFileSystem().getPath(name);
      if (ds instanceof SecureDirectoryStream<Path> sds) {
        BasicFileAttributes a = attributes(sds, rel);
        if (a == null || !a.isRegularFile()) {
          return false;
        }
        sds.deleteFile(rel);
        return true;
      }
    }
    Path p = dir.resolve(name);
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    return Files.deleteIfExists(p);
  }

  /**
   * Removes the journal directory {@code dir/name}: every journaled file in it (regular files
   * named {@code <kind>-<n>.bin}), then the directory. Anything else found there is not ModelFS's
   * and is left, and so is the directory; returns whether the directory is gone.
   */
  static boolean deleteJournal(Path dir, String name) throws IOException {
    Path rel = dir.getFileSystem().getPath(name);
    try (DirectoryStream<Path> parent = Files.newDirectoryStream(dir)) {
      if (parent instanceof SecureDirectoryStream<Path> sds) {
        BasicFileAttributes a = attributes(sds, rel);
        if (a == null || !a.isDirectory()) {
          return false;
        }
        boolean foreign = false;
        try (SecureDirectoryStream<Path> j = sds.newDirectoryStream(rel, LinkOption.NOFOLLOW_LINKS)) {
          for (Path e : j) {
            Path entry = e.getFileName();
            BasicFileAttributes ea = attributes(j, entry);
            if (ea != null && ea.isRegularFile() && SidecarNames.isJournalData(entry.toString())) {
              j.deleteFile(entry);
            } else if (ea != null) {
              foreign = true;
            }
          }
        } catch (NotDirectoryException | NoSuchFileException e) {
          return false; // swapped for something else meanwhile: not ours to touch
        } catch (IOException e) {
          if (Files.isSymbolicLink(dir.resolve(name))) {
            return false; // ELOOP: a link was planted at the name
          }
          throw e;
        }
        if (foreign) {
          return false;
        }
        sds.deleteDirectory(rel);
        return true;
      }
    }
    Path p = dir.resolve(name);
    if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    boolean foreign = false;
    for (String n : names(p)) {
      if (!SidecarNames.isJournalData(n) || !deleteRegularFile(p, n)) {
        foreign = true;
      }
    }
    if (foreign) {
      return false;
    }
    Files.deleteIfExists(p);
    return true;
  }

  private static BasicFileAttributes attributes(SecureDirectoryStream<Path> sds, Path rel) throws IOException {
    try {
      return sds.getFileAttributeView(rel, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
    } catch (NoSuchFileException e) {
      return null;
    }
  }
}
