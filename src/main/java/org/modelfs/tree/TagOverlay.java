package org.modelfs.tree;

import java.util.Map;
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
 *     {@link ModelTree#METADATA}) that do not exist
 * @param keptDirs per area, the decoded names of directories kept without files below them
 * @param graphJsonAbsent whether {@code graph.json} does not exist (a new tag, or a deleted
 *     {@code graph.json}); otherwise it shows {@code graphJson}, or what the tag renders to —
 *     also after {@code graph} was deleted, until graph.json itself is
 * @param graphJson the bytes written to {@code graph.json} in this session, or {@code null}
 */
public record TagOverlay(Set<String> absentAreas, Map<String, Set<String>> keptDirs, boolean graphJsonAbsent,
    Content graphJson) {

  /** A tag as it was committed: every area, no kept directory, graph.json as rendered. */
  public static final TagOverlay NONE = new TagOverlay(Set.of(), Map.of(), false, null);

  /** A tag made by {@code createDirectory}: empty until something is written into it. */
  public static final TagOverlay NEW_TAG = new TagOverlay(
      Set.of(ModelTree.PARAMS, ModelTree.UPDATER, ModelTree.METADATA), Map.of(), true, null);

  public TagOverlay {
    absentAreas = Set.copyOf(absentAreas);
    Map<String, Set<String>> k = new TreeMap<>();
    keptDirs.forEach((area, names) -> {
      if (!names.isEmpty()) {
        k.put(area, Set.copyOf(new TreeSet<>(names)));
      }
    });
    keptDirs = Map.copyOf(k);
  }

  /** The kept directories of {@code area} (decoded names). */
  public Set<String> kept(String area) {
    return keptDirs.getOrDefault(area, Set.of());
  }

  /** This overlay with {@code area} present or absent. */
  public TagOverlay withArea(String area, boolean present) {
    Set<String> a = new TreeSet<>(absentAreas);
    if (present) {
      a.remove(area);
    } else {
      a.add(area);
    }
    return new TagOverlay(a, keptDirs, graphJsonAbsent, graphJson);
  }

  /** This overlay with the kept directories of {@code area} replaced. */
  public TagOverlay withKept(String area, Set<String> names) {
    Map<String, Set<String>> k = new TreeMap<>(keptDirs);
    k.put(area, names);
    return new TagOverlay(absentAreas, k, graphJsonAbsent, graphJson);
  }

  /** This overlay with graph.json's state replaced. */
  public TagOverlay withGraphJson(boolean absent, Content written) {
    return new TagOverlay(absentAreas, keptDirs, absent, written);
  }
}
