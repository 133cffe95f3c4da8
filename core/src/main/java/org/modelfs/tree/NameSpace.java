package org.modelfs.tree;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.model.NamedList;
import java.util.function.Predicate;

/**
 * The names of one area ({@code params/}, {@code updater/}, a parameter's state directory,
 * {@code metadata/}) laid out as a subtree by {@link NameMapping} — worked out per lookup and per
 * listing from the tag's index, never built whole. A lookup costs a few index probes per path
 * segment; listing a directory costs the names below it (docs/PERFORMANCE.md, "Edits in
 * O(change)").
 *
 * <p>A name lives at {@link NameMapping#segments}; a directory at a decoded prefix {@code p}
 * exists when a name split on {@code /} lies below it, or the session keeps it
 * ({@link TagOverlay}) and no file is in its way. Any spelling of a path that decodes to the
 * same names finds the same node ({@code a/b} finds {@code a%2Fb}).
 */
final class NameSpace {
  /** An area's names as the index holds them. */
  interface Names {
    /** Whether {@code name} is a name of the area. */
    boolean has(String name);

    /** The node of name {@code name} (a file, or a parameter's state directory), at {@code canonical}. */
    Node leaf(String name, List<String> canonical);

    /** Where {@code name} comes in listings: smaller first. */
    long order(String name);

    /** Visits the names in {@code [from, to)} ({@code to == null}: unbounded) in name order while {@code visit} says so. */
    void range(String from, String to, Predicate<String> visit);
  }

  private final String tag;
  private final String area;
  private final List<String> base;
  private final Names names;
  private final NamedList<String> kept;
  private final Predicate<String> isName;

  /**
   * @param base the canonical path of the area's directory
   * @param kept the decoded names of directories the session keeps without files
   */
  private NameSpace(String tag, String area, List<String> base, Names names, NamedList<String> kept) {
    this.tag = tag;
    this.area = area;
    this.base = List.copyOf(base);
    this.names = names;
    this.kept = kept;
    this.isName = names::has;
  }

  /** The directory of area {@code area} of {@code tag} at {@code base}. */
  static Dir root(String tag, String area, List<String> base, Names names, NamedList<String> kept) {
    return new NameSpace(tag, area, base, names, kept).dir(null);
  }

  /** Identifies a directory of an area: the same for every lookup of one tree. */
  private record DirKey(String tag, String area, List<String> base, String prefix) {}

  /** The directory at decoded prefix {@code prefix}; {@code null}: the area itself (not the directory named {@code ""}). */
  private Dir dir(String prefix) {
    return new Dir(tag, new DirKey(tag, area, base, prefix), new At(prefix));
  }

  /** The node whose decoded name is {@code d}, or {@code null}. */
  private Node node(String d, List<String> canonical) {
    if (names.has(d)) {
      return names.leaf(d, canonical);
    }
    return isDir(d) ? dir(d) : null;
  }

  private List<String> segments(String d) {
    return NameMapping.segments(d, isName);
  }

  /** Whether a directory lives at decoded prefix {@code p} (not a name itself). */
  private boolean isDir(String p) {
    boolean[] found = {false};
    names.range(p + "/", p + "0", n -> {
      found[0] = NameMapping.splittable(n, isName);
      return !found[0];
    });
    if (found[0]) {
      return true;
    }
    // the directory k itself (a file of that name hides it), and its parents when k is split
    kept.range(p, p + "0", (k, x) -> {
      found[0] = k.equals(p) || k.startsWith(p + "/") && NameMapping.splittable(k, isName);
      return !found[0];
    });
    return found[0];
  }

  /** One directory of the area: the names below decoded prefix {@code prefix} ({@code ""}: the area). */
  private final class At implements Dir.Contents {
    /** The decoded prefix ({@code ""} at the area, and for the directory named {@code ""}). */
    private final String prefix;
    /** Whether this is the area itself. */
    private final boolean top;

    At(String prefix) {
      this.prefix = prefix == null ? "" : prefix;
      this.top = prefix == null;
    }

    @Override
    public List<String> names() {
      int depth = top ? 0 : prefix.split("/", -1).length;
      // leaves are distinct by name; a directory is listed once, at its first name's place
      List<String> segs = new ArrayList<>();
      LongList order = new LongList();
      Map<String, Integer> dirAt = new HashMap<>();
      Predicate<String> visit = n -> {
        List<String> s = segments(n);
        if (depth > 0 && s.size() == 1) {
          return true; // laid out at the area's top
        }
        String seg = s.get(depth);
        long o = names.order(n);
        if (s.size() == depth + 1) {
          segs.add(seg);
          order.add(o);
        } else {
          Integer at = dirAt.get(seg);
          if (at == null) {
            dirAt.put(seg, segs.size());
            segs.add(seg);
            order.add(o);
          } else if (o < order.get(at)) {
            order.set(at, o);
          }
        }
        return true;
      };
      if (top) {
        names.range("", null, visit);
      } else {
        names.range(prefix + "/", prefix + "0", visit);
      }
      List<String> out = order.sortedBy(segs);
      // the kept directories after the leaves, in name order, each where it would be if it held a file
      java.util.Set<String> shown = new java.util.HashSet<>(dirAt.keySet());
      kept.range(top ? "" : prefix + "/", top ? null : prefix + "0", (k, x) -> {
        List<String> s = segments(k);
        if (s.size() > depth) {
          String seg = s.get(depth);
          String d = s.size() == depth + 1 ? k : join(top, prefix, NameMapping.decode(seg));
          if (!names.has(d) && shown.add(seg)) {
            out.add(seg);
          }
        }
        return true;
      });
      return out;
    }

