package org.modelfs.fuse;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a refused commit at unmount keeps (docs/MOUNT.md "A refused commit"): every file whose
 * bytes came from the journal ({@code samediff:stored} = {@code journal}) is copied, under its
 * path in the tree, into a new directory of {@code java.io.tmpdir}, so that nothing written is
 * lost silently; deletions and renames are in the log's list of changes.
 */
final class Recovery {
  private Recovery() {}

  static Path save(FileSystem fs, Path model) throws IOException {
    Path out = Files.createTempDirectory("modelfs-refused-" + model.getFileName() + "-");
    List<Path> changed;
    try (Stream<Path> s = Files.walk(fs.getPath("/"))) {
      changed = s.filter(Files::isRegularFile).filter(Recovery::journaled).toList();
    }
    for (Path p : changed) {
      Path target = out.resolve(p.toString().substring(1));
      Files.createDirectories(target.getParent());
      Files.copy(p, target);
    }
    return out;
  }

  private static boolean journaled(Path p) {
    try {
      return "journal".equals(Files.getAttribute(p, "samediff:stored"));
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }
}
