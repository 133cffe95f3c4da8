package org.modelfs.fuse;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;

/**
 * What a refused commit at unmount keeps (docs/MOUNT.md "A refused commit"): every file of the
 * mount that the model on disk does not hold as it is — an array whose bytes came from the
 * journal ({@code samediff:stored} = {@code journal}), any other file that is new or differs —
 * is copied under its path in the tree into a new directory of {@code java.io.tmpdir}, and the
 * files the session deleted are listed in its {@code DELETED.txt}, a file that could not be
 * copied (with the reason) in {@code NOT-COPIED.txt}: nothing written is lost silently, and the
 * model stays unchanged.
 */
final class Recovery {
  private Recovery() {}

  static Path save(FileSystem fs, Path model) throws IOException {
    Path out = Files.createTempDirectory("modelfs-refused-" + model.getFileName() + "-");
    try (FileSystem old = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      List<String> notCopied = new ArrayList<>();
      for (Path p : files(fs)) {
        if (changed(p, old.getPath(p.toString()))) {
          // one file that cannot be copied (a name the disk refuses) costs that file only: the
          // others are still saved, and NOT-COPIED.txt names it with the reason
          try {
            Path target = out.resolve(p.toString().substring(1));
            Files.createDirectories(target.getParent());
            Files.copy(p, target);
          } catch (IOException | RuntimeException e) {
            notCopied.add(p + "\t" + e);
          }
        }
      }
      if (!notCopied.isEmpty()) {
        Files.write(out.resolve("NOT-COPIED.txt"), notCopied);
      }
      List<String> deleted = new ArrayList<>();
      for (Path q : files(old)) {
        if (!Files.exists(fs.getPath(q.toString()))) {
          deleted.add(q.toString());
        }
      }
      if (!deleted.isEmpty()) {
        Files.write(out.resolve("DELETED.txt"), deleted);
      }
    }
    return out;
  }

  private static List<Path> files(FileSystem fs) throws IOException {
    try (Stream<Path> s = Files.walk(fs.getPath("/tags"))) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  private static boolean changed(Path p, Path before) throws IOException {
    Object stored = Files.getAttribute(p, "samediff:stored");
    if (stored != null) {
      return "journal".equals(stored) || !Files.exists(before);
    }
    return !Files.exists(before) || Files.size(p) != Files.size(before) || Files.mismatch(p, before) >= 0;
  }
}
