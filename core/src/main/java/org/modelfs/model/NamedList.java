package org.modelfs.model;

import java.security.SecureRandom;
import java.util.AbstractList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * An immutable list of named things (a tag's variables, its updater states) that also finds an
 * element by name and the names of a range in name order — and whose one-element changes cost
 * O(log D) time and memory, not a copy (docs/PERFORMANCE.md, "Edits in O(change)").
 *
 * <p>It is a compact <em>base</em> (the elements in list order, an open-addressing table of
 * their names, and — built on first use — their positions in name order: 12 bytes per element
 * beyond the elements themselves) shared by every later version, plus a <em>delta</em> of the
 * changes since the base: a persistent treap by name (path copying, O(log D) per change) whose
 * entries replace, remove or add an element. When the delta outgrows half the base (and 1,024
 * entries) the next change folds it into a new base, so a run of N changes costs O(N log N)
 * in all. The list view ({@link #get(int)}, iteration) is laid out once per version, on first
 * use, for the readers that walk every element (writers, validation); lookups by name never
 * need it.
 *
 * <p>When two elements have one name (only a broken file has that), {@link #byName} finds the
 * first and a change replaces the first.
 *
 * @param <T> the element type
 */
public final class NamedList<T> extends AbstractList<T> implements RandomAccess {
  /**
   * Per-JVM random salt of the name hash that places names in the table and gives treap nodes
   * their priorities: {@code String.hashCode} collisions are easy to make ("Aa" and "BB"), so a
   * file could otherwise bring names that all share a slot or a priority and turn lookups and
   * changes linear.
   */
  private static final int SALT = new SecureRandom().nextInt() | 1;
  private static final int MIN_FOLD = 1024;

  private final Base<T> base;
  /** Changes since the base, by name ({@code null} when there are none). */
  private final Delta<T> delta;
  private final int size;
  /** The next sequence number of an added element (base elements have their index). */
  private final long nextSeq;
  /** The list view, laid out on first use. */
  private volatile Object[] laidOut;

  private NamedList(Base<T> base, Delta<T> delta, int size, long nextSeq) {
    this.base = base;
    this.delta = delta;
    this.size = size;
    this.nextSeq = nextSeq;
  }

  /**
   * {@code elements} as a named list ({@code elements} itself when it already is one with the
   * same naming function).
   */
  @SuppressWarnings("unchecked")
  public static <T> NamedList<T> of(Collection<? extends T> elements, Function<? super T, String> name) {
    if (elements instanceof NamedList<?> n && n.base.name == name) {
      return (NamedList<T>) n;
    }
    Object[] items = elements.toArray();
    for (Object o : items) {
      Objects.requireNonNull(o, "element");
    }
    return new NamedList<>(new Base<>(items, (Function<Object, String>) name), null, items.length, items.length);
  }

  /** The element named {@code name}, or {@code null}. */
  public T byName(String name) {
    Delta<T> d = Delta.find(delta, name);
    if (d != null) {
      return d.value;
    }
    int i = base.indexOf(name);
    return i < 0 ? null : base.item(i);
  }

  /** Whether an element is named {@code name}. */
  public boolean containsName(String name) {
    return byName(name) != null;
  }

  /**
   * This list with {@code element} in place of the one of the same name, or added at the end
   * when there is none.
   */
  public NamedList<T> with(T element) {
    Objects.requireNonNull(element, "element");
    String name = base.name.apply(element);
    Delta<T> d = Delta.find(delta, name);
    if (d != null && d.value != null) {
      return next(Delta.put(delta, name, element, d.seq), size, nextSeq);
    }
    if (d != null) { // removed (or renamed away) in this delta: back at the end
      return next(Delta.put(delta, name, element, nextSeq), size + 1, nextSeq + 1);
    }
    int i = base.indexOf(name);
    if (i >= 0) {
      return next(Delta.put(delta, name, element, i), size, nextSeq);
    }
    return next(Delta.put(delta, name, element, nextSeq), size + 1, nextSeq + 1);
  }

  /** This list without the element named {@code name} (itself when there is none). */
  public NamedList<T> without(String name) {
    Delta<T> d = Delta.find(delta, name);
    if (d != null) {
      return d.value == null ? this : next(Delta.put(delta, name, null, d.seq), size - 1, nextSeq);
    }
    int i = base.indexOf(name);
    return i < 0 ? this : next(Delta.put(delta, name, null, i), size - 1, nextSeq);
  }

  /**
   * This list with the element named {@code from} replaced by {@code element} (named otherwise)
   * in its place; itself when there is no {@code from}. The new name must not be in use.
   */
  public NamedList<T> renamed(String from, T element) {
    long seq = order(from);
    if (seq < 0) {
      return this;
    }
    String to = base.name.apply(element);
    if (containsName(to)) {
      throw new IllegalArgumentException("name in use: " + to);
    }
    // the old name's entry and the new one share the sequence number: the new one takes its place
    return next(Delta.put(Delta.put(delta, from, null, seq), to, element, seq), size, nextSeq);
  }

  private NamedList<T> next(Delta<T> d, int newSize, long seq) {
    NamedList<T> n = new NamedList<>(base, d, newSize, seq);
    if (Delta.count(d) > Math.max(MIN_FOLD, base.items.length / 2)) {
      Object[] items = n.layout();
      return new NamedList<>(new Base<>(items, base.name), null, items.length, items.length);
    }
    return n;
  }

  /**
   * The position of {@code name} in list order, comparable between names of this version (the
   * base index, or after every base index for an added element), or -1 when there is none.
   */
  public long order(String name) {
    Delta<T> d = Delta.find(delta, name);
    if (d != null) {
      return d.value == null ? -1 : d.seq;
    }
    return base.indexOf(name);
  }

  /**
   * Visits the elements whose names lie in {@code [from, to)} ({@code to == null}: no upper
   * bound) in name order, while {@code visit} returns true.
   */
  public void range(String from, String to, BiPredicate<String, T> visit) {
    rangeWithOrder(from, to, (name, element, order) -> visit.test(name, element));
  }

  /** Visits one element of a range with its {@link #order}. */
  @FunctionalInterface
  public interface OrderedVisit<T> {
    /** Returns whether to go on. */
    boolean visit(String name, T element, long order);
  }

  /**
   * As {@link #range(String, String, BiPredicate)}, each element with what {@link #order} says
   * of its name — without looking the name up again.
   */
  public void rangeWithOrder(String from, String to, OrderedVisit<T> visit) {
    Delta.Cursor<T> changes = new Delta.Cursor<>(delta, from);
    int[] sorted = base.sorted();
    int i = base.lowerBound(from);
    Delta<T> dc = changes.next(to);
    while (true) {
      String bn = i < sorted.length ? base.nameAt(sorted[i]) : null;
      if (bn != null && to != null && bn.compareTo(to) >= 0) {
        bn = null;
      }
      if (bn == null && dc == null) {
        return;
      }
      int cmp = bn == null ? 1 : dc == null ? -1 : bn.compareTo(dc.name);
      if (cmp < 0) {
        // a second element of one name answers to the first one's order, as order(name) does
        long order = base.duplicates ? base.indexOf(bn) : sorted[i];
        if (!visit.visit(bn, base.item(sorted[i]), order)) {
          return;
        }
        i++;
      } else {
        if (dc.value != null && !visit.visit(dc.name, dc.value, dc.seq)) {
          return;
        }
        if (cmp == 0) {
          i++;
        }
        dc = changes.next(to);
      }
    }
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T get(int index) {
    Objects.checkIndex(index, size);
    return (T) layout()[index];
  }

  @Override
  public Object[] toArray() {
    return layout().clone();
  }

  /** The elements in list order: base order with the delta's replacements and removals, then the added ones. */
  private Object[] layout() {
    Object[] l = laidOut;
    if (l != null) {
      return l;
    }
    if (delta == null) {
      l = base.items;
    } else {
      List<Delta<T>> changes = new ArrayList<>();
      Delta.range(delta, "", null, changes);
      Object[] items = base.items.clone();
      List<Delta<T>> added = new ArrayList<>();
      for (Delta<T> d : changes) { // a base element with a change leaves its place (replaced, removed, renamed)
        int i = base.indexOf(d.name);
        if (i >= 0) {
          items[i] = Removed.INSTANCE;
        }
      }
      for (Delta<T> d : changes) { // then each live change takes its place: a base one's, or after them
        if (d.value != null && d.seq < items.length) {
          items[(int) d.seq] = d.value;
        } else if (d.value != null) {
          added.add(d);
        }
      }
      added.sort((a, b) -> Long.compare(a.seq, b.seq));
      l = new Object[size];
      int k = 0;
      for (Object o : items) {
        if (o != Removed.INSTANCE) {
          l[k++] = o;
        }
      }
      for (Delta<T> d : added) {
        l[k++] = d.value;
      }
    }
    laidOut = l;
    return l;
  }

  /** A salted hash of {@code s}'s characters (FNV-1a from a random basis, then a final mix). */
  static int hash(String s) {
    int h = SALT;
    for (int i = 0; i < s.length(); i++) {
      h = (h ^ s.charAt(i)) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    return h ^ (h >>> 16);
  }

  private enum Removed {
    INSTANCE
  }

  /** The shared, compact part: elements, a hash table of their names, their name order. */
  private static final class Base<T> {
    final Object[] items;
    final Function<Object, String> name;
    /** Open addressing: index + 1 of the first element with a name, 0 for an empty slot. */
    final int[] table;
    /** Whether two elements share a name (only a broken file has that). */
    final boolean duplicates;
    private volatile int[] sorted;

    Base(Object[] items, Function<Object, String> name) {
      this.items = items;
      this.name = name;
      int cap = Integer.highestOneBit(Math.max(4, items.length * 2 - 1)) << 1;
      this.table = new int[cap];
      boolean dup = false;
      for (int i = 0; i < items.length; i++) {
        String n = name.apply(items[i]);
        int slot = slot(n);
        while (table[slot] != 0) {
          if (nameAt(table[slot] - 1).equals(n)) {
            dup = true;
            break; // the first of two with one name stays the one found
          }
          slot = (slot + 1) & (table.length - 1);
        }
        if (table[slot] == 0) {
          table[slot] = i + 1;
        }
      }
      this.duplicates = dup;
    }

    private int slot(String n) {
      return hash(n) & (table.length - 1);
    }

    @SuppressWarnings("unchecked")
    T item(int i) {
      return (T) items[i];
    }

    String nameAt(int i) {
      return name.apply(items[i]);
    }

    int indexOf(String n) {
      int slot = slot(n);
      while (table[slot] != 0) {
        int i = table[slot] - 1;
        if (nameAt(i).equals(n)) {
          return i;
        }
        slot = (slot + 1) & (table.length - 1);
      }
      return -1;
    }

    /** The element indices in name order (built on first use). */
    int[] sorted() {
      int[] s = sorted;
      if (s == null) {
        s = new int[items.length];
        for (int i = 0; i < s.length; i++) {
          s[i] = i;
        }
        mergeSort(s, new int[s.length], 0, s.length);
        sorted = s;
      }
      return s;
    }

    /** Sorts {@code a[from, to)} (element indices) by name, stably, using {@code tmp}. */
    private void mergeSort(int[] a, int[] tmp, int from, int to) {
      if (to - from < 2) {
        return;
      }
      int mid = (from + to) >>> 1;
      mergeSort(a, tmp, from, mid);
      mergeSort(a, tmp, mid, to);
      if (nameAt(a[mid - 1]).compareTo(nameAt(a[mid])) <= 0) {
        return;
      }
      System.arraycopy(a, from, tmp, from, to - from);
      int i = from;
      int j = mid;
      for (int k = from; k < to; k++) {
        a[k] = j >= to || i < mid && nameAt(tmp[i]).compareTo(nameAt(tmp[j])) <= 0 ? tmp[i++] : tmp[j++];
      }
    }

    /** The first position in {@link #sorted} whose name is not below {@code from}. */
    int lowerBound(String from) {
      int[] s = sorted();
      int lo = 0;
      int hi = s.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (nameAt(s[mid]).compareTo(from) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  }

  /**
   * A persistent treap node: one change by name ({@code value == null}: removed), with the
   * element's sequence number. Never modified after construction; a change copies its path.
   */
  private static final class Delta<T> {
    final String name;
    final T value;
    final long seq;
    final int priority;
    final Delta<T> left;
    final Delta<T> right;
    final int count;

    Delta(String name, T value, long seq, Delta<T> left, Delta<T> right) {
      this(name, value, seq, priority(name), left, right);
    }

    private Delta(String name, T value, long seq, int priority, Delta<T> left, Delta<T> right) {
      this.name = name;
      this.value = value;
      this.seq = seq;
      this.priority = priority;
      this.left = left;
      this.right = right;
      this.count = 1 + count(left) + count(right);
    }

    private static int priority(String name) {
      int h = hash(name) * 0x85EBCA6B;
      return h ^ (h >>> 13);
    }

    static int count(Delta<?> d) {
      return d == null ? 0 : d.count;
    }

    static <T> Delta<T> find(Delta<T> d, String name) {
      while (d != null) {
        int c = name.compareTo(d.name);
        if (c == 0) {
          return d;
        }
        d = c < 0 ? d.left : d.right;
      }
      return null;
    }

    static <T> Delta<T> put(Delta<T> d, String name, T value, long seq) {
      if (d == null) {
        return new Delta<>(name, value, seq, null, null);
      }
      int c = name.compareTo(d.name);
      if (c == 0) {
        return new Delta<>(name, value, seq, d.priority, d.left, d.right);
      }
      if (c < 0) {
        Delta<T> l = put(d.left, name, value, seq);
        if (l.priority > d.priority) { // rotate right
          return new Delta<>(l.name, l.value, l.seq, l.priority, l.left,
              new Delta<>(d.name, d.value, d.seq, d.priority, l.right, d.right));
        }
        return new Delta<>(d.name, d.value, d.seq, d.priority, l, d.right);
      }
      Delta<T> r = put(d.right, name, value, seq);
      if (r.priority > d.priority) { // rotate left
        return new Delta<>(r.name, r.value, r.seq, r.priority,
            new Delta<>(d.name, d.value, d.seq, d.priority, d.left, r.left), r.right);
      }
      return new Delta<>(d.name, d.value, d.seq, d.priority, d.left, r);
    }

    /** The nodes from a lower bound on, in name order, one at a time: O(log n) to start, O(1) amortised per step. */
    static final class Cursor<T> {
      private final ArrayDeque<Delta<T>> stack = new ArrayDeque<>();

      Cursor(Delta<T> root, String from) {
        Delta<T> d = root;
        while (d != null) {
          if (d.name.compareTo(from) >= 0) {
            stack.push(d);
            d = d.left;
          } else {
            d = d.right;
          }
        }
      }

      /** The next node below {@code to} ({@code null}: unbounded), or {@code null}. */
      Delta<T> next(String to) {
        if (stack.isEmpty()) {
          return null;
        }
        Delta<T> d = stack.pop();
        if (to != null && d.name.compareTo(to) >= 0) {
          stack.clear();
          return null;
        }
        for (Delta<T> r = d.right; r != null; r = r.left) {
          stack.push(r);
        }
        return d;
      }
    }

    /** Appends the nodes with names in {@code [from, to)} in name order. */
    static <T> void range(Delta<T> d, String from, String to, List<Delta<T>> out) {
      if (d == null) {
        return;
      }
      boolean aboveFrom = d.name.compareTo(from) >= 0;
      boolean belowTo = to == null || d.name.compareTo(to) < 0;
      if (aboveFrom) {
        range(d.left, from, to, out);
      }
      if (aboveFrom && belowTo) {
        out.add(d);
      }
      if (belowTo) {
        range(d.right, from, to, out);
      }
    }
  }
}
