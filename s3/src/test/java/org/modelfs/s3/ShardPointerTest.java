package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.testing.BytesChannel;
import org.modelfs.store.StoreKeys;

/**
 * The shard-set pointer's text: written and read back; every prefix and 20,000 random
 * corruptions are refused with a {@link ModelFormatException} naming the pointer, or read as a
 * valid pointer of this model — never another exception, never a key outside its generations.
 */
class ShardPointerTest {
  private static final String GEN = "m.sdnb.modelfs-g" + "0123456789abcdef".repeat(2);

  private static List<ShardPointer.Shard> shards() {
    return List.of(new ShardPointer.Shard(GEN + "/m.shard0-of-3.sdnb", 1024, "\"5289df737df57326fcdd22597afb1fac\""),
        new ShardPointer.Shard(GEN + "/m.shard1-of-3.sdnb", 1L << 32, "\"abc-2\""),
        new ShardPointer.Shard(GEN + "/m.shard2-of-3.sdnb", 0, "e"));
  }

  private static ByteSource source(byte[] b) {
    return ChannelSource.of("s3://models/m.sdnb", new BytesChannel(b));
  }

  @Test
  void writtenThenReadGivesTheSameShards() throws IOException {
    byte[] text = ShardPointer.write(shards());
    assertTrue(ShardPointer.sniff(source(text)));
    assertEquals(shards(), ShardPointer.read(source(text), "m.sdnb"));
    assertTrue(new String(text, StandardCharsets.UTF_8).endsWith("\n"));
  }

  @Test
  void shardsOfSeveralGenerationsAndThePreviousModelsShardsAreReadBack() throws IOException {
    String older = "m.sdnb.modelfs-g" + "fedcba9876543210".repeat(2);
    List<ShardPointer.Shard> now = List.of(shards().get(0), new ShardPointer.Shard(older + "/m.shard1-of-3.sdnb", 5, "a"),
        shards().get(2));
    ShardPointer.Pointer p = ShardPointer.readPointer(source(ShardPointer.write(now, shards())), "m.sdnb");
    assertEquals(new ShardPointer.Pointer(now, shards()), p);
    assertEquals("m.shard1-of-3.sdnb", p.shards().get(1).fileName());
  }

  @Test
  void aVersionOnePointerIsStillReadAndHoldsOneGeneration() throws IOException {
    StringBuilder v1 = new StringBuilder(ShardPointer.MAGIC_1).append("shards 3\n");
    for (ShardPointer.Shard s : shards()) {
      v1.append(s.size()).append(' ').append(s.etag()).append(' ').append(s.key()).append('\n');
    }
    CRC32C crc = new CRC32C();
    byte[] body = v1.toString().getBytes(StandardCharsets.UTF_8);
    crc.update(body);
    byte[] text = (v1 + String.format("crc32c %08x", crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8);
    assertTrue(ShardPointer.sniff(source(text)));
    assertEquals(new ShardPointer.Pointer(shards(), List.of()), ShardPointer.readPointer(source(text), "m.sdnb"));
    byte[] mixed = new String(text, StandardCharsets.UTF_8).replace(GEN + "/m.shard1", "m.sdnb.modelfs-g"
        + "fedcba9876543210".repeat(2) + "/m.shard1").getBytes(StandardCharsets.UTF_8);
    assertThrows(ModelFormatException.class, () -> ShardPointer.readPointer(source(mixed), "m.sdnb"));
  }

  @Test
  void aModelWhoseNameHasSpacesAndNonAsciiCharacters() throws IOException {
    String name = "my model ü.sdnb";
    String gen = name + ".modelfs-g" + "ab".repeat(16);
    List<ShardPointer.Shard> s = List.of(new ShardPointer.Shard(gen + "/my model ü.shard0-of-1.sdnb", 7, "x"));
    assertEquals(s, ShardPointer.read(source(ShardPointer.write(s)), name));
  }

  @Test
  void anotherModelsPointerIsRefused() throws IOException {
    byte[] text = ShardPointer.write(shards());
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ShardPointer.read(source(text),
        "other.sdnb"));
    assertTrue(e.getMessage().contains("shard-set pointer"), e.getMessage());
  }

  @Test
  void everyPrefixIsRefused() {
    byte[] text = ShardPointer.write(shards());
    for (int n = 0; n < text.length; n++) {
      byte[] cut = Arrays.copyOf(text, n);
      assertThrows(ModelFormatException.class, () -> ShardPointer.read(source(cut), "m.sdnb"), "prefix " + n);
    }
  }

  @Test
  void randomCorruptionsAreRefusedOrStillValid() throws IOException {
    byte[] text = ShardPointer.write(shards());
    Random r = new Random(42);
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] b = text.clone();
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        b[r.nextInt(b.length)] = (byte) r.nextInt(256);
      }
      try {
        for (ShardPointer.Shard s : ShardPointer.read(source(b), "m.sdnb")) {
          assertTrue(StoreKeys.isGenerationShard("m.sdnb", s.key()), s.key());
          assertTrue(s.size() >= 0);
        }
      } catch (ModelFormatException e) {
        refused++;
      }
    }
    assertTrue(refused > 19_000, "the CRC refuses nearly all: " + refused);
  }

  @Test
  void aPointerLargerThanItsLimitIsRefusedBeforeItIsRead() {
    byte[] big = new byte[ShardPointer.MAX_BYTES + 1];
    System.arraycopy(ShardPointer.MAGIC.getBytes(StandardCharsets.US_ASCII), 0, big, 0, ShardPointer.MAGIC.length());
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ShardPointer.read(source(big), "m.sdnb"));
    assertTrue(e.getMessage().contains("more than"), e.getMessage());
  }
}
