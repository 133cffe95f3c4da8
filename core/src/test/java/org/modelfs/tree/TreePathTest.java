package org.modelfs.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.modelfs.tree.TreePath.Area;

/**
 * What a tree path means, parsed once (docs/FILESYSTEM.md §1, §2): the tag, the area, the names
 * below it, the root aliases; and the spelling messages use, which parses back to the same name
 * for any name beside any other names (a property over names drawn to collide, as
 * {@code NameSpaceTest}'s).
 */
class TreePathTest {
  private static List<String> split(String path) {
    List<String> out = new ArrayList<>(Arrays.asList(path.split("/")));
    out.removeIf(String::isEmpty);
    return out;
  }

  @Test
  void theTagTheAreaAndTheNamesBelowIt() {
    TreePath p = TreePath.parse(split("/tags/t/updater/a/b%2Fc/M"), "newest");
    assertEquals("t", p.tag());
    assertEquals(Area.UPDATER, p.area());
    assertTrue(p.inTag() && p.inNamedArea() && !p.isTag() && !p.isArea());
    assertEquals(List.of("a", "b%2Fc", "M"), p.below());
    assertEquals("a/b/c/M", p.name());
    assertArrayEquals(new String[] {"a/b/c", "M"}, p.nameAndKey());
    assertEquals(List.of("a", "a/b/c"), p.parents());
    assertEquals("/tags/t/updater/a/b%2Fc/M", p.toString());
  }

  @Test
  void theRootAliasesAreTheNewestTagsAndOtherPathsNameNoArea() {
    TreePath alias = TreePath.parse(split("/params/W"), "v2");
    assertEquals("v2", alias.tag());
    assertEquals(Area.PARAM, alias.area());
    assertEquals("W", alias.name());
    assertNull(TreePath.parse(split("/params/W"), null).tag(), "without tags an alias names nothing");
    assertTrue(TreePath.parse(split("/tags/t"), null).isTag());
    assertTrue(TreePath.parse(split("/tags/t/graph.json"), null).isArea());
    assertEquals(Area.GRAPH_JSON, TreePath.parse(split("/tags/t/graph.json"), null).area());
    assertNull(TreePath.parse(split("/tags/t/other"), null).area());
    assertNull(TreePath.parse(split("/tags"), null).tag());
    assertNull(TreePath.parse(List.of(), null).tag());
    assertFalse(TreePath.parse(split("/tags/t/graph"), null).inNamedArea());
  }

  @Test
  void namesBelowADirectory() {
    assertEquals("", TreePath.nameBelow(List.of("a", "b"), List.of("a", "b")));
    assertEquals("c/d", TreePath.nameBelow(List.of("a", "c", "d"), List.of("a")));
    assertNull(TreePath.nameBelow(List.of("ab"), List.of("a")));
    assertTrue(TreePath.strictlyBelow(List.of("a", "b"), List.of("a")));
    assertFalse(TreePath.strictlyBelow(List.of("a"), List.of("a")));
  }

  @Test
  void aSpelledPathParsesBackToItsName() {
    String[] parts = {"a", "b", "", ".", "..", "%", "a%2Fb", "x y", "é", "%25"};
    Random rnd = new Random(33);
    for (int round = 0; round < 300; round++) {
      Set<String> names = new HashSet<>();
      for (int i = 0; i < 8; i++) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0, n = 1 + rnd.nextInt(3); k < n; k++) {
          sb.append(k > 0 ? "/" : "").append(parts[rnd.nextInt(parts.length)]);
        }
        names.add(sb.toString());
      }
      for (String name : names) {
        for (Area area : List.of(Area.PARAM, Area.METADATA)) {
          String spelled = TreePath.of("t", area, name, names::contains);
          TreePath back = TreePath.parse(split(spelled), null);
          assertEquals("t", back.tag(), spelled);
          assertEquals(area, back.area(), spelled);
          assertEquals(name, back.name(), spelled);
          assertEquals(NameMapping.segments(name, names::contains), back.below(), spelled);
        }
      }
    }
  }
}
