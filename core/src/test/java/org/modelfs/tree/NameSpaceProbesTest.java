package org.modelfs.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.modelfs.model.NamedList;

/**
 * What a walk costs in index lookups ({@link NameSpace.Names#has}): finding a file asks for its
 * own name only — its canonical path (which asks whether each directory prefix is a name) is
 * worked out only when someone wants it — and listing a directory of N names asks about the
 * shared directory prefixes once, not once per name.
 */
class NameSpaceProbesTest {
  /** The names {@code small/g<i/100>/p<i%100>}, counting every {@code has}. */
  private static final class Counting implements NameSpace.Names {
    final NamedList<String> list;
    int has;

    Counting(int n) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        names.add("small/g" + i / 100 + "/p" + i % 100);
      }
      list = NamedList.of(names, s -> s);
    }

    @Override
    public boolean has(String name) {
      has++;
      return list.containsName(name);
    }

    @Override
    public Node leaf(String name, Supplier<List<String>> canonical) {
      return new FileNode("t", BytesContent.of(new byte[0]), null);
    }

    @Override
    public void range(String from, String to, NameSpace.Visit visit) {
      list.rangeWithOrder(from, to, (n, v, o) -> visit.name(n, o));
    }
  }

  private static final List<String> BASE = List.of("tags", "t", "params");

  @Test
  void findingAFileAsksForItsNameOnlyUntilItsCanonicalPathIsWanted() {
    Counting names = new Counting(1_000);
    Dir area = NameSpace.root("t", "params", BASE, names, TagOverlay.NONE.kept("params"));
    ModelTree.Found f = area.find(() -> BASE, List.of("small", "g3", "p7"), 0);
    assertInstanceOf(FileNode.class, f.node());
    assertEquals(1, names.has, "index lookups to find one file");
    assertEquals(List.of("tags", "t", "params", "small", "g3", "p7"), f.canonical());
  }

  @Test
  void listingADirectoryAsksAboutItsPrefixesOnce() {
    Counting names = new Counting(1_000);
    Dir area = NameSpace.root("t", "params", BASE, names, TagOverlay.NONE.kept("params"));
    Dir g3 = (Dir) area.find(() -> BASE, List.of("small", "g3"), 0).node();
    names.has = 0;
    List<String> listed = g3.names();
    assertEquals(100, listed.size());
    assertEquals("p0", listed.get(0));
    assertEquals("p99", listed.get(99));
    assertTrue(names.has <= 4, names.has + " index lookups to list 100 names below one prefix");
    names.has = 0;
    assertEquals(List.of("small"), area.names());
    assertTrue(names.has <= 40, names.has + " index lookups to list the area of 1,000 names in 10 directories");
  }
}
