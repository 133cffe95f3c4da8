package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.modelfs.format.fb.GraphNames;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.NameMapping;
import org.modelfs.tree.TagOverlay;
import org.modelfs.tree.TreePath;

/**
 * {@code Files.move} inside one tag's {@code params/}, {@code updater/} or {@code metadata/} as a
 * rename (docs/FILESYSTEM.md §7.2): a parameter (or every parameter below a directory) keeps
 * its array, its place in the graph — ops use it by id, so they follow — and its updater state,
 * under the new name; an updater directory renames whose state it is; a metadata directory
 * renames its keys. One journaled change: the commit makes all of it at once. Runs under the
 * session's change lock.
 */
final class Renames {
  private final ModelChanges changes;
  private final ModelFileSystem fs;

  Renames(ModelChanges changes) {
    this.changes = changes;
    this.fs = changes.fs();
  }

  /**
   * Renames what {@code source} names to {@code target} when the move is a rename: both below
   * the same area of one tag, and a parameter file or a directory. Returns {@code false} when
   * the move is a copy and a delete instead: a file onto an existing file (its content is
   * replaced and the target keeps its place in the graph), an updater or metadata file, or
   * another tag or area.
   */
  boolean rename(ModelPath source, ModelPath target, boolean replace) throws IOException {
    changes.lock();
    try {
      ModelTree.Found src = fs.find(source);
      TreePath cs = TreePath.of(src);
      TreePath ct = fs.edits().parse(target);
      if (cs.below().isEmpty() || ct.below().isEmpty() || !cs.inNamedArea() || !ct.inNamedArea()
          || ct.area() != cs.area()) {
        return false;
      }
      ModelTree.Found tagDir = fs.lookup(fs.getPath(TreePath.ofTag(ct.tag())));
      if (tagDir == null || !TreePath.of(tagDir).tag().equals(cs.tag())) {
        return false;
      }
      TreePath.Area area = cs.area();
      boolean dir = src.node() instanceof Dir;
      if (!dir && area != TreePath.Area.PARAM) {
        return false;
      }
      ModelTree.Found existing = dir ? fs.lookup(target) : fs.inTheWayOfFile(target);
      if (existing != null) {
        if (existing.canonical().equals(src.canonical())) {
          return true; // onto itself
        }
        if (!replace) {
          throw new FileAlreadyExistsException(target.toString());
        }
        if (existing.node() instanceof FileNode) {
          if (!dir) {
            return false;
          }
          throw new FileSystemException(source.toString(), target.toString(), "a directory cannot replace a file");
        }
        if (!((Dir) existing.node()).isEmpty()) {
          throw new DirectoryNotEmptyException(target.toString());
        }
      }
      changes.begin();
      Target.checkParents(fs, target);
      List<String> from = cs.below();
      String oldName = cs.name();
      String newName = ct.name();
      if (dir && newName.startsWith(oldName + "/")) {
        throw new FileSystemException(source.toString(), target.toString(), "a directory cannot move into itself");
      }
      Tag tag = changes.tag(cs.tag(), source.toString());
      switch (area) {
        case PARAM -> {
          Map<String, String> r;
          if (dir) {
            List<String> arrays = new ArrayList<>();
            for (Variable v : tag.variables()) {
              if (v.array() != null) {
                arrays.add(v.name());
              }
            }
            r = renames(arrays, from, true, newName);
          } else {
            if (Target.fileless(tag.variable(newName))) {
              // onto a parameter whose file was deleted: its new content, as a write there would
              // be — the variable keeps its place in the graph (copy and delete, FILESYSTEM.md §7.2)
              return false;
            }
            r = Map.of(oldName, newName); // a file: O(log n), whatever the number of parameters
          }
          Tag freed = withoutFileless(tag, r, source, target);
          check(r, n -> freed.variable(n) != null, target, "a variable of the graph");
          TagOverlay o = moveKept(fs.overlay(tag.name()), cs, newName, dir);
          // the updater state moves along; the directories that held it stay, as the source's do
          List<String> keptState = new ArrayList<>();
          for (String moved : r.keySet()) {
            if (tag.state(moved) != null) {
              String[] parts = moved.split("/", -1);
              for (int j = 1; j < parts.length; j++) {
                String prefix = String.join("/", Arrays.asList(parts).subList(0, j));
                if (!prefix.equals(oldName) && !prefix.startsWith(oldName + "/")) {
                  keptState.add(prefix);
                }
              }
            }
          }
          changes.apply(TagEdits.renamed(freed, r), o.withKeptAdded(ModelTree.UPDATER, keptState));
        }
        case UPDATER -> {
          List<String> states = new ArrayList<>();
          tag.updater().forEach(u -> states.add(u.paramName()));
          Map<String, List<String>> canon = NameMapping.canonical(states);
          for (List<String> segs : canon.values()) {
            if (TreePath.strictlyBelow(from, segs)) {
              throw new FileSystemException(source.toString(), target.toString(),
                  "inside a parameter's updater state, move its files one by one");
            }
          }
          Map<String, String> r = renames(states, from, true, newName);
          check(r, n -> states.contains(n), target, "updater state");
          List<UpdaterState> ups = new ArrayList<>();
          for (UpdaterState u : tag.updater()) {
            ups.add(new UpdaterState(r.getOrDefault(u.paramName(), u.paramName()), u.arrays()));
          }
          Tag t = new Tag(tag.name(), tag.graph(), tag.variables(), ups, tag.trainingConfig(), tag.metadata());
          changes.apply(t, moveKept(fs.overlay(tag.name()), cs, newName, true));
        }
        default -> {
          Map<String, String> r = renames(tag.metadata().keySet(), from, true, newName);
          check(r, n -> tag.metadata().containsKey(n), target, "a metadata key");
          changes.apply(TagEdits.withMetadataRenamed(tag, r), moveKept(fs.overlay(tag.name()), cs, newName, true));
        }
      }
      return true;
    } finally {
      changes.unlock();
    }
  }

