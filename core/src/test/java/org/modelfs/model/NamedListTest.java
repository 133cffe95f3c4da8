package org.modelfs.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** {@link NamedList} against a plain list doing the same changes, and what one change costs. */
class NamedListTest {
  record Item(String name, int value) {}

  private static final Function<Item, String> NAME = Item::name;

  /** The reference: the list a change would make by copying. */
  private static List<Item> with(List<Item> l, Item x) {
    List<Item> out = new ArrayList<>(l);
    for (int i = 0; i < out.size(); i++) {
      if (out.get(i).name().equals(x.name())) {
        out.set(i, x);
        return out;
      }
    }
    out.add(x);
    return out;
  }

  @Test
  void randomChangesMatchAPlainList() {
    Random rnd = new Random(7);
    for (int round = 0; round < 40; round++) {
      int n = rnd.nextInt(round < 20 ? 20 : 3000);
      List<Item> ref = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ref.add(new Item("n" + rnd.nextInt(4 * n + 1) + "/" + i, i));
      }
      NamedList<Item> nl = NamedList.of(ref, NAME);
      List<NamedList<Item>> versions = new ArrayList<>();
      List<List<Item>> refs = new ArrayList<>();
      for (int step = 0; step < 2500; step++) {
        final String name = rnd.nextBoolean() && !ref.isEmpty() ? ref.get(rnd.nextInt(ref.size())).name()
            : "n" + rnd.nextInt(4 * n + 10) + "/x";
        int op = rnd.nextInt(10);
        if (op < 5) {
          Item x = new Item(name, step);
          nl = nl.with(x);
          ref = with(ref, x);
        } else if (op < 8) {
          nl = nl.without(name);
          String gone = name;
          ref = new ArrayList<>(ref);
          ref.removeIf(i -> i.name().equals(gone));
        } else {
          String to = "r" + step;
          Item old = nl.byName(name);
          nl = nl.renamed(name, new Item(to, step));
          if (old != null) {
            List<Item> r = new ArrayList<>(ref);
            int at = step;
            r.replaceAll(i -> i.name().equals(name) ? new Item(to, at) : i);
            ref = r;
          }
        }
        if (step % 97 == 0) { // old versions stay as they were
          versions.add(nl);
          refs.add(ref);
        }
        assertEquals(ref.size(), nl.size());
        assertEquals(ref.stream().filter(i -> i.name().equals(name)).findFirst().orElse(null), nl.byName(name));
      }
      assertEquals(ref, List.copyOf(nl));
      for (int v = 0; v < versions.size(); v++) {
        assertEquals(refs.get(v), List.copyOf(versions.get(v)));
        checkRange(versions.get(v), refs.get(v), "n1", "n5");
      }
      checkRange(nl, ref, "", null);
      checkRange(nl, ref, "n2", "n3");
    }
  }

  private static void checkRange(NamedList<Item> nl, List<Item> ref, String from, String to) {
    TreeMap<String, Item> expected = new TreeMap<>();
    for (Item i : ref) {
      if (i.name().compareTo(from) >= 0 && (to == null || i.name().compareTo(to) < 0)) {
        expected.putIfAbsent(i.name(), i);
      }
    }
    List<String> seen = new ArrayList<>();
    nl.range(from, to, (name, item) -> {
      seen.add(name);
      assertEquals(expected.get(name), item);
      return true;
    });
    assertEquals(new ArrayList<>(expected.keySet()), seen);
  }

  @Test
  void orderFollowsTheListAndRenamesKeepThePlace() {
    NamedList<Item> nl = NamedList.of(List.of(new Item("b", 0), new Item("a", 1), new Item("c", 2)), NAME);
    nl = nl.renamed("a", new Item("z", 9)).with(new Item("d", 3));
    assertEquals(List.of("b", "z", "c", "d"), nl.stream().map(Item::name).toList());
    assertTrue(nl.order("z") < nl.order("c"));
    assertTrue(nl.order("c") < nl.order("d"));
    assertNull(nl.byName("a"));
    assertEquals(-1, nl.order("a"));
    nl = nl.without("z").with(new Item("a", 5)); // removed, then back: at the end
    assertEquals(List.of("b", "c", "d", "a"), nl.stream().map(Item::name).toList());
  }

  /**
   * One change of one name among a million allocates a few hundred bytes (the treap path), not a
   * copy of the list: measured as this thread's allocated bytes, which do not depend on timing.
   */
  @Test
  void oneChangeAllocatesLogarithmicMemory() {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 1_000_000; i++) {
      items.add(new Item("w" + i, i));
    }
    NamedList<Item> nl = NamedList.of(items, NAME);
    nl.byName("w1"); // warm
    ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = mx.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < 1000; i++) {
      nl = nl.with(new Item("new" + i, i)).with(new Item("w" + i, -i));
    }
    long perChange = (mx.getCurrentThreadAllocatedBytes() - before) / 2000;
    assertTrue(perChange < 4096, "bytes allocated per change: " + perChange);
    assertEquals(1_001_000, nl.size());
    assertEquals(-5, nl.byName("w5").value());
  }

  /**
   * Names whose {@code String.hashCode} all collide (blocks of "Aa"/"BB", which a file can bring)
   * get distinct salted hashes — the hash that picks their table slot and treap priority — so
   * they neither share a slot nor tie in priority (ties inserted in order would make the treap
   * a chain); and they are all found.
   */
  @Test
  void collidingHashCodesDoNotDegenerate() {
    List<Item> items = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 4096; i++) {
      StringBuilder sb = new StringBuilder();
      for (int b = 0; b < 12; b++) {
        sb.append((i >> b & 1) == 0 ? "Aa" : "BB");
      }
      names.add(sb.toString());
    }
    assertEquals(1, names.stream().map(String::hashCode).distinct().count(), "the names collide in String.hashCode");
    Set<Integer> salted = new HashSet<>();
    names.forEach(n -> salted.add(NamedList.hash(n)));
    assertTrue(salted.size() > 4000, "salted hashes: " + salted.size() + " distinct of 4096");
    NamedList<Item> nl = NamedList.of(items, NAME);
    for (int i = 0; i < names.size(); i++) { // sorted insertion: the worst order for ties
      nl = nl.with(new Item(names.get(i), i));
    }
    for (int i = 0; i < names.size(); i++) {
      assertEquals(i, nl.byName(names.get(i)).value());
    }
    NamedList<Item> base = NamedList.of(List.copyOf(nl), NAME);
    assertEquals(7, base.byName(names.get(7)).value());
  }

  /** A range visits each element with what order(name) says — after changes, and for a name two elements share. */
  @Test
  void rangeWithOrderGivesEachNamesOrder() {
    NamedList<Item> l = NamedList.of(List.of(new Item("b", 0), new Item("a", 1), new Item("b", 2), new Item("c", 3),
        new Item("d", 4)), NAME);
    l = l.with(new Item("a", 9)).without("c").with(new Item("e", 5)).renamed("d", new Item("aa", 4));
    List<String> seen = new ArrayList<>();
    NamedList<Item> list = l;
    list.rangeWithOrder("", null, (name, item, order) -> {
      assertEquals(list.order(name), order, name);
      seen.add(name);
      return true;
    });
    assertEquals(List.of("a", "aa", "b", "b", "e"), seen);
  }
}