    @Override
    public boolean isEmpty() {
      if (top) {
        boolean[] any = {false};
        names.range("", null, n -> {
          any[0] = true;
          return false;
        });
        return !any[0] && kept.isEmpty();
      }
      boolean[] any = {false};
      names.range(prefix + "/", prefix + "0", n -> !(any[0] = NameMapping.splittable(n, isName)));
      if (!any[0]) {
        kept.range(prefix + "/", prefix + "0", (k, x) -> !(any[0] = NameMapping.splittable(k, isName)));
      }
      return !any[0];
    }

    @Override
    public ModelTree.Found find(List<String> canonical, List<String> segs, int i) {
      StringBuilder joined = new StringBuilder();
      List<String> candidates = new ArrayList<>();
      for (int j = i; j < segs.size(); j++) {
        if (j > i) {
          joined.append('/');
        }
        joined.append(NameMapping.decode(segs.get(j)));
        candidates.add(join(top, prefix, joined.toString()));
      }
      for (int j = segs.size(); j > i; j--) { // the longest name first
        String d = candidates.get(j - i - 1);
        List<String> at = Dir.append(base, segments(d));
        Node n = node(d, at);
        if (n == null) {
          continue;
        }
        if (j == segs.size()) {
          return new ModelTree.Found(n, List.copyOf(at));
        }
        if (n instanceof Dir dir) {
          ModelTree.Found f = dir.find(at, segs, j);
          if (f != null) {
            return f;
          }
        }
      }
      return null;
    }
  }

  private static String join(boolean top, String prefix, String rest) {
    return top ? rest : prefix + "/" + rest;
  }

  /**
   * The names of a small map (a parameter's state keys, metadata), in the map's order; its
   * index is made on first use, so a tree swapped in by an edit elsewhere never builds it.
   */
  static Names ofMap(Map<String, ?> map, BiLeaf leaf) {
    return new Names() {
      private Map<String, Long> order; // made on first use; a tree is read by many threads:
      private List<String> sorted; // both are set together under this object's monitor

      private synchronized void index() {
        if (order == null) {
          Map<String, Long> o = new HashMap<>();
          for (String k : map.keySet()) {
            o.putIfAbsent(k, (long) o.size());
          }
          List<String> s = new ArrayList<>(o.keySet());
          s.sort(null);
          sorted = s;
          order = o;
        }
      }

      @Override
      public boolean has(String name) {
        return map.containsKey(name);
      }

      @Override
      public Node leaf(String name, List<String> canonical) {
        return leaf.node(name, canonical);
      }

      @Override
      public synchronized long order(String name) {
        index();
        Long o = order.get(name);
        return o == null ? -1 : o;
      }

      @Override
      public void range(String from, String to, Predicate<String> visit) {
        List<String> s;
        synchronized (this) {
          index();
          s = sorted;
        }
        int i = java.util.Collections.binarySearch(s, from);
        for (i = i < 0 ? -i - 1 : i; i < s.size(); i++) {
          String n = s.get(i);
          if (to != null && n.compareTo(to) >= 0 || !visit.test(n)) {
            return;
          }
        }
      }
    };
  }

  /** Makes the node of a name. */
  @FunctionalInterface
  interface BiLeaf {
    Node node(String name, List<String> canonical);
  }


  /** Growable {@code long}s, and a stable sort of names by them. */
  private static final class LongList {
    private long[] a = new long[16];
    private int n;

    void add(long v) {
      if (n == a.length) {
        a = java.util.Arrays.copyOf(a, n * 2);
      }
      a[n++] = v;
    }

    long get(int i) {
      return a[i];
    }

    void set(int i, long v) {
      a[i] = v;
    }

    /** {@code names} (one per value, same positions) ordered by the values. */
    List<String> sortedBy(List<String> names) {
      Integer[] idx = new Integer[n];
      for (int i = 0; i < n; i++) {
        idx[i] = i;
      }
      java.util.Arrays.sort(idx, (x, y) -> Long.compare(a[x], a[y]));
      List<String> out = new ArrayList<>(n + 4);
      for (Integer i : idx) {
        out.add(names.get(i));
      }
      return out;
    }
  }
}
