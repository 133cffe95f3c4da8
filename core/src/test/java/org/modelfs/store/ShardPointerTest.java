package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;
import org.modelfs.io.HeapSource;

/**
 * The one shard-set pointer format of the store modules: written and read back; every spelling
 * an earlier ModelFS wrote (the s3 module's versions 1 and 2, the azure module's version 1) read
 * from its exact bytes, as that code wrote them; hostile text (a missing or extra line, a key
 * outside the model, a size that is no number, a duplicated shard, CRLF, a BOM, 10 MB, every
 * prefix, 20,000 random corruptions) refused with a {@link ModelFormatException} naming the
 * pointer object — never another exception, never a key outside the model's generations.
 */
class ShardPointerTest {
  private static final String OBJECT = "s3://models/m.sdnb";
  private static final String G1 = "m.sdnb.modelfs-g" + "0123456789abcdef".repeat(2);
  private static final String G0 = "m.sdnb.modelfs-g" + "fedcba9876543210".repeat(2);
  private static final String SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

  /** What the s3 module's ShardPointer.write(now, previous) wrote before this format (version 2). */
  private static final String S3_V2 = """
      MODELFS SHARD SET 2
      shards 3
      1024 "5289df737df57326fcdd22597afb1fac" m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard0-of-3.sdnb
      4294967296 "abc-2" m.sdnb.modelfs-gfedcba9876543210fedcba9876543210/m.shard1-of-3.sdnb
      0 "d41d8cd98f00b204e9800998ecf8427e" m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard2-of-3.sdnb
      previous 2
      900 "aa" m.sdnb.modelfs-gfedcba9876543210fedcba9876543210/m.shard0-of-2.sdnb
      4294967296 "abc-2" m.sdnb.modelfs-gfedcba9876543210fedcba9876543210/m.shard1-of-2.sdnb
      crc32c d13986f9
      """;
  /** The same, with no previous model (ShardPointer.write(now)). */
  private static final String S3_V2_NO_PREVIOUS = """
      MODELFS SHARD SET 2
      shards 3
      1024 "5289df737df57326fcdd22597afb1fac" m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard0-of-3.sdnb
      4294967296 "abc-2" m.sdnb.modelfs-gfedcba9876543210fedcba9876543210/m.shard1-of-3.sdnb
      0 "d41d8cd98f00b204e9800998ecf8427e" m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard2-of-3.sdnb
      previous 0
      crc32c f7dcbf55
      """;
  /** The s3 module's version 1 (before shards were reused): one generation, no previous section. */
  private static final String S3_V1 = """
      MODELFS SHARD SET 1
      shards 2
      1024 "5289df737df57326fcdd22597afb1fac" m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard0-of-2.sdnb
      7 "abc-2" m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard1-of-2.sdnb
      crc32c 7516c4a5
      """;
  /** What the azure module's ShardPointer.write(shards) wrote before this format. */
  private static final String AZURE_V1 = """
      MODELFS AZURE SHARD SET 1
      shards 3
      1024 "0x8DBF1A2B3C4D5E6" 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard0-of-3.sdnb
      4294967296 "0x8DBF1A2B3C4D5E7" 60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752 m.sdnb.modelfs-gfedcba9876543210fedcba9876543210/m.shard1-of-3.sdnb
      0 "0x8DBF1A2B3C4D5E8" e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard2-of-3.sdnb
      crc32c 2b37d53d
      """;

  private static ByteSource source(String text) {
    return source(text.getBytes(StandardCharsets.UTF_8));
  }

  private static ByteSource source(byte[] b) {
    return new HeapSource(OBJECT, b);
  }

  private static List<ShardPointer.Shard> s3Shards() {
    return List.of(new ShardPointer.Shard(G1 + "/m.shard0-of-3.sdnb", 1024, "\"5289df737df57326fcdd22597afb1fac\""),
        new ShardPointer.Shard(G0 + "/m.shard1-of-3.sdnb", 1L << 32, "\"abc-2\""),
        new ShardPointer.Shard(G1 + "/m.shard2-of-3.sdnb", 0, "\"d41d8cd98f00b204e9800998ecf8427e\""));
  }

