package org.modelfs.cli;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;

/** The file-system commands {@code tree}, {@code ls}, {@code cat}: output and exit codes. */
class FsCommandsTest {
  @TempDir Path tmp;
  private final String model = Fixtures.get("mlp_adam.fb").toString();

  @Test
  void treeShowsTagsArraysAndTheRootAliases() {
    MainTest.Result r = MainTest.run("tree", model);
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("/\n├── tags/\n│   └── default/\n"), r.out());
    assertTrue(r.out().contains("│       │   │   ├── W  128 B  VARIABLE FLOAT [4, 8] c big-endian\n"), r.out());
    assertTrue(r.out().contains("├── params/  → /tags/default/params\n"), r.out());
    assertTrue(r.out().endsWith("└── metadata/  → /tags/default/metadata\n"), r.out());
  }

  @Test
  void treeOfASubdirectoryStartsThere() {
    MainTest.Result r = MainTest.run("tree", model, "tags/DEFAULT/updater/layer0");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        /tags/default/updater/layer0
        ├── b/
        │   ├── V  32 B  UPDATER FLOAT [1, 8] c big-endian
        │   └── M  32 B  UPDATER FLOAT [1, 8] c big-endian
        └── W/
            ├── V  128 B  UPDATER FLOAT [4, 8] c big-endian
            └── M  128 B  UPDATER FLOAT [4, 8] c big-endian
        """, r.out());
  }

  @Test
  void lsListsADirectoryOrDescribesAFile() throws Exception {
    Path sdnb = tmp.resolve("m.sdnb");
    try (Model m = Models.open(Path.of(model))) {
      ModelFiles.write(m.newest(), sdnb, WriteOptions.of(ModelFormat.SDNB));
    }
    MainTest.Result r = MainTest.run("ls", sdnb.toString(), "/params/layer0");
    assertEquals(0, r.code(), r.err());
    assertEquals("W  128 B  VARIABLE FLOAT [4, 8] c raw\nb  32 B  VARIABLE FLOAT [1, 8] c raw\n", r.out());
    MainTest.Result f = MainTest.run("ls", sdnb.toString(), "metadata/nd4j.format.type");
    assertTrue(f.out().startsWith("nd4j.format.type  "), f.out());
  }

  @Test
  void catWritesTheRawBytes() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"cat", model, "/tags/default/params/layer0/W"},
        new PrintStream(out), new PrintStream(new ByteArrayOutputStream()));
    assertEquals(0, code);
    try (FileSystem fs = ModelFileSystems.open(Path.of(model))) {
      assertArrayEquals(Files.readAllBytes(fs.getPath("/params/layer0/W")), out.toByteArray());
    }
    MainTest.Result json = MainTest.run("cat", model, "graph.json");
    assertTrue(json.out().startsWith("{"), json.out());
    assertTrue(new String(json.out().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).contains("\"ops\""));
  }

  @Test
  void failuresAndUsage() {
    assertEquals(2, MainTest.run("cat", model, "/params/nope").code());
    assertEquals(2, MainTest.run("cat", model, "/params").code());
    assertEquals(2, MainTest.run("ls", model, "/nope").code());
    assertEquals(2, MainTest.run("tree", tmp.resolve("missing.fb").toString()).code());
    assertEquals(0, MainTest.run("ls", model).code(), "ls MODEL lists /, as tree does");
    assertEquals(2, MainTest.run("tree").code());
    assertEquals(2, MainTest.run("cat", model, "a", "b").code());
  }
}
