package org.modelfs.tree;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.modelfs.model.NamedList;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a write session shows of one tag beyond its content (docs/FILESYSTEM.md §7.1): the
 * directories that exist without a file below them, which of {@code params/}, {@code updater/},
 * {@code metadata/} are absent (a new tag, or one deleted while empty), and {@code graph.json}'s
 * state. Immutable; the session swaps in changed copies, and a commit starts again from
 * {@link #NONE}.
 *
 * @param absentAreas the area directories ({@link ModelTree#PARAMS}, {@link ModelTree#UPDATER},
 *     {@link ModelTree#METADATA}) that do not exist; and {@link ModelTree#GRAPH} when the tag has
 *     a graph that {@code graph} does not show yet: one a graph.json written into a tag without a
 *     graph gave it (a tag copied file by file, which writes {@code graph} too), shown when
 *     {@code graph} is written or at the commit
 * @param keptDirs per area, the decoded names of directories kept without files below them
 * @param graphJsonAbsent whether {@code graph.json} does not exist (a new tag, or a deleted
 *     {@code graph.json}); otherwise it shows what the tag's graph renders to — also after
 *     {@code graph} was deleted, until graph.json itself is, and after it was written (it shows
 *     the graph the write made, docs/GRAPH.md §3.2)
 */
public record TagOverlay(Set<String> absentAreas, Map<String, NamedList<String>> keptDirs, boolean graphJsonAbsent) {
  private static final Function<String, String> SELF = k -> k;

  /** A tag as it was committed: every area, no kept directory, graph.json as rendered. */
  public static final TagOverlay NONE = new TagOverlay(Set.of(), Map.of(), false);

  /** A tag made by {@code createDirectory}: empty until something is written into it. */
  public static final TagOverlay NEW_TAG = new TagOverlay(
      Set.of(ModelTree.PARAMS, ModelTree.UPDATER, ModelTree.METADATA), Map.of(), true);

  public TagOverlay {
    absentAreas = Set.copyOf(absentAreas);
    Map<String, NamedList<String>> k = new TreeMap<>();
    keptDirs.forEach((area, names) -> {
      if (!names.isEmpty()) {
        k.put(area, NamedList.of(names, SELF));
      }
    });
    keptDirs = Map.copyOf(k);
  }

  /** The kept directories of {@code area} (decoded names), found by name and by range in O(log n). */
  public NamedList<String> kept(String area) {
    return keptDirs.getOrDefault(area, NamedList.of(List.of(), SELF));
  }

  /** This overlay with {@code area} present or absent. */
  public TagOverlay withArea(String area, boolean present) {
    Set<String> a = new TreeSet<>(absentAreas);
    if (present) {
      a.remove(area);
    } else {
      a.add(area);
    }
    return new TagOverlay(a, keptDirs, graphJsonAbsent);
  }

  /** This overlay with the kept directories of {@code area} replaced. */
  public TagOverlay withKept(String area, Collection<String> names) {
    Map<String, NamedList<String>> k = new TreeMap<>(keptDirs);
    k.put(area, NamedList.of(new TreeSet<>(names), SELF));
    return new TagOverlay(absentAreas, k, graphJsonAbsent);
  }

  /** This overlay also keeping {@code names} in {@code area}: O(log n) each. */
  public TagOverlay withKeptAdded(String area, Collection<String> names) {
    NamedList<String> kept = kept(area);
    for (String n : names) {
      kept = kept.with(n);
    }
    return withKeptList(area, kept);
  }

  /** This overlay no longer keeping {@code name} in {@code area}: O(log n). */
  public TagOverlay withKeptRemoved(String area, String name) {
    return withKeptList(area, kept(area).without(name));
  }

  private TagOverlay withKeptList(String area, NamedList<String> kept) {
    Map<String, NamedList<String>> k = new TreeMap<>(keptDirs);
    k.put(area, kept);
    return new TagOverlay(absentAreas, k, graphJsonAbsent);
  }

  /** This overlay with graph.json's state replaced. */
  public TagOverlay withGraphJson(boolean absent) {
    return new TagOverlay(absentAreas, keptDirs, absent);
  }
}
