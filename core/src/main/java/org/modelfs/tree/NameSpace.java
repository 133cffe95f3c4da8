package org.modelfs.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.model.NamedList;
import java.util.function.Predicate;
import java.util.function.Supplier;

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
    Node leaf(String name, Supplier<List<String>> canonical);

    /**
     * {@link #leaf} of {@code name} if it is a name, else {@code null}: what a lookup asks, in
     * one probe of the index where the index allows (one hash of the name, not two).
     */
    default Node leafIfName(String name, Supplier<List<String>> canonical) {
      return has(name) ? leaf(name, canonical) : null;
    }

    /**
     * Visits the names in {@code [from, to)} ({@code to == null}: unbounded) in name order, each
     * with where it comes in listings (smaller first), while {@code visit} says so.
     */
    void range(String from, String to, Visit visit);
  }

  /** One name of a range, with its place in listings. */
  @FunctionalInterface
  interface Visit {
    /** Returns whether to go on. */
    boolean name(String name, long order);
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
    this.isName = new Memo(names);
  }

  /**
   * {@link Names#has} remembered for the last name asked at each depth (number of {@code /}):
   * a walk or a listing asks again and again whether the same directory prefixes ({@code a},
   * {@code a/b}) are names, for every name below them, and names come in order, so the last
   * prefix of each depth is the one asked next. Exact: a tree never changes, so neither does an
   * answer. Slots are written racily on purpose — each holds an immutable entry, so a reader
   * sees some complete answer or none.
   */
  private static final class Memo implements Predicate<String> {
    private record Entry(String name, boolean is) {}

    private final Names names;
    private final Entry[] slots = new Entry[16];

    Memo(Names names) {
      this.names = names;
    }

    @Override
    public boolean test(String name) {
      int depth = 0;
      for (int i = name.indexOf('/'); i >= 0 && depth < slots.length - 1; i = name.indexOf('/', i + 1)) {
        depth++;
      }
      Entry e = slots[depth];
      if (e != null && e.name.equals(name)) {
        return e.is;
      }
      boolean is = names.has(name);
      slots[depth] = new Entry(name, is);
      return is;
    }
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

  private List<String> segments(String d) {
    return NameMapping.segments(d, isName);
  }

  /** Whether a directory lives at decoded prefix {@code p} (not a name itself). */
  private boolean isDir(String p) {
    boolean[] found = {false};
    names.range(p + "/", p + "0", (n, o) -> {
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
      Visit visit = (n, o) -> {
        // segment `depth` of the name's canonical segments, and whether it is the last one
        String seg;
        boolean last;
        if (!NameMapping.splittable(n, isName)) {
          if (depth > 0) {
            return true; // laid out at the area's top
          }
          seg = NameMapping.oneSegment(n);
          last = true;
        } else { // n lies below prefix + "/": it has more than `depth` parts
          int start = 0;
          for (int k = 0; k < depth; k++) {
            start = n.indexOf('/', start) + 1;
          }
          int end = n.indexOf('/', start);
          last = end < 0;
          seg = NameMapping.part(n.substring(start, last ? n.length() : end));
        }
        if (last) {
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
      Set<String> shown = new HashSet<>(dirAt.keySet());
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
    public boolean impliedByNames() {
      if (top || kept.containsName(prefix) || names.has(prefix)) {
        return false;
      }
      // a directory made or kept below it stays a directory: a file here would lay it out as one
      // segment, where files written into it would not be listed
      boolean[] keptBelow = {false};
      kept.range(prefix + "/", prefix + "0", (k, x) -> !(keptBelow[0] = true));
      return !keptBelow[0];
    }

    @Override
    public boolean isEmpty() {
      if (top) {
        boolean[] any = {false};
        names.range("", null, (n, o) -> {
          any[0] = true;
          return false;
        });
        return !any[0] && kept.isEmpty();
      }
      boolean[] any = {false};
      names.range(prefix + "/", prefix + "0", (n, o) -> !(any[0] = NameMapping.splittable(n, isName)));
      if (!any[0]) {
        kept.range(prefix + "/", prefix + "0", (k, x) -> !(any[0] = NameMapping.splittable(k, isName)));
      }
      return !any[0];
    }

    @Override
    public ModelTree.Found find(Supplier<List<String>> canonical, List<String> segs, int i) {
      // the decoded names segs[i..j) stand for, below the prefix: one string, cut at each end
      StringBuilder joined = new StringBuilder(top ? "" : prefix + "/");
      int[] ends = new int[segs.size() - i];
      for (int j = i; j < segs.size(); j++) {
        if (j > i) {
          joined.append('/');
        }
        joined.append(NameMapping.decode(segs.get(j)));
        ends[j - i] = joined.length();
      }
      String all = joined.toString();
      for (int j = segs.size(); j > i; j--) { // the longest name first
        int end = ends[j - i - 1];
        String d = end == all.length() ? all : all.substring(0, end);
        Supplier<List<String>> at = () -> Dir.append(base, segments(d));
        Node n = names.leafIfName(d, at);
        if (n == null) {
          if (!isDir(d)) {
            continue;
          }
          n = dir(d);
        }
        if (j == segs.size()) {
          return new ModelTree.Found(n, at);
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
      public Node leaf(String name, Supplier<List<String>> canonical) {
        return leaf.node(name, canonical);
      }

      @Override
      public void range(String from, String to, Visit visit) {
        List<String> s;
        Map<String, Long> o;
        synchronized (this) {
          index();
          s = sorted;
          o = order;
        }
        int i = Collections.binarySearch(s, from);
        for (i = i < 0 ? -i - 1 : i; i < s.size(); i++) {
          String n = s.get(i);
          if (to != null && n.compareTo(to) >= 0 || !visit.name(n, o.get(n))) {
            return;
          }
        }
      }
    };
  }

  /** Makes the node of a name. */
  @FunctionalInterface
  interface BiLeaf {
    Node node(String name, Supplier<List<String>> canonical);
  }


  /** Growable {@code long}s, and a stable sort of names by them. */
  private static final class LongList {
    private long[] a = new long[16];
    private int n;

    void add(long v) {
      if (n == a.length) {
        a = Arrays.copyOf(a, n * 2);
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
      Arrays.sort(idx, (x, y) -> Long.compare(a[x], a[y]));
      List<String> out = new ArrayList<>(n + 4);
      for (Integer i : idx) {
        out.add(names.get(i));
      }
      return out;
    }
  }
}
