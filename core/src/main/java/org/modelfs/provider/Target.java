package org.modelfs.provider;

import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.List;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;
import org.modelfs.tree.Dir;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.TreePath;
import org.modelfs.tree.TreePath.Area;

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

  /**
   * Whether {@code v} is a parameter without a file: a variable of the graph that holds arrays
   * but has none now — its file was deleted in this session, or a written graph declares it and
   * no array came yet. Its path does not exist ({@code Files.exists} is false), so every route
   * that creates a name takes it as free: a new file there becomes its array, and the variable
   * keeps its place in the graph (docs/FILESYSTEM.md §7.3).
   */
  static boolean fileless(Variable v) {
    return v != null && v.array() == null && v.kind().holdsArray();
  }

  /** The tag a found path {@code /tags/<tag>} names, or {@code null} for any other path. */
  static String tagDir(ModelTree.Found found) {
    TreePath p = TreePath.of(found);
    return p.isTag() ? p.tag() : null;
  }

  /**
   * Refuses a path below a regular file ({@code /params/layer0/W/x} where {@code layer0/W} is a
   * parameter), as every POSIX file system does: {@link NotDirectoryException}
   * naming the file in the way.
   */
  static void checkParents(ModelFileSystem fs, ModelPath path) throws NotDirectoryException {
    ModelPath p = path.toAbsolutePath().normalize().getParent();
    while (p != null && p.getNameCount() > 0) {
      ModelTree.Found f = fs.lookup(p);
      if (f != null) {
        if (!(f.node() instanceof Dir)) {
          throw new NotDirectoryException(p.toString());
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
    TreePath p = TreePath.parse(segments, tags.get(tags.size() - 1).name());
    if (p.tag() == null || !p.inTag()) {
      throw new FileSystemException(path, null, "not a file of a tag");
    }
    Tag tag = find(tags, p.tag());
    if (tag == null) {
      throw new NoSuchFileException(path, null, "no tag '" + p.tag() + "'");
    }
    Area area = p.area();
    if (area == null) {
      throw new FileSystemException(path, null, "not a file of a tag");
    }
    int below = p.below().size();
    switch (area) {
      case PARAM, METADATA -> {
        if (below < 1) {
          throw new FileSystemException(path, null, "a file here is named " + area.dir() + "/<"
              + (area == Area.PARAM ? "name" : "key") + ">");
        }
        return new Target(tag, area, p.name(), null);
      }
      case UPDATER -> {
        if (below < 2) {
          throw new FileSystemException(path, null, "a file here is named updater/<name>/<key>");
        }
        String[] nk = p.nameAndKey();
        return new Target(tag, area, nk[0], nk[1]);
      }
      default -> {
        if (below > 0) {
          throw new FileSystemException(path, null, "not a file of a tag");
        }
        return new Target(tag, area, null, null);
      }
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
