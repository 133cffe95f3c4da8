package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.format.TagList;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayRules;
import org.modelfs.model.Shapes;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.tree.TreePath;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.NameMapping;
import org.modelfs.tree.TagOverlay;

/**
 * Changes to a mount's tree that write no bytes: delete, directories, tags (create, rename),
 * links and array attributes. Runs under the session's change lock ({@link ModelChanges}); what
 * a path means comes from {@link Target}.
 */
final class StructureEdits {
  private final ModelChanges changes;
  private final ModelFileSystem fs;

  StructureEdits(ModelChanges changes) {
    this.changes = changes;
    this.fs = changes.fs();
  }

  void setAttribute(ModelPath path, String name, Object value) throws IOException {
    changes.lock();
    try {
      changes.begin();
      ModelTree.Found f = fs.find(path);
      if (!(f.node() instanceof FileNode file) || file.array() == null) {
        throw new FileSystemException(path.toString(), null, "samediff:" + name + " belongs to array files");
      }
      ArrayAttributes attrs = ArrayAttributes.NONE.with(name, value);
      Target t = changes.target(path);
      Tag tag = changes.tag(t.tag().name(), path.toString());
      ArrayData a = file.array();
      // bytes the container stores big-endian are elements of their dtype; bytes written in this
      // session (a byteOrder=stored mount takes them big-endian) are whatever the writer meant
      if (attrs.dtype() != null && a.bigEndian() && a.storage() != ArrayData.Storage.JOURNAL
          && attrs.dtype().width() != a.dtype().width()) {
        throw new FileSystemException(path.toString(), null, "its bytes are stored big-endian as "
            + a.dtype() + "; write the new bytes first, then change the dtype");
      }
      if (attrs.dtype() != null && attrs.dtype() != a.dtype() && a.storage() != ArrayData.Storage.JOURNAL
          && a.length() == Shapes.byteLength(a.shape(), attrs.dtype().width())) {
        // stored bytes taken as BOOL or HALF must be values DL4J keeps; written bytes are checked at commit
        String values = ArrayRules.Values.check(
            new ArrayData(attrs.dtype(), a.shape(), a.order(), a.empty(), a.source(), a.offset(), a.length(), a.bigEndian(), a.storage()));
        if (values != null) {
          throw new FileSystemException(path.toString(), null, "its stored bytes as " + attrs.dtype() + ": " + values
              + "; write the new bytes first, then change the dtype");
        }
      }
      ArrayData changed = new ArrayData(
          attrs.dtype() != null ? attrs.dtype() : a.dtype(), attrs.shape() != null ? attrs.shape() : a.shape(),
          attrs.order() != 0 ? attrs.order() : a.order(), a.empty(), a.source(), a.offset(), a.length(),
          a.bigEndian(), a.storage());
      if (t.area() == TreePath.Area.PARAM) {
        tag = TagEdits.withArray(tag, t.name(), changed, attrs.kind());
      } else if (attrs.kind() != null) {
        throw new FileSystemException(path.toString(), null, "updater state has no kind");
      } else {
        tag = TagEdits.withState(tag, t.name(), t.key(), changed);
      }
      changes.apply(tag);
    } finally {
      changes.unlock();
    }
  }

