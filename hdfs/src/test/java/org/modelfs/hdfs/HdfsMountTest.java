package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.VersionedModel;

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
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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

  /** The JDK's own entry points: {@code samediff:hdfs://…!/} mounts, and the provider's own file system by URI. */
  @Test
  void theSamediffUriFormAndTheProvidersFileSystem() throws Exception {
    HdfsTestCluster.upload(FIXTURES.resolve("mlp_adam.fb"), "/uri/m.fb");
    URI mount = URI.create("samediff:" + HdfsTestCluster.uri("/uri/m.fb") + "!/");
    try (FileSystem fs = FileSystems.newFileSystem(mount, Map.of("readOnly", "true"))) {
      assertArrayEquals(w(FIXTURES.resolve("mlp_adam.fb")), Files.readAllBytes(fs.getPath("/params/layer0/W")));
    }
    Path file = HdfsTestCluster.path("/uri/m.fb");
    assertSame(file.getFileSystem(), FileSystems.getFileSystem(HdfsTestCluster.uri("/")));
    assertEquals(Files.size(FIXTURES.resolve("mlp_adam.fb")), Files.size(file));
    assertTrue(Files.isDirectory(file.getParent()));
    try (var list = Files.list(file.getParent())) {
      assertEquals(List.of(file), list.toList());
    }
    assertArrayEquals(Files.readAllBytes(FIXTURES.resolve("mlp_adam.fb")), Files.readAllBytes(file));
  }

  /** A plain DL4J shard set is mounted by its base name and by a shard's name. */
  @Test
  void aPlainShardSetMountsByBaseAndShardName() throws Exception {
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 6, 16 * 1024, 40 * 1024);
    int shards = 0;
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("m\\.shard\\d+-of-\\d+\\.sdnb")) {
          HdfsTestCluster.upload(p, "/plain/" + p.getFileName());
          shards++;
        }
      }
    }
    assertTrue(shards > 1, "a shard set");
    for (String name : List.of("m.sdnb", "m.shard0-of-" + shards + ".sdnb")) {
      try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path("/plain/" + name), Map.of("readOnly", "true"))) {
        assertEquals(0, VersionedModel.version(fs), name);
      }
    }
  }
}
