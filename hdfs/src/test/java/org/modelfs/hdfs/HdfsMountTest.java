package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * A DL4J-written model in a real HDFS (MiniDFSCluster), mounted by its {@code hdfs://} path as a
 * library user does: the tree and bytes equal the local mount's; an edit commits (one file, atomic
 * rename) and reads back; nothing but the model is left beside it.
 */
class HdfsMountTest {
  static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));
  @TempDir Path tmp;

  private static byte[] w(Path model) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
  }

  @Test
  void aFixtureMountsAndReadsAsLocally() throws Exception {
    HdfsTestCluster.upload(FIXTURES.resolve("mlp_adam.fb"), "/read/mlp_adam.fb");
    Path model = HdfsTestCluster.path("/read/mlp_adam.fb");
    assertEquals("hdfs://localhost:" + HdfsTestCluster.port() + "/read/mlp_adam.fb", model.toUri().toString());
    assertArrayEquals(w(FIXTURES.resolve("mlp_adam.fb")), w(model));
    try (FileSystem local = ModelFileSystems.open(FIXTURES.resolve("mlp_adam.fb"), Map.of("readOnly", "true"));
        FileSystem remote = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      List<String> a;
      List<String> b;
      try (var s = Files.walk(local.getPath("/"))) {
        a = s.map(p -> p + " " + size(p)).sorted().toList();
      }
      try (var s = Files.walk(remote.getPath("/"))) {
        b = s.map(p -> p + " " + size(p)).sorted().toList();
      }
      assertEquals(a, b);
    }
  }

  private static long size(Path p) {
    try {
      return Files.isDirectory(p) ? -1 : Files.size(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void anEditCommitsAndReadsBackAndLeavesOnlyTheModel() throws Exception {
    HdfsTestCluster.upload(FIXTURES.resolve("mlp_adam.fb"), "/edit/m.fb");
    Path model = HdfsTestCluster.path("/edit/m.fb");
    byte[] zeros = new byte[w(model).length];
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.write(fs.getPath("/params/layer0/W"), zeros);
    }
    assertArrayEquals(zeros, w(model));
    assertEquals(List.of("m.fb"), HdfsTestCluster.names("/edit"), "no lock, temporary or record left");
    Path local = Files.write(tmp.resolve("m.fb"), HdfsTestCluster.bytes("/edit/m.fb"));
    assertArrayEquals(zeros, w(local), "the committed file is a model the local reader takes");
  }
}
