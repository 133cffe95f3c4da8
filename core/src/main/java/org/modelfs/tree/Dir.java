package org.modelfs.tree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A directory of the tree. Its entries are worked out when asked for — from the tag's index for
 * the directories below {@code params/}, {@code updater/} and {@code metadata/} (where a
 * directory exists while a name lives below it or the session keeps it, {@link TagOverlay}), so
 * a change to one of N names costs no more than the change (docs/PERFORMANCE.md).
 */
public final class Dir implements Node {
  /** What a directory holds, and how a path below it is found. */
  interface Contents {
    /** The canonical names of the entries, in listing order. */
    List<String> names();

    /** Whether there are no entries (without listing them where that is cheaper). */
    default boolean isEmpty() {
      return names().isEmpty();
    }

    /** See {@link Dir#impliedByNames()}. */
    default boolean impliedByNames() {
      return false;
    }

    /**
     * The node at {@code segments[i..]} below this directory, whose canonical path is
     * {@code canonical}, or {@code null}.
     */
    ModelTree.Found find(Supplier<List<String>> canonical, List<String> segments, int i);
  }

  private final String tag;
  private final Object key;
  private final Contents contents;
  private volatile List<String> listed;

  Dir(String tag, Object key, Contents contents) {
    this.tag = tag;
    this.key = key;
    this.contents = contents;
  }

  /** A directory of fixed entries (the root, {@code tags/}, a tag); tag names match ignoring case. */
  static Dir fixed(String tag, Object key, LinkedHashMap<String, Node> children, boolean caseInsensitive) {
    Map<String, String> folded = null;
    if (caseInsensitive) {
      folded = new HashMap<>();
      for (String c : children.keySet()) {
        folded.putIfAbsent(c.toLowerCase(Locale.ROOT), c);
      }
    }
    return new Dir(tag, key, new Fixed(children, folded));
  }

  @Override
  public String tag() {
    return tag;
  }

  /** Stable for one directory of one tree: equal for every lookup that reaches it. */
  @Override
  public Object fileKey() {
    return key;
  }

  /**
   * The canonical names of the entries, in listing order, worked out on first use: the names
   * only — a node is made when a path reaches it — so a directory of a million entries lists in
   * the memory of its names.
   */
  public List<String> names() {
    List<String> l = listed;
    if (l == null) {
      l = Collections.unmodifiableList(contents.names());
      listed = l;
    }
    return l;
  }

  /**
   * Whether this directory exists only because longer names lie below it — {@code metadata/x} of
   * a key {@code x/y} — and is neither a name nor kept by the session (docs/FILESYSTEM.md §2):
   * such a directory gives way to a new file of its name, which makes the longer names one
   * segment ({@code x%2Fy}), so a name and a longer one can be made in either order.
   */
  public boolean impliedByNames() {
    return contents.impliedByNames();
  }

  /** Whether the directory has no entries. */
  public boolean isEmpty() {
    List<String> l = listed;
    return l != null ? l.isEmpty() : contents.isEmpty();
  }

  /**
   * The node at {@code segments[i..]} below this directory, whose canonical path
   * {@code canonical} gives (asked only if the caller wants it), or {@code null}.
   */
  ModelTree.Found find(Supplier<List<String>> canonical, List<String> segments, int i) {
    if (i == segments.size()) {
      return new ModelTree.Found(this, canonical);
    }
    return contents.find(canonical, segments, i);
  }

  /** {@code a} then {@code b}, as an unmodifiable list ({@link List#copyOf} of it copies nothing). */
  static List<String> append(List<String> a, List<String> b) {
    String[] out = new String[a.size() + b.size()];
    int k = 0;
    for (String s : a) {
      out[k++] = s;
    }
    for (String s : b) {
      out[k++] = s;
    }
    return List.of(out);
  }

  /** The entries of a directory that does not grow with the model. */
  private record Fixed(LinkedHashMap<String, Node> children, Map<String, String> folded) implements Contents {
    @Override
    public List<String> names() {
      return new ArrayList<>(children.keySet());
    }

    @Override
    public ModelTree.Found find(Supplier<List<String>> canonical, List<String> segments, int i) {
      String name = segments.get(i);
      Node child = children.get(name);
      if (child == null && folded != null) {
        name = folded.get(name.toLowerCase(Locale.ROOT));
        child = name == null ? null : children.get(name);
      }
      if (child == null) {
        return null;
      }
      String found = name;
      Supplier<List<String>> at = () -> append(canonical.get(), List.of(found));
      if (i + 1 == segments.size()) {
        return new ModelTree.Found(child, at);
      }
      return child instanceof Dir d ? d.find(at, segments, i + 1) : null;
    }
  }
}