  private static List<ShardPointer.Shard> s3Previous() {
    return List.of(new ShardPointer.Shard(G0 + "/m.shard0-of-2.sdnb", 900, "\"aa\""),
        new ShardPointer.Shard(G0 + "/m.shard1-of-2.sdnb", 1L << 32, "\"abc-2\""));
  }

  private static List<ShardPointer.Shard> azureShards() {
    return List.of(new ShardPointer.Shard(G1 + "/m.shard0-of-3.sdnb", 1024, "\"0x8DBF1A2B3C4D5E6\"", SHA),
        new ShardPointer.Shard(G0 + "/m.shard1-of-3.sdnb", 1L << 32, "\"0x8DBF1A2B3C4D5E7\"",
            "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"),
        new ShardPointer.Shard(G1 + "/m.shard2-of-3.sdnb", 0, "\"0x8DBF1A2B3C4D5E8\"",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  }

  @Test
  void everyOldSpellingIsReadFromItsExactBytes() throws IOException {
    for (String old : List.of(S3_V1, S3_V2, S3_V2_NO_PREVIOUS, AZURE_V1)) {
      assertTrue(ShardPointer.sniff(source(old)), old);
    }
    assertEquals(new ShardPointer.Pointer(s3Shards(), s3Previous()), ShardPointer.read(source(S3_V2), "m.sdnb"));
    assertEquals(new ShardPointer.Pointer(s3Shards(), List.of()), ShardPointer.read(source(S3_V2_NO_PREVIOUS),
        "m.sdnb"));
    assertEquals(new ShardPointer.Pointer(azureShards(), List.of()), ShardPointer.read(source(AZURE_V1), "m.sdnb"));
    ShardPointer.Pointer v1 = ShardPointer.read(source(S3_V1), "m.sdnb");
    assertEquals(List.of(new ShardPointer.Shard(G1 + "/m.shard0-of-2.sdnb", 1024,
        "\"5289df737df57326fcdd22597afb1fac\""), new ShardPointer.Shard(G1 + "/m.shard1-of-2.sdnb", 7, "\"abc-2\"")),
        v1.shards());
    assertEquals(List.of(), v1.previous());
  }

  /** What an old pointer says is written again, in the new spelling, unchanged: nothing is lost by the next commit. */
  @Test
  void anOldPointerWrittenAgainInTheNewSpellingReadsTheSame() throws IOException {
    for (String old : List.of(S3_V1, S3_V2, S3_V2_NO_PREVIOUS, AZURE_V1)) {
      ShardPointer.Pointer p = ShardPointer.read(source(old), "m.sdnb");
      byte[] again = ShardPointer.write(p.shards(), p.previous());
      assertTrue(new String(again, StandardCharsets.UTF_8).startsWith(ShardPointer.MAGIC));
      assertEquals(p, ShardPointer.read(source(again), "m.sdnb"));
    }
  }

  /** The new spelling's exact bytes: a change to the format shows here first (and must keep reading these). */
  @Test
  void theWrittenTextIsTheDocumentedFormat() throws IOException {
    List<ShardPointer.Shard> now = List.of(new ShardPointer.Shard(G1 + "/m.shard0-of-2.sdnb", 1024, "\"e1\"", SHA),
        new ShardPointer.Shard(G0 + "/m.shard1-of-2.sdnb", 7, "\"e2-2\""));
    List<ShardPointer.Shard> before = List.of(new ShardPointer.Shard(G0 + "/m.shard0-of-1.sdnb", 5, "\"e0\""));
    String text = new String(ShardPointer.write(now, before), StandardCharsets.UTF_8);
    String body = "MODELFS SHARD SET 3\nshards 2\n1024 \"e1\" " + SHA + " " + G1 + "/m.shard0-of-2.sdnb\n"
        + "7 \"e2-2\" - " + G0 + "/m.shard1-of-2.sdnb\nprevious 1\n5 \"e0\" - " + G0 + "/m.shard0-of-1.sdnb\n";
    assertArrayEquals(PointerText.seal(body), text.getBytes(StandardCharsets.UTF_8));
    ShardPointer.Pointer p = ShardPointer.read(source(text), "m.sdnb");
    assertEquals(new ShardPointer.Pointer(now, before), p);
    assertEquals(G1, p.generation());
    assertEquals(java.util.Set.of(G0, G1), p.generations());
    assertNull(p.shards().get(1).sha256());
    assertEquals("m.shard1-of-2.sdnb", p.shards().get(1).fileName());
  }

  @Test
  void aModelWhoseNameHasSpacesAndNonAsciiCharacters() throws IOException {
    String name = "my model ü.sdnb";
    String gen = name + ".modelfs-g" + "ab".repeat(16);
    List<ShardPointer.Shard> s = List.of(new ShardPointer.Shard(gen + "/my model ü.shard0-of-1.sdnb", 7, "x", SHA));
    assertEquals(s, ShardPointer.read(source(ShardPointer.write(s)), name).shards());
  }

  /** A hostile or damaged text: refused naming the pointer object and the line. */
  @Test
  void hostileTextIsRefusedNamingThePointerAndTheLine() {
    String shard0 = "1024 e - " + G1 + "/m.shard0-of-2.sdnb\n";
    String shard1 = "7 e - " + G1 + "/m.shard1-of-2.sdnb\n";
    String head = "MODELFS SHARD SET 3\nshards 2\n";
    String[][] cases = {
        {head + shard0 + "previous 0\n", "line 4 is not '<size> <etag> <sha256 or -> <key>': 'previous 0'"}, // a missing line
        {head + shard0, "line 2 says 2 shards lines but 1 lines follow"},
        {head + shard0 + shard1 + "previous 0\n" + shard1, "line 6 is one more than its sections say"}, // an extra line
        {head + shard0 + shard1, "line 5 is not 'previous N' (the pointer ends before it)"},
        {head + shard0 + "7 e - ../" + G1 + "/m.shard1-of-2.sdnb\nprevious 0\n", "line 4 names '../"},
        {head + shard0 + "7 e - m.shard1-of-2.sdnb\nprevious 0\n", "line 4 names 'm.shard1-of-2.sdnb'"},
        {head + shard0 + "7 e - " + G1.replace("m.sdnb", "other.sdnb") + "/m.shard1-of-2.sdnb\nprevious 0\n",
            "line 4 names"},
        {head + shard0 + "7 e - " + G1 + "/../../secret\nprevious 0\n", "line 4 names"},
        {head + "x1024 e - " + G1 + "/m.shard0-of-2.sdnb\n" + shard1 + "previous 0\n", "line 3 is not '<size> <etag>"},
        {head + "99999999999999999999 e - " + G1 + "/m.shard0-of-2.sdnb\n" + shard1 + "previous 0\n", "line 3 is not"},
        {head + "-1 e - " + G1 + "/m.shard0-of-2.sdnb\n" + shard1 + "previous 0\n", "line 3 is not"},
        {head + shard0 + shard0 + "previous 0\n", "line 4 names '" + G1 + "/m.shard0-of-2.sdnb', not shard 1 of 2"},
        {head + shard0 + "7 e abc " + G1 + "/m.shard1-of-2.sdnb\nprevious 0\n", "line 4 is not '<size> <etag> <sha256"},
        {head + shard0 + "7 e " + G1 + "/m.shard1-of-2.sdnb\nprevious 0\n", "line 4 is not '<size> <etag> <sha256"},
        {"MODELFS SHARD SET 4\nshards 2\n" + shard0 + shard1 + "previous 0\n", "line 1 is 'MODELFS SHARD SET 4'"},
        {"MODELFS SHARD SET 3\nshards 0\nprevious 0\n", "line 2 is not 'shards N'"},
        {"MODELFS SHARD SET 3\nshards 02\n" + shard0 + shard1 + "previous 0\n", "line 2 is not 'shards N'"},
        {"MODELFS SHARD SET 2\nshards 2\n" + shard0 + shard1 + "previous 0\n", "line 3 names '- "}, // v2 has no sha
        {"MODELFS AZURE SHARD SET 1\nshards 2\n" + shard0 + shard1, "line 3 is not '<size> <etag> <sha256> <key>'"},
    };
    for (String[] c : cases) {
      ModelFormatException e = assertThrows(ModelFormatException.class, () -> ShardPointer.read(source(
          PointerText.seal(c[0])), "m.sdnb"), c[0]);
      assertTrue(e.getMessage().startsWith(OBJECT + ": shard-set pointer") && e.getMessage().contains(c[1]),
          c[1] + " / " + e.getMessage());
    }
  }

  /** Text changed by an editor or a Windows tool is said as such, not opened as a model file. */
  @Test
  void crlfAndAByteOrderMarkAreRefusedAsSuch() throws IOException {
    String crlf = S3_V2.replace("\n", "\r\n");
    byte[] bom = ("\uFEFF" + S3_V2).getBytes(StandardCharsets.UTF_8);
    assertTrue(ShardPointer.sniff(source(crlf)), "a pointer, damaged: refused below, never opened as a model");
    assertTrue(ShardPointer.sniff(source(bom)));
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ShardPointer.read(source(crlf), "m.sdnb"));
    assertTrue(e.getMessage().contains("line 1 ends in CR LF"), e.getMessage());
    e = assertThrows(ModelFormatException.class, () -> ShardPointer.read(source(bom), "m.sdnb"));
    assertTrue(e.getMessage().contains("line 1 starts with a byte-order mark"), e.getMessage());
    assertFalse(ShardPointer.sniff(source("PK\u0003\u0004 a zip")));
  }

  @Test
  void aTenMegabytePointerIsRefusedBeforeItIsRead() throws IOException {
    byte[] big = new byte[10 << 20];
    Arrays.fill(big, (byte) '\n');
    System.arraycopy(ShardPointer.MAGIC.getBytes(StandardCharsets.US_ASCII), 0, big, 0, ShardPointer.MAGIC.length());
    HeapSource heap = new HeapSource(OBJECT, big);
    ByteSource src = new ByteSource() {
      @Override
      public String name() {
        return heap.name();
      }

      @Override
      public long size() {
        return heap.size();
      }

      @Override
      public int read(ByteBuffer dst, long position) throws IOException {
        assertTrue(dst.remaining() <= 64, "only the magic is read: " + dst.remaining());
        return heap.read(dst, position);
      }

      @Override
      public void close() {}
    };
    assertTrue(ShardPointer.sniff(src));
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ShardPointer.read(src, "m.sdnb"));
    assertTrue(e.getMessage().startsWith(OBJECT) && e.getMessage().contains("more than the 1048576"), e.getMessage());
  }