  /**
   * Old name → new name for each of {@code names} at canonical segments {@code from} (a file)
   * or below them ({@code dir}; a directory of updater state is itself one of the names).
   */
  private static Map<String, String> renames(Collection<String> names, List<String> from, boolean dir, String newName) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : NameMapping.canonical(names).entrySet()) {
      List<String> segs = e.getValue();
      String rest = TreePath.nameBelow(segs, from);
      boolean self = rest != null && segs.size() == from.size();
      if (rest != null && (dir || self)) {
        out.put(e.getKey(), self ? newName : newName + "/" + rest);
      }
    }
    return out;
  }

  /**
   * {@code tag} without the variables whose files were deleted (FILESYSTEM.md §7.3) that a
   * directory rename gives a name to: a deleted file is no longer in the way of a name, as on
   * any file system. One that ops still use cannot go: the rename is refused, naming them (move
   * the files one by one: each then becomes its new array).
   */
  private Tag withoutFileless(Tag tag, Map<String, String> renames, ModelPath source, ModelPath target)
      throws IOException {
    Set<String> freed = new LinkedHashSet<>();
    for (String to : renames.values()) {
      if (!renames.containsKey(to) && Target.fileless(tag.variable(to))) {
        freed.add(to);
      }
    }
    if (freed.isEmpty()) {
      return tag;
    }
    Map<String, List<String>> users = GraphNames.users(tag, freed, fs.container());
    Tag out = tag;
    for (String name : freed) {
      List<String> ops = users.get(name);
      if (ops != null) {
        throw new FileSystemException(source.toString(), target.toString(), "'" + name + "' was deleted, but "
            + (ops.size() == 1 ? "op " : "ops ") + String.join(", ", ops) + (ops.size() == 1 ? " uses" : " use")
            + " it: move the files one by one (each becomes its new array)");
      }
      out = TagEdits.withoutVariable(out, name);
    }
    return out;
  }

  /** Refuses a new name that {@code taken} says is in use by something not being renamed. */
  private static void check(Map<String, String> renames, Function<String, Boolean> taken, ModelPath target, String what)
      throws FileAlreadyExistsException {
    for (String to : renames.values()) {
      if (taken.apply(to) && !renames.containsKey(to)) {
        throw new FileAlreadyExistsException(target.toString(), null, what + " is named '" + to + "'");
      }
    }
  }

  /**
   * {@code o} with the kept directories at or below {@code source}'s name moved to
   * {@code newName}, the directories that held the source kept, and (a directory) the target kept.
   */
  private static TagOverlay moveKept(TagOverlay o, TreePath source, String newName, boolean dir) {
    String area = source.area().dir();
    String oldName = source.name();
    List<String> parents = source.parents();
    if (!dir && !o.kept(area).containsName(oldName)) { // a file: nothing kept moves along
      return o.withKeptAdded(area, parents).withArea(area, true);
    }
    Set<String> kept = new HashSet<>();
    for (String k : o.kept(area)) {
      if (k.equals(oldName) || k.startsWith(oldName + "/")) {
        kept.add(newName + k.substring(oldName.length()));
      } else {
        kept.add(k);
      }
    }
    kept.addAll(parents);
    if (dir) {
      kept.add(newName);
    }
    return o.withKept(area, kept).withArea(area, true);
  }
}
