package org.modelfs.tree;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names below one directory ({@code params/}, {@code updater/}, a parameter's state
 * directory, {@code metadata/}) laid out as a subtree by {@link NameMapping}, plus the lookup of
 * any other spelling of a name ({@code a/b} for the canonical {@code a%2Fb}).
 */
final class NameSpace {
  /** A node and its canonical segments below the name space's directory. */
  record Entry(Node node, List<String> segments) {}

  private final Map<String, Entry> byName = new HashMap<>();

  private NameSpace() {}

  /**
   * Lays out {@code leaves} (name → node, in listing order) below {@code root}, then the
   * directories {@code kept} (decoded names) that exist without a leaf below them — each
   * where it would be if it held a file, after the leaves; one that a leaf's file is in the way
   * of is not shown.
   */
  static void build(Dir root, LinkedHashMap<String, Node> leaves, Set<String> kept) {
    NameSpace ns = new NameSpace();
    root.joinNameSpace(ns, "");
    for (Map.Entry<String, List<String>> e : NameMapping.canonical(leaves.keySet()).entrySet()) {
      Dir dir = ns.dirs(root, e.getValue(), e.getValue().size() - 1);
      List<String> segs = e.getValue();
      Node leaf = leaves.get(e.getKey());
      dir.put(segs.get(segs.size() - 1), leaf);
      ns.byName.put(e.getKey(), new Entry(leaf, segs));
    }
    for (String name : kept) {
      List<String> segs = NameMapping.segments(name, leaves.keySet());
      ns.dirs(root, segs, segs.size());
    }
  }

  /**
   * The directory at the first {@code n} of {@code segs} below {@code root}, made where
   * missing; {@code null} when a file is in the way (only a kept directory can meet one:
   * NameMapping never splits a name through another name).
   */
  private Dir dirs(Dir root, List<String> segs, int n) {
    Dir dir = root;
    StringBuilder prefix = new StringBuilder();
    for (int i = 0; i < n; i++) {
      String seg = segs.get(i);
      prefix.append(i == 0 ? "" : "/").append(NameMapping.decode(seg));
      Node child = dir.children().get(seg);
      if (child == null) {
        Dir d = new Dir(root.tag(), false);
        d.joinNameSpace(this, prefix.toString());
        dir.put(seg, d);
        byName.put(prefix.toString(), new Entry(d, List.copyOf(segs.subList(0, i + 1))));
        child = d;
      }
      if (!(child instanceof Dir d)) {
        return null;
      }
      dir = d;
    }
    return dir;
  }

  /** The entry named by {@code segments}, decoded and appended to {@code prefix}, or {@code null}. */
  Entry get(String prefix, List<String> segments) {
    String name = NameMapping.name(segments);
    return byName.get(prefix.isEmpty() ? name : prefix + "/" + name);
  }
}