  /**
   * Deletes a file or an empty directory (docs/FILESYSTEM.md §7.1, §7.3). A tag directory goes
   * with everything in it; a deleted file leaves its directories in place, as on any file
   * system; deleting {@code graph} deletes the tag's ops ({@code graph.json} stays, showing
   * the tag without them, until it is deleted too).
   */
  void delete(ModelPath path) throws IOException {
    changes.lock();
    try {
      changes.begin();
      ModelTree.Found f = fs.find(path);
      TreePath c = TreePath.of(f);
      if (c.tag() == null) {
        throw new AccessDeniedException(path.toString(), null, "the root and tags/ are part of every model");
      }
      String tagName = c.tag();
      if (c.isTag()) {
        if (fs.tags().size() == 1) {
          throw new AccessDeniedException(path.toString(), null, "the only tag of a model cannot be deleted");
        }
        List<Tag> rest = new ArrayList<>(fs.tags());
        rest.removeIf(t -> t.name().equals(tagName));
        changes.apply(rest);
        return;
      }
      Tag tag = changes.tag(tagName, path.toString());
      TagOverlay o = fs.overlay(tagName);
      TreePath.Area area = c.area();
      if (f.node() instanceof Dir d) {
        if (!d.isEmpty()) {
          throw new DirectoryNotEmptyException(path.toString());
        }
        if (c.isArea()) {
          o = o.withArea(area.dir(), false); // params/, updater/ or metadata/, empty: gone until written or committed
        } else {
          o = o.withKeptRemoved(area.dir(), c.name());
        }
        changes.apply(tag, o);
        return;
      }
      switch (area) {
        case GRAPH -> tag = TagEdits.withoutGraph(tag); // graph.json stays until deleted itself
        case GRAPH_JSON -> {
          o = o.withGraphJson(true);
          if (o.absentAreas().contains(ModelTree.GRAPH)) {
            // the graph this graph.json gave a tag that had none, not shown as graph yet: it goes with it
            tag = TagEdits.withoutGraph(tag);
            o = o.withArea(ModelTree.GRAPH, true);
          }
        }
        case TRAINING -> tag = TagEdits.withTraining(tag, null);
        default -> {
          Target t = changes.target(path);
          tag = switch (t.area()) {
            case PARAM -> TagEdits.withoutArray(tag, t.name());
            case UPDATER -> TagEdits.withState(tag, t.name(), t.key(), null);
            case METADATA -> TagEdits.withMetadata(tag, t.name(), null);
            default -> throw new AccessDeniedException(path.toString());
          };
          o = keepParents(o, c, t.area() == TreePath.Area.UPDATER ? t.name() : null);
        }
      }
      changes.apply(tag, o);
    } finally {
      changes.unlock();
    }
  }

  /**
   * {@code o} keeping the directories that hold the file at {@code c} (below its area) once the
   * file is gone; for updater state ({@code param} not null) up to the parameter's own directory.
   */
  static TagOverlay keepParents(TagOverlay o, TreePath c, String param) {
    List<String> kept = new ArrayList<>();
    for (String name : c.parents()) {
      if (param == null || param.equals(name) || param.startsWith(name + "/")) {
        kept.add(name);
      }
    }
    return o.withKeptAdded(c.area().dir(), kept);
  }

  /**
   * Makes a directory (docs/FILESYSTEM.md §7.1): {@code /tags/<name>} is a new, empty newest
   * tag; below a tag, {@code params/}, {@code updater/}, {@code metadata/} and any directory
   * below them, which stays until deleted (or until a commit, if still empty then). Missing
   * directories between are implied, as a name with {@code /} implies them.
   */
  void createDirectory(ModelPath dir) throws IOException {
    changes.lock();
    try {
      changes.begin();
      TreePath p = parse(dir);
      boolean tag = p.isTag();
      if (tag) {
        checkTagName(p.tag(), dir.toString(), null);
      }
      if (fs.lookup(dir) != null) {
        throw new FileAlreadyExistsException(dir.toString(), null, tag ? "the tag exists" : null);
      }
      Target.checkParents(fs, dir);
      if (tag) {
        String name = p.tag();
        List<Tag> tags = new ArrayList<>(fs.tags());
        tags.add(new Tag(name, null, List.of(), List.of(), null, Map.of()));
        Map<String, TagOverlay> o = new HashMap<>(fs.overlays());
        o.put(name, TagOverlay.NEW_TAG);
        changes.apply(tags, o);
        return;
      }
      boolean area = p.inNamedArea();
      ModelTree.Found tagDir = p.tag() != null ? fs.lookup(dir.getFileSystem().getPath(TreePath.ofTag(p.tag()))) : null;
      if (!area || tagDir == null) {
        if (p.tag() != null) {
          throw new NoSuchFileException(dir.toString(), null, "no tag '" + p.tag() + "'");
        }
        throw new AccessDeniedException(dir.toString(), null, "only tags, and params/, updater/, metadata/ of a tag"
            + " and directories below them, can be made");
      }
      String tagName = TreePath.of(tagDir).tag();
      String areaDir = p.area().dir();
      TagOverlay o = fs.overlay(tagName).withArea(areaDir, true);
      if (!p.below().isEmpty()) {
        belowNoFile(changes.tag(tagName, dir.toString()), areaDir, p.name(), dir);
        o = o.withKeptAdded(areaDir, List.of(p.name()));
      }
      changes.apply(changes.tag(tagName, dir.toString()), o);
    } finally {
      changes.unlock();
    }
  }

