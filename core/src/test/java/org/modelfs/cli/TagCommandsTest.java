package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.TreeTsv;

/** {@code tag list|add|rm|mv} and {@code extract}: output, results read back, exit codes. */
class TagCommandsTest {
  @TempDir Path tmp;

  @Test
  void tagsOfAnSdz() throws Exception {
    Path sdz = tmp.resolve("m.sdz");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), sdz.toString()).code());
    String m = sdz.toString();
    assertEquals("default\n", MainTest.run("tag", "list", m).out());
    MainTest.Result add = MainTest.run("tag", "add", m, "v2");
    assertEquals(0, add.code(), add.err());
    assertEquals(0, MainTest.run("tag", "add", m, "v3", "--from", "DEFAULT").code());
    assertEquals("default\nv2\nv3\n", MainTest.run("tag", "list", m).out());
    assertEquals(0, MainTest.run("tag", "mv", m, "v2", "best").code());
    assertEquals(0, MainTest.run("tag", "rm", m, "v3").code());
    assertEquals("default\nbest\n", MainTest.run("tag", "list", m).out());
    try (FileSystem fs = ModelFileSystems.open(sdz)) {
      assertEquals(TreeTsv.of(fs.getPath("/tags/default")), TreeTsv.of(fs.getPath("/tags/best")));
    }
    MainTest.Result bad = MainTest.run("tag", "add", m, "Best");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("unique ignoring case"), bad.err());
    assertEquals(2, MainTest.run("tag", "add", m, "-x").code());
    assertEquals(2, MainTest.run("tag", "rm", m, "nope").code());
    assertEquals(2, MainTest.run("tag", "list").code());
    assertEquals(2, MainTest.run("tag", "frob", m).code());

    Path out = tmp.resolve("best.fb");
    MainTest.Result ex = MainTest.run("extract", m, "BEST", out.toString());
    assertEquals(0, ex.code(), ex.err());
    try (Model x = Models.open(out)) {
      assertEquals(ModelTsv.read(Fixtures.expected(Fixtures.get("mlp_adam.fb"))), ModelTsv.of(x.newest()));
    }
  }

  @Test
  void singleTagFormatsRefuseASecondTagAndStayUnchanged() throws Exception {
    Path fb = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("m.fb"));
    byte[] before = Files.readAllBytes(fb);
    MainTest.Result r = MainTest.run("tag", "add", fb.toString(), "v2");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("holds exactly one tag"), r.err());
    assertArrayEquals(before, Files.readAllBytes(fb));
  }
}
