package org.modelfs.provider;

import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.modelfs.model.Tag;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.NameMapping;

/**
 * What a path names for a change: a tag, the kind of entry, and the decoded names — whether or
 * not the entry exists yet. The root aliases name the newest tag.
 *
 * @param tag the tag (as it is now)
 * @param area which part of the tag
 * @param name the variable name (PARAM, UPDATER) or metadata key (METADATA); else {@code null}
 * @param key the updater state key (UPDATER); else {@code null}
 */
record Target(Tag tag, Area area, String name, String key) {

  /** The parts of a tag a change can address. */
  enum Area { PARAM, UPDATER, METADATA, TRAINING, GRAPH, GRAPH_JSON }

  /**
   * Whether {@code v} is a parameter without a file: a variable of the graph that holds arrays
   * but has none now — its file was deleted in this session, or a written graph declares it and
   * no array came yet. Its path does not exist ({@code Files.exists} is false), so every route
   * that creates a name takes it as free: a new file there becomes its array, and the variable
   * keeps its place in the graph (docs/FILESYSTEM.md §7.3).
   */
  static boolean fileless(org.modelfs.model.Variable v) {
    return v != null && v.array() == null && v.kind().holdsArray();
  }

  /** The tag a canonical path {@code /tags/<tag>} names, or {@code null} for any other path. */
  static String tagDir(List<String> canonical) {
    return canonical.size() == 2 && canonical.get(0).equals(ModelTree.TAGS) ? canonical.get(1) : null;
  }

  /**
   * Refuses a path below a regular file ({@code /params/layer0/W/x} where {@code layer0/W} is a
   * parameter), as every POSIX file system does: {@link java.nio.file.NotDirectoryException}
   * naming the file in the way.
   */
  static void checkParents(ModelFileSystem fs, ModelPath path) throws java.nio.file.NotDirectoryException {
    ModelPath p = path.toAbsolutePath().normalize().getParent();
    while (p != null && p.getNameCount() > 0) {
      ModelTree.Found f = fs.lookup(p);
      if (f != null) {
        if (!(f.node() instanceof org.modelfs.tree.Dir)) {
          throw new java.nio.file.NotDirectoryException(p.toString());
        }
        return; // the nearest existing ancestor is a directory
      }
      p = p.getParent();
    }
  }

  /** Parses an absolute, normalized path; throws when it names nothing a change can write. */
  static Target of(List<Tag> tags, List<String> segments, String path) throws FileSystemException {
    if (tags.isEmpty()) {
      throw new NoSuchFileException(path, null, "the model has no tag");
    }
    Tag tag = tags.get(tags.size() - 1);
    int i = 0;
    if (!segments.isEmpty() && segments.get(0).equals(ModelTree.TAGS)) {
      if (segments.size() < 3) {
        throw new FileSystemException(path, null, "not a file of a tag");
      }
      tag = find(tags, segments.get(1));
      if (tag == null) {
        throw new NoSuchFileException(path, null, "no tag '" + segments.get(1) + "'");
      }
      i = 2;
    }
    if (i >= segments.size()) {
      throw new FileSystemException(path, null, "not a file of a tag");
    }
    String first = segments.get(i);
    List<String> rest = segments.subList(i + 1, segments.size());
    switch (first) {
      case ModelTree.GRAPH -> {
        return single(tag, Area.GRAPH, rest, path);
      }
      case ModelTree.GRAPH_JSON -> {
        return single(tag, Area.GRAPH_JSON, rest, path);
      }
      case ModelTree.TRAINING -> {
        return single(tag, Area.TRAINING, rest, path);
      }
      case ModelTree.PARAMS -> {
        need(rest, 1, path, "params/<name>");
        return new Target(tag, Area.PARAM, NameMapping.name(rest), null);
      }
      case ModelTree.METADATA -> {
        need(rest, 1, path, "metadata/<key>");
        return new Target(tag, Area.METADATA, NameMapping.name(rest), null);
      }
      case ModelTree.UPDATER -> {
        need(rest, 2, path, "updater/<name>/<key>");
        return new Target(tag, Area.UPDATER, NameMapping.name(rest.subList(0, rest.size() - 1)),
            NameMapping.decode(rest.get(rest.size() - 1)));
      }
      default -> throw new FileSystemException(path, null, "not a file of a tag");
    }
  }

  private static Target single(Tag tag, Area area, List<String> rest, String path) throws FileSystemException {
    if (!rest.isEmpty()) {
      throw new FileSystemException(path, null, "not a file of a tag");
    }
    return new Target(tag, area, null, null);
  }

  private static void need(List<String> rest, int n, String path, String form) throws FileSystemException {
    if (rest.size() < n) {
      throw new FileSystemException(path, null, "a file here is named " + form);
    }
  }

  private static Tag find(List<Tag> tags, String name) {
    for (Tag t : tags) {
      if (t.name().equalsIgnoreCase(name)) {
        return t;
      }
    }
    return null;
  }
}