  /**
   * Refuses a directory of {@code params/} or {@code metadata/} whose name lies below a file's
   * name ({@code x%2Fz} beside the file {@code x}): the names of files written into it would be
   * laid out as one segment ({@code x%2Fz%2Fk}, docs/FILESYSTEM.md §2), so it could never list
   * them — a directory that cannot hold its files is not made.
   */
  private static void belowNoFile(Tag tag, String area, String name, ModelPath dir) throws FileSystemException {
    for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
      String prefix = name.substring(0, i);
      Variable v = tag.variable(prefix);
      boolean file = area.equals(ModelTree.PARAMS) ? v != null && v.array() != null
          : area.equals(ModelTree.METADATA) && tag.metadata().containsKey(prefix);
      if (file) {
        throw new FileSystemException(dir.toString(), null, "'" + prefix + "' is a file, so the names below '"
            + name + "' are laid out as one segment each (" + NameMapping.oneSegment(name + "/…")
            + "): a directory there could not list them; write the files by those names instead");
      }
    }
  }

  /** What {@code path} means, a root alias spelled as the newest tag's path. */
  TreePath parse(ModelPath path) {
    List<Tag> tags = fs.tags();
    return TreePath.parse(path.toAbsolutePath().normalize().names(), tags.isEmpty() ? null : tags.get(tags.size() - 1).name());
  }

  /** Renames the tag at {@code source} ({@code /tags/<a>}) to the name at {@code target}. */
  void renameTag(ModelPath source, ModelPath target) throws IOException {
    changes.lock();
    try {
      String from = Target.tagDir(fs.find(source));
      TreePath named = TreePath.parse(target.toAbsolutePath().normalize().names(), null);
      if (from == null || !named.isTag()) {
        throw new FileSystemException(source.toString(), target.toString(), "a tag moves only to /tags/<new name>");
      }
      String to = named.tag();
      if (to.equals(from)) {
        return; // a move onto itself
      }
      changes.begin();
      if (to.equalsIgnoreCase(from)) {
        checkTagName(to, target.toString(), from); // a change of case only
      } else {
        checkTagName(to, target.toString(), null);
        if (fs.lookup(target) != null) {
          throw new FileAlreadyExistsException(target.toString(), null, "the tag exists");
        }
      }
      List<Tag> tags = new ArrayList<>(fs.tags());
      tags.replaceAll(t -> t.name().equals(from)
          ? new Tag(to, t.graph(), t.variables(), t.updater(), t.trainingConfig(), t.metadata()) : t);
      Map<String, TagOverlay> o = new HashMap<>(fs.overlays());
      TagOverlay moved = o.remove(from);
      if (moved != null) {
        o.put(to, moved);
      }
      changes.apply(tags, o);
    } finally {
      changes.unlock();
    }
  }

  /**
   * Makes {@code link} (a new params or updater file, e.g. in another tag) show the very array
   * of {@code existing}: one stored array, two names, equal {@code fileKey}s.
   */
  void link(ModelPath link, ModelPath existing) throws IOException {
    changes.lock();
    try {
      changes.begin();
      ModelTree.Found src = fs.find(existing);
      if (!(src.node() instanceof FileNode file) || file.array() == null) {
        throw new FileSystemException(existing.toString(), link.toString(), "only array files can be linked");
      }
      if (fs.inTheWayOfFile(link) != null) {
        throw new FileAlreadyExistsException(link.toString());
      }
      Target t = changes.target(link);
      Tag tag = changes.tag(t.tag().name(), link.toString());
      Target.checkParents(fs, link);
      String area;
      if (t.area() == TreePath.Area.PARAM) {
        VarKind kind = file.kind() == null || file.kind().equals(ModelTree.UPDATER_KIND) ? null : VarKind.valueOf(file.kind());
        tag = TagEdits.withArray(tag, t.name(), file.array(), kind);
        area = ModelTree.PARAMS;
      } else if (t.area() == TreePath.Area.UPDATER) {
        tag = TagEdits.withState(tag, t.name(), t.key(), file.array());
        area = ModelTree.UPDATER;
      } else {
        throw new FileSystemException(link.toString(), existing.toString(), "links are made below params/ and updater/");
      }
      changes.apply(tag, fs.overlay(tag.name()).withArea(area, true));
    } finally {
      changes.unlock();
    }
  }

  /** Checks {@code name} against the tag rule and the other tags' names ({@code self} is the tag being renamed). */
  private String checkTagName(String name, String path, String self) throws FileSystemException {
    if (!TagList.isValid(name)) {
      throw new FileSystemException(path, null, "a tag name is " + TagList.RULE);
    }
    for (Tag t : fs.tags()) {
      if (t.name().equalsIgnoreCase(name) && !t.name().equals(name) && !t.name().equals(self)) {
        throw new FileAlreadyExistsException(path, null, "tag names are unique ignoring case: '" + t.name() + "' exists");
      }
    }
    return name;
  }
}
