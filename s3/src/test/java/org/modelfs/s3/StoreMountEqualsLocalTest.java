package org.modelfs.s3;

import static org.modelfs.testing.SameTree.assertSameModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.store.ModelFiles;
import org.modelfs.store.ShardPointer;
import org.modelfs.testing.StoreModels;

/**
 * Every format mounted from the object store shows exactly what the same model shows mounted
 * from a local file: the same paths, attributes and bytes (docs/OBJECT-STORES.md "Reads").
 */
class StoreMountEqualsLocalTest {
  static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));
  /** Small enough that mlp_adam (7 KB) makes several shards. */
  static final long SHARD_BYTES = 2_000;

  static S3TestServer s3;
  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3TestServer.start();
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }


  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#fbFixtures")
  void everyFbFixture(String fixture) throws Exception {
    Path local = FIXTURES.resolve(fixture);
    String key = "fb/" + fixture;
    s3.upload(local, key);
    assertSameModel(local, s3.path(key));
  }

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdz-stored", "sdz-deflated", "zip-tags", "container-stored", "container-deflated"})
  void modelsMadeFromMlpAdam(String format) throws Exception {
    WriteOptions options = TestModels.options(format);
    String name = "m." + (format.equals("sdnb") ? "sdnb" : format.equals("zip-tags") ? "zip"
        : format.startsWith("container") ? "sdmc" : "sdz");
    Path local = tmp.resolve(name);
    List<Path> files = format.equals("zip-tags") || format.startsWith("container") ? writeSeveralTags(local, options)
        : writeMlpAdam(local, options);
    assertEquals(List.of(local), files);
    String key = format + "/" + name;
    s3.upload(local, key);
    assertSameModel(local, s3.path(key));
  }

  /** Every kind of {@link StoreModels}: the odd shapes (no parameters, 0-element arrays, 10,000 parameters) too. */
  /** A sharded container by its base name: refused saying what its shards are (before: "no shards of this base name"). */
  @org.junit.jupiter.api.Test
  void aShardedContainerIsRefusedByName() throws Exception {
    StoreModels.assertShardedContainerRefused(tmp.resolve("sdmc"), "sdmc/", s3::upload, s3::path);
  }

  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#kinds")
  void everyStoreModel(String kind) throws Exception {
    StoreModels.assertStoredAsLocal(tmp.resolve(kind), kind, "kinds/" + kind + "/", s3::upload, s3::path);
  }

  /** The CLI's reading commands on every kind print and write what they do on the local file. */
  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#kinds")
  void theCliOnEveryStoreModel(String kind) throws Exception {
    StoreModels.Written m = StoreModels.put(tmp.resolve(kind), kind, "cli/" + kind + "/", s3::upload);
    org.modelfs.testing.StoreCli.assertSameAsLocal(m.model(), s3.uri("cli/" + kind + "/" + m.name()).toString(), tmp);
  }

  @Test
  void plainDl4jShardSetByBaseAndByShardName() throws Exception {
    Path local = tmp.resolve("m.sdnb");
    List<Path> shards = writeMlpAdam(local, WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(SHARD_BYTES));
    assertTrue(shards.size() >= 3, "several shards: " + shards);
    for (Path shard : shards) {
      s3.upload(shard, "plain/" + shard.getFileName());
    }
    assertEquals(ShardNames.name("m", 0, shards.size()), shards.get(0).getFileName().toString());
    assertSameModel(shards.get(0), s3.path("plain/m.sdnb"));
    assertSameModel(shards.get(0), s3.path("plain/" + shards.get(0).getFileName()));
    assertSameModel(shards.get(0), s3.path("plain/" + shards.get(shards.size() - 1).getFileName()));
  }

  @Test
  void shardSetCommittedByModelFiles() throws Exception {
    Path remote = s3.path("committed/m.sdnb");
    writeMlpAdam(remote, WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(SHARD_BYTES));
    assertSameModel(downloadCommittedShardSet("committed/"), remote);
  }

  @Test
  void shardSetCommittedThroughAMount() throws Exception {
    Path local = tmp.resolve("m.sdnb");
    writeMlpAdam(local, WriteOptions.of(ModelFormat.SDNB));
    s3.upload(local, "mounted/m.sdnb");
    Path remote = s3.path("mounted/m.sdnb");
    try (FileSystem fs = ModelFileSystems.open(remote, Map.of("format", "sdnb-sharded", "maxShardBytes",
        SHARD_BYTES))) {
      // a change to commit: the parameter's own bytes written again
      Files.write(fs.getPath("/params/layer0/W"), Files.readAllBytes(fs.getPath("/params/layer0/W")));
    }
    Path downloaded = downloadCommittedShardSet("mounted/");
    assertSameModel(downloaded, remote);
    assertSameModel(local, downloaded.resolveSibling("m.sdnb"));
  }

  /**
   * Checks that {@code dir}'s model object is a shard pointer naming several shards of one
   * generation directory, and downloads those shards into a local directory of their own;
   * returns the local shard 0.
   */
  private Path downloadCommittedShardSet(String dir) throws IOException {
    List<String> keys = s3.keys().stream().filter(k -> k.startsWith(dir)).toList();
    byte[] pointer = s3.bytes(dir + "m.sdnb");
    assertTrue(new String(pointer, StandardCharsets.UTF_8).startsWith(ShardPointer.MAGIC),
        dir + "m.sdnb is a shard pointer: " + keys);
    List<String> shards = keys.stream().filter(k -> k.contains(".modelfs-g")).toList();
    assertTrue(shards.size() >= 3, "several shards under a generation directory: " + keys);
    assertEquals(1, shards.stream().map(k -> k.substring(0, k.lastIndexOf('/'))).distinct().count(),
        "one generation: " + keys);
    Path into = Files.createDirectory(tmp.resolve("downloaded-" + dir.replace("/", "")));
    for (String k : shards) {
      Files.write(into.resolve(k.substring(k.lastIndexOf('/') + 1)), s3.bytes(k));
    }
    return into.resolve(ShardNames.name("m", 0, shards.size()));
  }


  /** Writes mlp_adam.fb's model to {@code out} (any store) as {@code options} say; returns its files. */
  static List<Path> writeMlpAdam(Path out, WriteOptions options) throws IOException {
    try (Model m = ModelFiles.open(FIXTURES.resolve("mlp_adam.fb"))) {
      return ModelFiles.writeTags(m.tags(), out, options);
    }
  }

  /** mlp_adam.fb's model as three tags, each with metadata of its own (zip-tags stores shared arrays once). */
  private static List<Path> writeSeveralTags(Path out, WriteOptions options) throws IOException {
    try (Model m = ModelFiles.open(FIXTURES.resolve("mlp_adam.fb"))) {
      Tag t = m.newest();
      List<Tag> tags = new ArrayList<>();
      for (String name : List.of("v1", "v2", "v3")) {
        tags.add(new Tag(name, t.graph(), t.variables(), t.updater(), t.trainingConfig(), Map.of("step", name)));
      }
      return ModelFiles.writeTags(tags, out, options);
    }
  }
}
