package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.RecursiveCopy;
import org.modelfs.testing.TreeTsv;

/**
 * The script scenario of issue 5 through {@code Files.*} only: clone tag {@code default} of a
 * DL4J-saved model to {@code v2} by a generic recursive copy, change one parameter in
 * {@code v2}, commit as SDZ; the reopened model has both tags in order, the root aliases show
 * {@code v2}, and the SDZ's {@code model.sdnb} (what DL4J loads) is {@code v2}.
 */
class MultiTagSdzTest {
  @TempDir Path tmp;

  @Test
  void cloneATagByRecursiveCopyAndCommitAsSdz() throws Exception {
    Path model = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("mlp.sdz")); // fb bytes, committed as the SDZ its name says
    String original = TreeTsv.arraysOnly(ModelTsv.read(Fixtures.expected(Fixtures.get("mlp_adam.fb"))));
    byte[] newW = new byte[128];
    for (int i = 0; i < newW.length; i++) {
      newW[i] = (byte) i;
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("format", "sdz"))) {
      RecursiveCopy.copyTree(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
      assertEquals(original, TreeTsv.of(fs.getPath("/tags/v2")), "a complete clone");
      Files.write(fs.getPath("/tags/v2/params/layer0/W"), newW);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(List.of("default", "v2"), list(fs.getPath("/tags")));
      assertEquals(original, TreeTsv.of(fs.getPath("/tags/default")));
      assertArrayEquals(newW, Files.readAllBytes(fs.getPath("/params/layer0/W")), "root aliases show v2");
      assertEquals(without(original, "layer0/W"), without(TreeTsv.of(fs.getPath("/tags/v2")), "layer0/W"));
      assertFalse(Arrays.equals(newW, Files.readAllBytes(fs.getPath("/tags/default/params/layer0/W"))));
    }
    try (ZipFile zf = ZipFile.builder().setPath(model).get()) {
      assertTrue(zf.getEntry("model.sdnb") != null && zf.getEntry("tag.default") != null
          && zf.getEntry("tags.txt") != null, "layout");
    }
    // what DL4J's SDZ loader takes: model.sdnb alone is tag v2
    Path only = tmp.resolve("newest.sdnb");
    try (ZipFile zf = ZipFile.builder().setPath(model).get();
        var in = zf.getInputStream(zf.getEntry("model.sdnb"))) {
      Files.copy(in, only);
    }
    try (Model m = Models.open(only)) {
      assertEquals(without(original, "layer0/W"), without(ModelTsv.of(m.newest()).lines()
          .filter(l -> !l.contains("\t-\t")).map(l -> l + "\n").reduce("", String::concat), "layer0/W"));
    }
  }

  private static String without(String tsv, String name) {
    StringBuilder sb = new StringBuilder();
    for (String line : tsv.split("\n")) {
      if (!line.split("\t")[1].equals(name)) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  private static List<String> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }
}
