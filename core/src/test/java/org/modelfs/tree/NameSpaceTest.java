package org.modelfs.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.testing.BytesChannel;

/**
 * The tree worked out per lookup ({@link NameSpace}) keeps the layout of docs/FILESYSTEM.md §2
 * for any set of names, also after changes made through the index ({@code NamedList}) and with
 * kept directories: every name is found at its canonical segments and nowhere else in a walk;
 * every listed entry is found, with the canonical path it was listed at; directories exist
 * exactly where a name or a kept directory lies below them. Names are drawn to collide: shared
 * prefixes, a name that is a prefix of others, empty, {@code .} and {@code ..} parts, {@code %}.
 */
class NameSpaceTest {
  private static final String[] PARTS = {"a", "b", "c", "", ".", "..", "%", "a%2Fb", "x y", "é"};
  private static final ArrayData ARRAY = new ArrayData(DType.FLOAT, new long[] {1}, 'c', false,
      ChannelSource.of("m", new BytesChannel(new byte[4])), 0, 4, false, ArrayData.Storage.RAW);

  private static String randomName(Random rnd) {
    int n = 1 + rnd.nextInt(4);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append('/');
      }
      sb.append(PARTS[rnd.nextInt(rnd.nextInt(10) < 8 ? 3 : PARTS.length)]);
    }
    return sb.toString();
  }

  @Test
  void walkAndLookupAgreeForCollidingNames() {
    Random rnd = new Random(15);
    for (int round = 0; round < 3000; round++) {
      Set<String> names = new LinkedHashSet<>();
      int n = 1 + rnd.nextInt(round < 1500 ? 8 : 40);
      for (int i = 0; i < n; i++) {
        names.add(randomName(rnd));
      }
      List<Variable> vars = new ArrayList<>();
      for (String name : names) {
        vars.add(new Variable(name, VarKind.VARIABLE, DType.FLOAT, null, ARRAY, -1));
      }
      Tag tag = new Tag("t", null, vars, List.of(), null, Map.of());
      // some changes through the index, so that base and delta both hold names
      for (int i = 0; i < 3; i++) {
        String added = randomName(rnd);
        tag = new Tag("t", null, tag.vars().with(new Variable(added, VarKind.VARIABLE, DType.FLOAT, null, ARRAY, -1)),
            List.of(), null, Map.of());
        names.add(added);
      }
      String gone = names.iterator().next();
      tag = new Tag("t", null, tag.vars().without(gone), List.of(), null, Map.of());
      names.remove(gone);
      Set<String> kept = new HashSet<>();
      for (int i = 0; i < rnd.nextInt(3); i++) {
        kept.add(randomName(rnd));
      }
      TagOverlay overlay = TagOverlay.NONE.withKept(ModelTree.PARAMS, kept);
      check(ModelTree.of(List.of(tag), Map.of("t", overlay), "m"), ModelTree.PARAMS, names, kept,
          "round " + round + " " + names + " kept " + kept);
      // the same names as metadata keys (a map, not the index)
      Map<String, String> metadata = new TreeMap<>();
      names.forEach(k -> metadata.put(k, "v"));
      Tag meta = new Tag("t", null, List.of(), List.of(), null, metadata);
      check(ModelTree.of(List.of(meta), Map.of("t", TagOverlay.NONE.withKept(ModelTree.METADATA, kept)), "m"),
          ModelTree.METADATA, names, kept, "metadata, round " + round + " " + names + " kept " + kept);
    }
  }

  private static void check(ModelTree tree, String area, Set<String> names, Set<String> kept, String what) {
    List<String> base = List.of(ModelTree.TAGS, "t", area);
    Set<String> files = names;
    // every name at its canonical segments
    for (String name : names) {
      List<String> segs = NameMapping.segments(name, files);
      ModelTree.Found f = tree.lookup(Dir.append(base, segs));
      assertNotNull(f, what + ": " + name + " at " + segs);
      assertInstanceOf(FileNode.class, f.node(), what + ": " + name);
      assertEquals(Dir.append(base, segs), f.canonical(), what + ": " + name);
      // another spelling: every segment's '/' escaped, or split where canonical is one segment
      ModelTree.Found other = tree.lookup(Dir.append(base, List.of(NameMapping.oneSegment(name))));
      assertNotNull(other, what + ": one-segment spelling of " + name);
      assertEquals(f.canonical(), other.canonical(), what + ": one-segment spelling of " + name);
    }
    // the walk: each name once, each listed entry found where it was listed
    Map<String, Integer> seen = new HashMap<>();
    walk(tree, base, seen, what);
    for (String name : names) {
      assertEquals(1, seen.getOrDefault(name, 0), what + ": " + name + " seen " + seen);
    }
    assertEquals(names.size(), seen.size(), what + ": walked " + seen.keySet());
    // kept directories: there unless a file is in their place
    for (String k : kept) {
      List<String> segs = NameMapping.segments(k, files);
      ModelTree.Found f = tree.lookup(Dir.append(base, segs));
      if (names.contains(k)) {
        assertInstanceOf(FileNode.class, f.node(), what + ": kept " + k + " is a file");
      } else {
        assertNotNull(f, what + ": kept " + k + " at " + segs);
        assertInstanceOf(Dir.class, f.node(), what + ": kept " + k);
      }
    }
  }

  private static void walk(ModelTree tree, List<String> at, Map<String, Integer> seen, String what) {
    ModelTree.Found f = tree.lookup(at);
    assertNotNull(f, what + ": listed " + at);
    assertEquals(at, f.canonical(), what + ": listed at " + at);
    if (f.node() instanceof Dir d) {
      List<String> entries = d.names();
      assertEquals(entries.size(), new HashSet<>(entries).size(), what + ": duplicate entries in " + at);
      assertEquals(entries.isEmpty(), d.isEmpty(), what + ": isEmpty of " + at);
      for (String e : entries) {
        walk(tree, Dir.append(at, List.of(e)), seen, what);
      }
    } else {
      seen.merge(NameMapping.name(at.subList(3, at.size())), 1, Integer::sum);
    }
  }
}
