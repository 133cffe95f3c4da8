package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.HeapSource;

/** The framing of the store modules' shard-set pointers: magic, lines, the CRC line, the size limit. */
class PointerTextTest {
  private static final String MAGIC = "MODELFS TEST POINTER 1\n";
  private static final String BODY = MAGIC + "shards 1\n7 etag m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/m.shard0-of-1.sdnb\n";

  private static HeapSource src(byte[] b) {
    return new HeapSource("s3://b/m.sdnb", b);
  }

  @Test
  void aSealedTextOpensToItsLinesAndSniffsByItsMagic() throws IOException {
    byte[] sealed = PointerText.seal(BODY);
    assertTrue(new String(sealed, StandardCharsets.US_ASCII).matches("(?s).*\ncrc32c [0-9a-f]{8}\n"));
    assertArrayEquals(BODY.split("\n", -1), PointerText.open(src(sealed)));
    assertTrue(PointerText.sniff(src(sealed), "MODELFS OTHER 1\n", MAGIC));
    assertFalse(PointerText.sniff(src(sealed), "MODELFS OTHER 1\n"));
    assertFalse(PointerText.sniff(src("MODEL".getBytes(StandardCharsets.US_ASCII)), MAGIC), "shorter than any magic");
  }

  /** Every prefix and many random byte changes are refused as a pointer naming the object, never thrown otherwise. */
  @Test
  void damageIsRefusedNamingTheObject() {
    byte[] sealed = PointerText.seal(BODY);
    for (int n = 0; n < sealed.length; n++) {
      byte[] cut = Arrays.copyOf(sealed, n);
      ModelFormatException e = assertThrows(ModelFormatException.class, () -> PointerText.open(src(cut)));
      assertTrue(e.getMessage().startsWith("s3://b/m.sdnb") && e.getMessage().contains("shard-set pointer"),
          e.getMessage());
    }
    Random r = new Random(34);
    for (int i = 0; i < 2000; i++) {
      byte[] b = sealed.clone();
      int at = r.nextInt(b.length);
      b[at] ^= (byte) (1 + r.nextInt(255));
      assertThrows(ModelFormatException.class, () -> PointerText.open(src(b)), "byte " + at);
    }
    byte[] big = new byte[PointerText.MAX_BYTES + 1];
    assertThrows(ModelFormatException.class, () -> PointerText.open(src(big)));
  }

  @Test
  void aShardLineMustNameShardKOfNOfAGenerationOfTheModel() {
    String g = "m.sdnb.modelfs-g0123456789abcdef0123456789abcdef/";
    assertDoesNotThrow(() -> PointerText.checkShard("f", 3, g + "m.shard1-of-2.sdnb", 1, 2, "m.sdnb"));
    for (String key : new String[] {g + "m.shard0-of-2.sdnb", g + "m.shard1-of-3.sdnb", g + "n.shard1-of-2.sdnb",
        "m.shard1-of-2.sdnb", "../" + g + "m.shard1-of-2.sdnb", "n.sdnb.modelfs-g0123456789abcdef0123456789abcdef/"
        + "m.shard1-of-2.sdnb"}) {
      ModelFormatException e = assertThrows(ModelFormatException.class, () -> PointerText.checkShard("f", 3, key, 1, 2,
          "m.sdnb"), key);
      assertTrue(e.getMessage().contains("line 3 names '" + key + "', not shard 1 of 2 of a generation of m.sdnb"),
          e.getMessage());
    }
  }
}
