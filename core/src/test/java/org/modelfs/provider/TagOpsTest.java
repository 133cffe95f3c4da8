package org.modelfs.provider;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import org.modelfs.format.fb.GraphJsonException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.TreeTsv;

/**
 * Tags, links and the graph through the NIO API: create a tag, copy the graph into it, share
 * every parameter by {@code createLink}, rename and delete tags; the single-tag formats refuse
 * to commit more than one tag or a renamed one, and accept the result once it is one
 * {@code default} tag again.
 */
class TagOpsTest {
  @TempDir Path tmp;

  private Path sdnb() throws IOException {
    Path out = tmp.resolve("m.sdnb");
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      ModelFiles.write(m.newest(), out, WriteOptions.of(ModelFormat.SDNB));
    }
    return out;
  }

  @Test
  void aNewTagWithTheGraphAndLinkedParameters() throws Exception {
    Path model = sdnb();
    String original;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      original = TreeTsv.of(fs.getPath("/tags/default"));
      Files.createDirectory(fs.getPath("/tags/v2"));
      assertEquals(List.of("default", "v2"), names(fs.getPath("/tags")));
      assertEquals(List.of(), names(fs.getPath("/tags/v2")), "a new tag is empty");
      assertFalse(Files.exists(fs.getPath("/params")), "root aliases: the newest tag's entries");
      assertThrows(FileAlreadyExistsException.class, () -> Files.createDirectory(fs.getPath("/tags/V2")));
      assertThrows(FileSystemException.class, () -> Files.createDirectory(fs.getPath("/tags/-bad")));

      Files.copy(fs.getPath("/tags/default/graph"), fs.getPath("/tags/v2/graph"));
      assertFalse(Files.exists(fs.getPath("/tags/v2/graph.json")), "graph.json appears when it is written");
      Files.copy(fs.getPath("/tags/default/graph.json"), fs.getPath("/tags/v2/graph.json"));
      Files.createDirectory(fs.getPath("/tags/v2/metadata"));
      Files.createDirectory(fs.getPath("/tags/v2/updater"));
      assertTrue(Files.isSameFile(fs.getPath("/graph"), fs.getPath("/tags/v2/graph")), "root aliases: newest tag");
      try (Stream<Path> s = Files.walk(fs.getPath("/tags/default/params"))) {
        for (Path p : s.filter(Files::isRegularFile).toList()) {
          Path link = fs.getPath("/tags/v2/params").resolve(fs.getPath("/tags/default/params").relativize(p).toString());
          Files.createLink(link, p);
          assertTrue(Files.isSameFile(link, p));
          assertEquals(Files.getAttribute(p, "fileKey"), Files.getAttribute(link, "fileKey"));
        }
      }
      assertEquals(withoutUpdater(original), TreeTsv.of(fs.getPath("/tags/v2")), "same arrays, no updater state");
      IOException e = assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().contains("holds exactly one tag"), e.getMessage());

      Files.delete(fs.getPath("/tags/default"));
      Files.move(fs.getPath("/tags/v2"), fs.getPath("/tags/default"));
      assertEquals(List.of("default"), names(fs.getPath("/tags")));
      assertThrows(AccessDeniedException.class, () -> Files.delete(fs.getPath("/tags/default")));
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(withoutUpdater(original), TreeTsv.of(fs.getPath("/tags/default")));
      assertFalse(Files.exists(fs.getPath("/updater/layer0")), "the new tag was made without updater state");
    }
  }

  @Test
  void aRenamedSingleTagIsRefusedBySingleTagFormats() throws Exception {
    Path model = sdnb();
    byte[] before = Files.readAllBytes(model);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.move(fs.getPath("/tags/default"), fs.getPath("/tags/v1"));
      assertTrue(Files.exists(fs.getPath("/tags/V1/params/layer0/W")));
      IOException e = assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().contains("keeps no tag name"), e.getMessage());
      ((JournaledFileSystem) fs).rollback();
    }
    assertArrayEquals(before, Files.readAllBytes(model));
  }

  @Test
  void theGraphCanBeWrittenBack() throws Exception {
    Path model = sdnb();
    String original;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      original = TreeTsv.of(fs.getPath("/"));
      byte[] graph = Files.readAllBytes(fs.getPath("/graph"));
      Files.write(fs.getPath("/graph"), graph);
      assertEquals(original, TreeTsv.of(fs.getPath("/")));
      // not a graph: refused whole, naming what is missing (docs/GRAPH.md §3)
      GraphJsonException refused = assertThrows(GraphJsonException.class,
          () -> Files.writeString(fs.getPath("/graph.json"), "{}"));
      assertTrue(refused.getMessage().contains("graph.json variables: expected an array"), refused.getMessage());
      Files.write(fs.getPath("/graph.json"), Files.readAllBytes(fs.getPath("/graph.json"))); // its own rendering: fine
      assertThrows(IOException.class, () -> {
        Files.write(fs.getPath("/tags/default/graph"), new byte[] {1, 2, 3});
      });
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(original, TreeTsv.of(fs.getPath("/")));
    }
  }

  private static String withoutUpdater(String tsv) {
    StringBuilder sb = new StringBuilder();
    for (String line : tsv.split("\n")) {
      if (!line.startsWith("UPDATER")) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }
}
