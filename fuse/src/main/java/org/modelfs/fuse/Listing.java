package org.modelfs.fuse;

import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashSet;
import java.util.Set;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.struct.FileStat;

/**
 * {@code stat} and directory listings of the mount (docs/MOUNT.md "Reads", "Directories"): from
 * the model's index (never its array bytes), a staged file's own size while it is open for
 * writing, the area directories every tag shows, and the scratch files beside a tag's files.
 */
final class Listing {
  private final FileSystem fs;
  private final Writes writes;
  private final Stats stats;

  Listing(FileSystem fs, Writes writes, Stats stats) {
    this.fs = fs;
    this.writes = writes;
    this.stats = stats;
  }

  int getattr(String p, FileStat st) throws Exception {
    Staged s = writes.staged(p);
    long stagedSize = s == null ? -1 : s.size();
    if (stagedSize >= 0) {
      stats.file(st, stagedSize, System.currentTimeMillis());
      return 0;
    }
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(fs.getPath(p), BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      if (ModelNames.isArea(p) && Files.isDirectory(fs.getPath(ModelNames.parent(p)))) {
        stats.dir(st, System.currentTimeMillis());
        return 0;
      }
      throw e;
    }
    if (a.isDirectory()) {
      stats.dir(st, a.lastModifiedTime().toMillis());
    } else {
      stats.file(st, a.size(), a.lastModifiedTime().toMillis());
    }
    return 0;
  }

  int readdir(String p, Pointer buf, FuseFillDir filler) throws Exception {
    Set<String> names = new LinkedHashSet<>();
    Path dir = fs.getPath(p);
    if (Files.isDirectory(dir)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
        for (Path e : ds) {
          names.add(e.getFileName().toString());
        }
      }
    } else if (!ModelNames.isArea(p)) {
      return -ErrorCodes.ENOENT();
    }
    if (p.startsWith("/tags/") && p.indexOf('/', 6) < 0) {
      names.addAll(ModelNames.AREAS);
    }
    names.addAll(writes.stagedIn(p));
    filler.apply(buf, ".", null, 0);
    filler.apply(buf, "..", null, 0);
    for (String n : names) {
      if (filler.apply(buf, n, null, 0) != 0) {
        break;
      }
    }
    return 0;
  }
}
