package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ShardPointer;
import org.modelfs.testing.VersionedModel;

/**
 * Shard sets in the store: shards under a new generation directory first, the pointer at the
 * model's key last (the commit point); what a reader of the previous generation still reads;
 * what cleanup removes, and what it never touches.
 */
class ObjectShardSetTest extends StoreTest {
  private static final long SHARD = 64 * 1024;
  private static final Map<String, String> SHARDED = Map.of("format", "sdnb-sharded", "maxShardBytes",
      String.valueOf(SHARD));
  /** Uploads a plain DL4J shard set (4 shards) under {@code dir/}; returns the model's key {@code dir/m.sdnb}. */
  private String plainShardSet(String dir) throws IOException {
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 6, 10_000, SHARD);
    uploadShards(dir);
    assertTrue(keys(dir).size() >= 3, "several shards: " + keys(dir));
    return dir + "m.sdnb";
  }

  private static List<String> keys(String dir) {
    return s3.keys().stream().filter(k -> k.startsWith(dir)).toList();
  }

  private static List<String> plain(String dir) {
    return keys(dir).stream().filter(k -> k.substring(dir.length()).matches("m\\.shard\\d+-of-\\d+\\.sdnb")).toList();
  }

  private static List<String> generations(String dir) {
    return keys(dir).stream().filter(k -> k.contains(".modelfs-g")).map(k -> k.substring(0, k.lastIndexOf('/')))
        .distinct().toList();
  }

  private static void commit(String key, int version) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), SHARDED)) {
      VersionedModel.write(fs, version);
    }
  }

  private static int version(String key) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
      return VersionedModel.version(fs);
    }
  }

  @Test
  void aCommitUploadsAGenerationThenPointsToItAndKeepsThePreviousOneForItsReaders() throws Exception {
    String key = plainShardSet("set/");
    assertEquals(0, version(key));
    commit(key, 1);
    assertEquals(1, version(key));
    List<String> after1 = keys("set/");
    assertTrue(after1.contains(key), "the pointer at the model's key: " + after1);
    assertEquals(1, generations("set/").size(), "one generation: " + after1);
    assertFalse(plain("set/").isEmpty(), "the plain shard set it replaced is kept for its readers: " + after1);
    assertTrue(new String(s3.bytes(key), StandardCharsets.UTF_8).startsWith(ShardPointer.MAGIC));

    FileSystem reader = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true")); // reads generation 1
    Thread.sleep(1100); // the store dates objects to the second: leftovers are those strictly older
    commit(key, 2);
    assertEquals(2, generations("set/").size(), "the previous generation is kept for its readers");
    assertEquals(List.of(), plain("set/"), "the plain shards, older than the model object and not the previous, go");
    assertEquals(1, VersionedModel.version(reader), "a reader of the previous commit reads it whole");
    reader.close();
    Thread.sleep(1100);
    commit(key, 3);
    assertEquals(3, version(key));
    assertEquals(2, generations("set/").size(), "the generation before the previous one is removed: "
        + keys("set/"));
  }

  @Test
  void leftoversOfADeadCommitAreRemovedAndNothingElse() throws Exception {
    String key = plainShardSet("dead/");
    commit(key, 1);
    Path junk = Files.write(tmp.resolve("junk"), new byte[] {1, 2, 3});
    String dead = "dead/m.sdnb.modelfs-g" + "0123456789abcdef".repeat(2) + "/";
    List<String> ours = List.of(dead + "m.shard0-of-2.sdnb", dead + "m.shard1-of-2.sdnb");
    List<String> notOurs = List.of(
        "dead/m.sdnb.modelfs-g0123/m.shard0-of-2.sdnb", // not 32 hex digits
        dead + "notes.txt", // not a shard
        dead + "other.shard0-of-2.sdnb", // another base
        "dead/other.sdnb.modelfs-g" + "0123456789abcdef".repeat(2) + "/other.shard0-of-1.sdnb", // another model
        "dead/m.sdnb.backup");
    for (String k : ours) {
      s3.upload(junk, k);
    }
    for (String k : notOurs) {
      s3.upload(junk, k);
    }
    Thread.sleep(1100);
    commit(key, 2);
    List<String> now = keys("dead/");
    for (String k : ours) {
      assertFalse(now.contains(k), k + " (a dead commit's shard, older than the model) is removed");
    }
    for (String k : notOurs) {
      assertTrue(now.contains(k), k + " is not ours and stays");
    }
    assertEquals(2, version(key));
  }

  @Test
  void aFailedShardUploadLeavesTheModelAndRemovesWhatItUploaded() throws Exception {
    String key = plainShardSet("fail/");
    commit(key, 1);
    List<String> before = keys("fail/");
    AtomicInteger shardPuts = new AtomicInteger();
    AtomicReference<String> first = new AtomicReference<>();
    s3.beforePut(k -> {
      if (k.startsWith("fail/m.sdnb.modelfs-g")) {
        shardPuts.incrementAndGet();
        if (!first.compareAndSet(null, k) && !k.equals(first.get())) {
          // every attempt at the second shard (the client retries a 500)
          throw new IllegalStateException("injected: the store failed the second shard's upload");
        }
      }
    });
    try {
      FileSystem fs = ModelFileSystems.open(s3.path(key), SHARDED);
      VersionedModel.write(fs, 2);
      assertThrows(IOException.class, fs::close);
    } finally {
      s3.beforePut(null);
    }
    assertTrue(shardPuts.get() >= 2, "the first shard uploaded, the second tried");
    assertEquals(before, keys("fail/"), "the first shard's upload is deleted again; the model is as it was");
    assertEquals(1, version(key));
  }

  @Test
  void aPointerThatNamesAnythingButThisModelsShardsIsRefused() throws Exception {
    String key = plainShardSet("hostile/");
    commit(key, 1);
    String good = new String(s3.bytes(key), StandardCharsets.UTF_8);
    String body = good.substring(0, good.indexOf("crc32c"));
    String generation = generations("hostile/").get(0).substring("hostile/".length());
    List<String> bad = List.of(
        withCrc(body.replace(generation + "/", "../elsewhere/")), // outside a generation directory
        withCrc(body.replace(generation + "/m.shard", generation + "/x.shard")), // another base
        withCrc(body.replace(generation + "/m.shard1-", "hostile/m.sdnb.modelfs-g" + "ab".repeat(16) + "/m.shard1-")),
        withCrc(body.replace("shards ", "shards 9")), // count and lines disagree
        body, // no CRC line
        body.replace("\n" + body.split("\n")[2].split(" ")[0] + " ", "\n1 ") + good.substring(body.length())); // CRC mismatch
    for (String text : bad) {
      Path p = Files.writeString(tmp.resolve("pointer"), text);
      s3.upload(p, key);
      IOException e = assertThrows(IOException.class, () -> version(key), text);
      assertTrue(e.getMessage().contains("shard-set pointer"), e.getMessage());
    }
  }

  /** {@code body} with the CRC line a pointer ends with. */
  private static String withCrc(String body) {
    CRC32C crc = new CRC32C();
    crc.update(body.getBytes(StandardCharsets.UTF_8));
    return body + String.format("crc32c %08x", crc.getValue()) + "\n";
  }
}
