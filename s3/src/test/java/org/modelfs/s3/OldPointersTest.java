package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.modelfs.io.HeapSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ShardPointer;
import org.modelfs.testing.VersionedModel;

/**
 * Models already in a store stay readable and editable: a shard set whose pointer is in a spelling
 * the s3 module wrote before the one format ({@code MODELFS SHARD SET 1} and {@code 2}: no SHA-256
 * field) is mounted and read whole; its next commit writes the current spelling, names the old
 * pointer's shards as its previous model, and leaves every object the old pointer named in place
 * (their exact bytes are core's {@code store.ShardPointerTest}).
 */
class OldPointersTest extends StoreTest {
  private static final int COUNT = 4;
  private static final Map<String, String> SHARDED = Map.of("format", "sdnb-sharded", "maxShardBytes",
      String.valueOf(64 * 1024));

  /** A shard set committed by this code at {@code dir/m.sdnb}, version 0 → parameter 0 set to 7. */
  private String committed(String dir) throws IOException {
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, COUNT, 10_000, 64 * 1024);
    uploadShards(dir);
    VersionedModel.commit(s3.path(dir + "m.sdnb"), SHARDED, 0, 7);
    return dir + "m.sdnb";
  }

  private static ShardPointer.Pointer pointer(String key) throws IOException {
    return ShardPointer.read(new HeapSource(key, s3.bytes(key)), "m.sdnb");
  }

  /** The pointer at {@code key} written again as the s3 module wrote version {@code v} (1 or 2). */
  private void rewriteAsVersion(String key, int v) throws IOException {
    ShardPointer.Pointer p = pointer(key);
    StringBuilder sb = new StringBuilder("MODELFS SHARD SET " + v + "\nshards " + p.shards().size() + "\n");
    lines(sb, p.shards());
    if (v == 2) {
      sb.append("previous ").append(p.previous().size()).append('\n');
      lines(sb, p.previous());
    }
    CRC32C crc = new CRC32C();
    crc.update(sb.toString().getBytes(StandardCharsets.UTF_8));
    sb.append(String.format("crc32c %08x", crc.getValue())).append('\n');
    Path old = tmp.resolve("old-pointer");
    Files.writeString(old, sb);
    s3.upload(old, key);
    assertTrue(new String(s3.bytes(key), StandardCharsets.UTF_8).startsWith("MODELFS SHARD SET " + v + "\n"));
  }

  private static void lines(StringBuilder sb, List<ShardPointer.Shard> shards) {
    for (ShardPointer.Shard s : shards) {
      sb.append(s.size()).append(' ').append(s.etag()).append(' ').append(s.key()).append('\n');
    }
  }

  @Test
  void aVersionTwoPointerIsReadAndItsNextCommitKeepsWhatItNamed() throws Exception {
    String key = committed("v2/");
    VersionedModel.commit(s3.path(key), SHARDED, 1, 8); // a second generation: shards of two generations
    rewriteAsVersion(key, 2);
    readThenCommit(key);
  }

  @Test
  void aVersionOnePointerIsReadAndItsNextCommitKeepsWhatItNamed() throws Exception {
    String key = committed("v1/"); // one generation (shard 0's): version 1 held one
    rewriteAsVersion(key, 1);
    readThenCommit(key);
  }

  private void readThenCommit(String key) throws IOException {
    ShardPointer.Pointer old = pointer(key);
    int[] before = VersionedModel.values(s3.path(key), COUNT);
    assertEquals(7, before[0], "read through the old pointer");
    VersionedModel.commit(s3.path(key), SHARDED, 2, 9);
    assertTrue(new String(s3.bytes(key), StandardCharsets.UTF_8).startsWith(ShardPointer.MAGIC));
    ShardPointer.Pointer now = pointer(key);
    assertEquals(old.shards(), now.previous(), "the old pointer's model is the new one's previous");
    for (ShardPointer.Shard s : old.shards()) {
      assertTrue(s3.keys().contains(key.substring(0, key.lastIndexOf('/') + 1) + s.key()), s.key() + " kept");
    }
    before[2] = 9;
    assertArrayEquals(before, VersionedModel.values(s3.path(key), COUNT));
  }
}
