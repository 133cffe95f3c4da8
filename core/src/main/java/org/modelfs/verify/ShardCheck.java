package org.modelfs.verify;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.modelfs.format.sdnb.ShardNames;

/**
 * The names of a sharded SDNB model's files (docs/FORMATS.md §6), every problem at once: each
 * missing shard {@code k} of {@code N}, shard numbers outside {@code 0 … N−1}, and shards that
 * disagree on {@code N}. The reader stops at the first; this explains a shard set it refused.
 */
final class ShardCheck {
  private ShardCheck() {}

  /**
   * The problems of the shard set {@code path} names (its base name, {@code model.sdnb} or
   * {@code model}, or one of its shards); empty when {@code path} names no shard set or its
   * names are sound.
   */
  static List<Problem> names(Path path) throws IOException {
    List<Problem> out = new ArrayList<>();
    Path fileName = path.getFileName();
    Path dir = path.toAbsolutePath().getParent();
    if (fileName == null || dir == null || !Files.isDirectory(dir)) {
      return out;
    }
    String name = fileName.toString();
    ShardNames.Shard named = ShardNames.parseAny(name);
    if (named == null && (Files.exists(path) || name.indexOf('.') > 0 && ShardNames.setExtension(name) == null)) {
      return out; // the same names Models.findShards takes for a shard set
    }
    String ext = named != null ? named.ext() : ShardNames.setExtension(name);
    String base = ShardNames.base(name);
    Map<Integer, TreeMap<Integer, String>> byCount = new TreeMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        String n = p.getFileName().toString();
        ShardNames.Shard s = ShardNames.parseAny(n);
        if (s == null || !s.base().equals(base) || ext != null && !s.ext().equals(ext)) {
          continue;
        }
        if (s.count() < 1 || s.index() >= s.count()) {
          out.add(new Problem(n, "shard " + s.index() + " of " + s.count() + " is not a shard number (0 to N-1)"));
          continue;
        }
        byCount.computeIfAbsent(s.count(), k -> new TreeMap<>()).put(s.index(), n);
      }
    }
    if (byCount.size() > 1) {
      StringBuilder sb = new StringBuilder();
      for (Map.Entry<Integer, TreeMap<Integer, String>> e : byCount.entrySet()) {
        sb.append(sb.length() == 0 ? "" : "; ").append(e.getKey()).append(" in ").append(new TreeSet<>(e.getValue().values()));
      }
      out.add(new Problem(name, "the shards of '" + base + "' disagree on their number: " + sb));
    }
    for (Map.Entry<Integer, TreeMap<Integer, String>> e : byCount.entrySet()) {
      int count = e.getKey();
      for (int k = 0; k < count; k++) {
        if (!e.getValue().containsKey(k)) {
          out.add(new Problem(ShardNames.name(base, k, count, ext != null ? ext : ShardNames.SDNB), "shard " + k + " of " + count + " of '" + base
              + "' is missing" + (k == 0 ? " (it holds the graph)" : " (its parameters are lost)")));
        }
      }
    }
    return out;
  }
}
