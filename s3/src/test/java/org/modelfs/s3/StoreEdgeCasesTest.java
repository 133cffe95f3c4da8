package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.store.LocalBacking;
import org.modelfs.store.ModelFiles;
import org.modelfs.store.ShardPointer;
import org.modelfs.testing.BytesChannel;
import org.modelfs.testing.VersionedModel;
import org.modelfs.testing.CliRun;

/** Cases a review found: each failed before its fix. */
class StoreEdgeCasesTest extends StoreTest {
  private static final Path FIXTURE = Path.of(System.getProperty("modelfs.fixtures")).resolve("mlp_adam.fb");
  /** A key whose first segment is the bucket's name was read (and committed) as the key without it. */
  @Test
  void aKeyThatStartsWithTheBucketsNameIsThatKey() throws Exception {
    Path other = VersionedModel.local(tmp, "other.fb", ModelFormat.FB, 2, 16, 0);
    s3.upload(other, "m.fb");
    s3.upload(FIXTURE, S3TestServer.BUCKET + "/m.fb");
    try (FileSystem fs = ModelFileSystems.open(s3.path(S3TestServer.BUCKET + "/m.fb"), Map.of("readOnly", "true"))) {
      assertTrue(Files.exists(fs.getPath("/params/layer0/W")), "the fixture, not the model at m.fb");
    }
  }

  /**
   * The S3 provider reads {@code s3://models/models/m.fb} as the key {@code m.fb} (it drops a first
   * segment equal to the bucket's name): the CLI refuses such an argument instead of acting on
   * another object. (Nothing is requested: the path is refused before any.)
   */
  @Test
  void theCliRefusesAnS3UriTheProviderWouldMisread() {
    CliRun.Result r = CliRun.run("info", "s3://models/models/m.fb");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("cannot be named so"), r.err());
  }

  /** Without the s3 module, a write through the provider left the lock object in the bucket. */
  @Test
  void aLockAttemptWithoutTheModuleLeavesNoLockObject() throws Exception {
    s3.upload(FIXTURE, "lk/m.fb");
    LocalBacking local = LocalBacking.of(s3.path("lk/m.fb"));
    IOException e = assertThrows(IOException.class, local::lock);
    assertTrue(e.getMessage().contains("modelfs-s3"), e.getMessage());
    assertEquals(List.of("lk/m.fb"), s3.keys().stream().filter(k -> k.startsWith("lk/")).toList());
  }

  /** A pointer with a valid CRC and a size past Long.MAX_VALUE threw NumberFormatException. */
  @Test
  void aPointerSizeTooLargeForALongIsAFormatError() {
    String gen = "m.sdnb.modelfs-g" + "0123456789abcdef".repeat(2);
    String body = ShardPointer.MAGIC + "shards 1\n9999999999999999999 e - " + gen + "/m.shard0-of-1.sdnb\nprevious 0\n";
    CRC32C crc = new CRC32C();
    crc.update(body.getBytes(StandardCharsets.UTF_8));
    byte[] text = (body + String.format("crc32c %08x%n", crc.getValue()).replace(System.lineSeparator(), "\n"))
        .getBytes(StandardCharsets.UTF_8);
    assertThrows(ModelFormatException.class, () -> ShardPointer.read(ChannelSource.of("p", new BytesChannel(text)),
        "m.sdnb"));
  }

  /** A container shard set is local only (docs/OBJECT-STORES.md): writing one to a store is refused, and leaves nothing. */
  @Test
  void aShardedContainerIsRefusedAndLeavesNothing() throws Exception {
    Tag tag;
    try (Model m = Models.open(FIXTURE)) {
      tag = m.newest();
      ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFiles.write(tag,
          s3.path("sc/m.sdmc"), WriteOptions.of(ModelFormat.SHARDED_CONTAINER)
              .withMaxShardBytes(300)));
      assertTrue(e.getMessage().contains("not written to object stores"), e.getMessage());
    }
    try (FileSystem fs = ModelFileSystems.open(s3.path("sc/n.sdmc"), Map.of("create", "true",
        "format", "container-sharded"))) {
      Files.write(fs.getPath("/tags/default/metadata/k"), "v".getBytes(StandardCharsets.UTF_8));
      IOException e = assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().contains("not written to object stores"), e.getMessage());
    } catch (IOException closing) {
      assertTrue(closing.getMessage().contains("not written to object stores"), closing.getMessage());
    }
    assertEquals(List.of(), s3.keys().stream().filter(k -> k.startsWith("sc/")).toList());
  }
}