  @Test
  void anotherModelsPointerIsRefused() {
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ShardPointer.read(source(AZURE_V1),
        "other.sdnb"));
    assertTrue(e.getMessage().contains("not shard 0 of 3 of a generation of other.sdnb"), e.getMessage());
  }

  @Test
  void everyPrefixIsRefused() {
    for (String text : List.of(S3_V2, AZURE_V1, new String(ShardPointer.write(s3Shards(), s3Previous()),
        StandardCharsets.UTF_8))) {
      byte[] b = text.getBytes(StandardCharsets.UTF_8);
      for (int n = 0; n < b.length; n++) {
        byte[] cut = Arrays.copyOf(b, n);
        assertThrows(ModelFormatException.class, () -> ShardPointer.read(source(cut), "m.sdnb"), "prefix " + n);
      }
    }
  }

  @Test
  void randomCorruptionsAreRefusedOrStillValid() throws IOException {
    byte[] text = ShardPointer.write(azureShards(), s3Previous());
    Random r = new Random(42);
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] b = text.clone();
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        b[r.nextInt(b.length)] = (byte) r.nextInt(256);
      }
      try {
        ShardPointer.Pointer p = ShardPointer.read(source(b), "m.sdnb");
        for (List<ShardPointer.Shard> list : List.of(p.shards(), p.previous())) {
          for (ShardPointer.Shard s : list) {
            assertTrue(StoreKeys.isGenerationShard("m.sdnb", s.key()), s.key());
            assertTrue(s.size() >= 0);
          }
        }
      } catch (ModelFormatException e) {
        refused++;
      }
    }
    assertTrue(refused > 19_000, "the CRC refuses nearly all: " + refused);
  }
}
