package org.modelfs.tree;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  /** Lays out {@code leaves} (name → node, in listing order) below {@code root}. */
  static void build(Dir root, LinkedHashMap<String, Node> leaves) {
    NameSpace ns = new NameSpace();
    root.joinNameSpace(ns, "");
    for (Map.Entry<String, List<String>> e : NameMapping.canonical(leaves.keySet()).entrySet()) {
      List<String> segs = e.getValue();
      Dir dir = root;
      StringBuilder prefix = new StringBuilder();
      for (int i = 0; i < segs.size() - 1; i++) {
        String seg = segs.get(i);
        prefix.append(i == 0 ? "" : "/").append(NameMapping.decode(seg));
        Node child = dir.children().get(seg);
        if (child == null) {
          Dir d = new Dir(root.tag(), false);
          d.joinNameSpace(ns, prefix.toString());
          dir.put(seg, d);
          ns.byName.put(prefix.toString(), new Entry(d, List.copyOf(segs.subList(0, i + 1))));
          child = d;
        }
        dir = (Dir) child; // NameMapping never splits a name through another name
      }
      Node leaf = leaves.get(e.getKey());
      dir.put(segs.get(segs.size() - 1), leaf);
      ns.byName.put(e.getKey(), new Entry(leaf, segs));
    }
  }

  /** The entry named by {@code segments}, decoded and appended to {@code prefix}, or {@code null}. */
  Entry get(String prefix, List<String> segments) {
    String name = NameMapping.name(segments);
    return byName.get(prefix.isEmpty() ? name : prefix + "/" + name);
  }
}
