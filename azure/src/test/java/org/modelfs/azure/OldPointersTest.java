package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.modelfs.io.HeapSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ShardPointer;
import org.modelfs.testing.VersionedModel;

/**
 * Models already in Blob Storage stay readable and editable: a shard set whose pointer is in the
 * spelling the azure module wrote before the one format ({@code MODELFS AZURE SHARD SET 1}: a
 * SHA-256 per line, no previous section) is mounted and read whole; its next commit writes the
 * current spelling, names the old pointer's shards as its previous model, and still names each
 * unchanged shard where it is (found by the old pointer's SHA-256). Exact bytes: core's
 * {@code store.ShardPointerTest}.
 */
class OldPointersTest extends AzureTest {
  private static final int COUNT = 4;
  private static final Map<String, String> SHARDED = Map.of("format", "sdnb-sharded", "maxShardBytes",
      String.valueOf(64 * 1024));

  private static ShardPointer.Pointer pointer(String key) throws IOException {
    return ShardPointer.read(new HeapSource(key, bytes(key)), "m.sdnb");
  }

  @Test
  void anAzureVersionOnePointerIsReadAndItsNextCommitKeepsWhatItNamed() throws Exception {
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, COUNT, 10_000, 64 * 1024);
    uploadShards("old/");
    String key = "old/m.sdnb";
    VersionedModel.commit(path(key), SHARDED, 0, 7);
    ShardPointer.Pointer p = pointer(key);
    StringBuilder sb = new StringBuilder("MODELFS AZURE SHARD SET 1\nshards " + p.shards().size() + "\n");
    for (ShardPointer.Shard s : p.shards()) {
      assertTrue(s.sha256() != null, "the azure module knows every shard's SHA-256");
      sb.append(s.size()).append(' ').append(s.etag()).append(' ').append(s.sha256()).append(' ').append(s.key())
          .append('\n');
    }
    CRC32C crc = new CRC32C();
    crc.update(sb.toString().getBytes(StandardCharsets.UTF_8));
    sb.append(String.format("crc32c %08x", crc.getValue())).append('\n');
    Path old = tmp.resolve("old-pointer");
    Files.writeString(old, sb);
    upload(old, key);
    assertTrue(new String(bytes(key), StandardCharsets.UTF_8).startsWith("MODELFS AZURE SHARD SET 1\n"));

    int[] before = VersionedModel.values(path(key), COUNT);
    assertEquals(7, before[0], "read through the old pointer");
    VersionedModel.commit(path(key), SHARDED, 2, 9);
    assertTrue(new String(bytes(key), StandardCharsets.UTF_8).startsWith(ShardPointer.MAGIC));
    ShardPointer.Pointer now = pointer(key);
    assertEquals(p.shards(), now.previous(), "the old pointer's model is the new one's previous");
    long named = now.shards().stream().filter(p.shards()::contains).count();
    assertTrue(named > 0, "unchanged shards named where the old pointer had them: " + now.shards());
    for (ShardPointer.Shard s : p.shards()) {
      assertTrue(keys("old/").contains("old/" + s.key()), s.key() + " kept");
    }
    before[2] = 9;
    assertArrayEquals(before, VersionedModel.values(path(key), COUNT));
  }
}
