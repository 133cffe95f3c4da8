package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.ModelTree;

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
      if (attrs.dtype() != null && a.bigEndian() && attrs.dtype().width() != a.dtype().width()) {
        throw new FileSystemException(path.toString(), null, "its bytes are stored big-endian as "
            + a.dtype() + "; write the new bytes first, then change the dtype");
      }
      ArrayData changed = new ArrayData(
          attrs.dtype() != null ? attrs.dtype() : a.dtype(), attrs.shape() != null ? attrs.shape() : a.shape(),
          attrs.order() != 0 ? attrs.order() : a.order(), a.empty(), a.source(), a.offset(), a.length(),
          a.bigEndian(), a.storage());
      if (t.area() == Target.Area.PARAM) {
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

  void delete(ModelPath path) throws IOException {
    changes.lock();
    try {
      changes.begin();
      ModelTree.Found f = fs.find(path);
      String tagName = Target.tagDir(f.canonical());
      if (tagName != null) {
        if (fs.tags().size() == 1) {
          throw new AccessDeniedException(path.toString(), null, "the only tag of a model cannot be deleted");
        }
        List<Tag> rest = new ArrayList<>(fs.tags());
        rest.removeIf(t -> t.name().equals(tagName));
        changes.apply(rest);
        return;
      }
      if (f.node() instanceof Dir d) {
        List<String> c = f.canonical();
        boolean content = c.size() >= 2 && (c.contains(ModelTree.PARAMS) || c.contains(ModelTree.UPDATER)
            || c.contains(ModelTree.METADATA)) && !Target.isAreaRoot(c);
        if (content && !d.children().isEmpty()) {
          throw new DirectoryNotEmptyException(path.toString());
        }
        throw new AccessDeniedException(path.toString(), null, "part of the model's structure; it cannot be deleted");
      }
      Target t = changes.target(path);
      Tag tag = changes.tag(t.tag().name(), path.toString());
      tag = switch (t.area()) {
        case PARAM -> TagEdits.withoutArray(tag, t.name());
        case UPDATER -> TagEdits.withState(tag, t.name(), t.key(), null);
        case METADATA -> TagEdits.withMetadata(tag, t.name(), null);
        case TRAINING -> TagEdits.withTraining(tag, null);
        default -> throw new AccessDeniedException(path.toString(), null, "part of the model's structure; it cannot be deleted");
      };
      changes.apply(tag);
    } finally {
      changes.unlock();
    }
  }

  /**
   * Directories below {@code params/}, {@code updater/} and {@code metadata/} are virtual: they
   * exist while a name lives below them, so creating one succeeds without a trace. A directory
   * {@code /tags/<name>} makes a new, empty newest tag (docs/FILESYSTEM.md §7).
   */
  void createDirectory(ModelPath dir) throws IOException {
    changes.lock();
    try {
      changes.begin();
      List<String> names = dir.toAbsolutePath().normalize().names();
      boolean tag = names.size() == 2 && names.get(0).equals(ModelTree.TAGS);
      if (tag) {
        checkTagName(names.get(1), dir.toString(), null);
      }
      if (fs.lookup(dir) != null) {
        throw new FileAlreadyExistsException(dir.toString(), null, tag ? "the tag exists" : null);
      }
      Target.checkParents(fs, dir);
      if (tag) {
        String name = names.get(1);
        List<Tag> tags = new ArrayList<>(fs.tags());
        tags.add(new Tag(name, null, List.of(), List.of(), null, java.util.Map.of()));
        changes.apply(tags);
        return;
      }
      int i = !names.isEmpty() && names.get(0).equals(ModelTree.TAGS) ? 2 : 0;
      boolean below = names.size() > i + 1 && (names.get(i).equals(ModelTree.PARAMS)
          || names.get(i).equals(ModelTree.UPDATER) || names.get(i).equals(ModelTree.METADATA));
      if (!below || i == 2 && fs.lookup(dir.getFileSystem().getPath("/" + ModelTree.TAGS, names.get(1))) == null) {
        throw new AccessDeniedException(dir.toString(), null, "only tags and directories below params/, updater/,"
            + " metadata/ of a tag can be made");
      }
    } finally {
      changes.unlock();
    }
  }

  /** Renames the tag at {@code source} ({@code /tags/<a>}) to the name at {@code target}. */
  void renameTag(ModelPath source, ModelPath target) throws IOException {
    changes.lock();
    try {
      String from = Target.tagDir(fs.find(source).canonical());
      List<String> names = target.toAbsolutePath().normalize().names();
      if (from == null || names.size() != 2 || !names.get(0).equals(ModelTree.TAGS)) {
        throw new FileSystemException(source.toString(), target.toString(), "a tag moves only to /tags/<new name>");
      }
      String to = names.get(1);
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
      changes.apply(tags);
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
      if (fs.lookup(link) != null) {
        throw new FileAlreadyExistsException(link.toString());
      }
      Target t = changes.target(link);
      Tag tag = changes.tag(t.tag().name(), link.toString());
      if (t.area() == Target.Area.PARAM) {
        VarKind kind = file.kind() == null || file.kind().equals(ModelTree.UPDATER_KIND) ? null : VarKind.valueOf(file.kind());
        tag = TagEdits.withArray(tag, t.name(), file.array(), kind);
      } else if (t.area() == Target.Area.UPDATER) {
        tag = TagEdits.withState(tag, t.name(), t.key(), file.array());
      } else {
        throw new FileSystemException(link.toString(), existing.toString(), "links are made below params/ and updater/");
      }
      changes.apply(tag);
    } finally {
      changes.unlock();
    }
  }

  /** Checks {@code name} against the tag rule and the other tags' names ({@code self} is the tag being renamed). */
  private String checkTagName(String name, String path, String self) throws FileSystemException {
    if (!org.modelfs.format.TagList.isValid(name)) {
      throw new FileSystemException(path, null, "a tag name is " + org.modelfs.format.TagList.RULE);
    }
    for (Tag t : fs.tags()) {
      if (t.name().equalsIgnoreCase(name) && !t.name().equals(name) && !t.name().equals(self)) {
        throw new FileAlreadyExistsException(path, null, "tag names are unique ignoring case: '" + t.name() + "' exists");
      }
    }
    return name;
  }
}
