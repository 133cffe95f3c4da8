package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ShardPointer;
import org.modelfs.testing.BytesChannel;
import org.modelfs.testing.VersionedModel;
import org.modelfs.store.StoreKeys;

/**
 * What a commit uploads, counted at the server (object content received; parts the server copied
 * are not uploads): a small change of a shard set uploads the changed shard, the graph shard and
 * the pointer, naming the unchanged shards where an older generation holds them; a small change
 * of a single object uploads the changed parts and the server composes the rest from the old
 * object (docs/OBJECT-STORES.md "What a commit costs").
 */
class CommitCostTest extends StoreTest {
  /** Six parameters of 2 MiB: six weight shards (plus the graph shard), or one 12 MiB object. */
  private static final int COUNT = 6;
  private static final int ELEMENTS = Integer.getInteger("cost.elements", 512 * 1024);
  private static final long SHARD = 4L * ELEMENTS;
  private static final Map<String, String> SHARDED = Map.of("format", "sdnb-sharded", "maxShardBytes",
      String.valueOf(SHARD));

  /** Writes 1 KiB into the middle of parameter {@code big/w<i>} of the model at {@code key} and commits. */
  private static void changeOneKiB(String key, Map<String, String> env, int i, byte value) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), env);
        SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/params/big/w" + i), StandardOpenOption.WRITE)) {
      byte[] b = new byte[1024];
      Arrays.fill(b, value);
      ch.position(SHARD / 2).write(ByteBuffer.wrap(b));
    }
  }

  /** The byte at the middle of parameter {@code big/w<i>}, read through a new mount. */
  private static byte middle(String key, int i) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"));
        SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/params/big/w" + i))) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.position(SHARD / 2).read(b);
      return b.get(0);
    }
  }

  private static List<ShardPointer.Shard> pointer(String key) throws IOException {
    byte[] p = s3.bytes(key);
    return ShardPointer.read(ChannelSource.of(key, new BytesChannel(p)), "m.sdnb").shards();
  }

  @Test
  void aSmallChangeOfAShardSetUploadsTheChangedShardTheGraphShardAndThePointer() throws Exception {
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, COUNT, ELEMENTS, SHARD);
    uploadShards("cost/set/");
    String key = "cost/set/m.sdnb";
    changeOneKiB(key, SHARDED, 1, (byte) 7); // the first commit replaces the plain DL4J set: every shard
    List<ShardPointer.Shard> first = pointer(key);
    assertEquals(COUNT + 1, first.size(), "a graph shard and one weight shard per parameter: " + first);

    FileSystem reader = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true")); // the first commit
    s3.resetCounts();
    changeOneKiB(key, SHARDED, 3, (byte) 9);
    long uploaded = s3.bytesUploaded();
    List<ShardPointer.Shard> second = pointer(key);
    String generation = StoreKeys.generationOf(second.get(0).key());
    List<ShardPointer.Shard> written = second.stream().filter(s -> s.key().startsWith(generation + "/")).toList();
    assertEquals(2, written.size(), "the new generation holds the graph shard and the changed one: " + second);
    long pointerBytes = s3.bytes(key).length;
    long bound = written.get(0).size() + written.get(1).size() + pointerBytes;
    assertTrue(uploaded <= bound, uploaded + " bytes uploaded, more than the changed shard + graph shard + pointer ("
        + bound + ")");
    assertTrue(uploaded < COUNT * SHARD / 3, uploaded + " bytes: not the whole model");
    for (int k = 0; k < second.size(); k++) {
      if (!written.contains(second.get(k))) {
        assertEquals(first.get(k), second.get(k), "shard " + k + " is named where the first commit put it");
      }
    }
    System.out.println("[CommitCostTest] shard set of " + COUNT * SHARD + " bytes, 1 KiB changed: " + uploaded
        + " bytes uploaded (bound " + bound + ")");

    assertEquals(9, middle(key, 3));
    assertEquals(7, middle(key, 1));
    try (SeekableByteChannel ch = Files.newByteChannel(reader.getPath("/params/big/w3"))) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.position(SHARD / 2).read(b);
      assertEquals(0, b.get(0), "a reader of the previous commit reads it");
    } finally {
      reader.close();
    }

    // the next commit: cleanup keeps every object the current or the previous pointer names
    String grace = System.setProperty("modelfs.s3.cleanup-grace-seconds", "0");
    try {
      Thread.sleep(1100); // the store dates objects to the second
      changeOneKiB(key, SHARDED, 5, (byte) 11);
      List<ShardPointer.Shard> third = pointer(key);
      Set<String> named = new TreeSet<>();
      for (ShardPointer.Shard s : third) {
        named.add("cost/set/" + s.key());
      }
      for (ShardPointer.Shard s : second) {
        named.add("cost/set/" + s.key());
      }
      List<String> left = s3.keys().stream().filter(k -> k.startsWith("cost/set/m.sdnb.modelfs-g")).toList();
      assertEquals(List.copyOf(named), left, "exactly the shards the current and the previous model name");
      assertEquals(11, middle(key, 5));
      assertEquals(9, middle(key, 3));
    } finally {
      if (grace == null) {
        System.clearProperty("modelfs.s3.cleanup-grace-seconds");
      } else {
        System.setProperty("modelfs.s3.cleanup-grace-seconds", grace);
      }
    }
  }

  @Test
  void aSmallChangeOfASingleObjectUploadsOnlyTheChangedPartsAndTheServerComposesTheRest() throws Exception {
    Path local = VersionedModel.local(tmp, "one.sdnb", ModelFormat.SDNB, COUNT, ELEMENTS, 0);
    String key = "cost/one/one.sdnb";
    s3.upload(local, key);
    changeOneKiB(key, Map.of(), 1, (byte) 7); // no part digests yet: the whole object, and its digests
    long size = s3.bytes(key).length;
    long part = PartDigests.partSize(size);
    s3.resetCounts();
    changeOneKiB(key, Map.of(), 3, (byte) 9);
    long uploaded = s3.bytesUploaded();
    System.out.println("[CommitCostTest] single object of " + size + " bytes, 1 KiB changed: " + uploaded
        + " bytes uploaded, " + s3.bytesCopied() + " copied by the server (parts of " + part + ")");
    assertTrue(uploaded <= part, uploaded + " bytes uploaded, more than one part of " + part);
    assertEquals(size - uploaded, s3.bytesCopied(), "the rest composed on the server");
    assertEquals(9, middle(key, 3));
    assertEquals(7, middle(key, 1));
    assertEquals(0, middle(key, 2));
  }
}
