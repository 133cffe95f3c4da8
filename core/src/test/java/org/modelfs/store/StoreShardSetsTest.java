package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.modelfs.format.Codec;
import org.modelfs.format.Codecs;
import org.modelfs.format.ModelFormatException;

/**
 * The one rule of which shard sets the store modules (s3, azure, hdfs) write: SDNB's, and for
 * every other registered shard-set family one refusal that names the store, the model, the
 * family's shard names and the formats to write instead, from the codec registry.
 */
class StoreShardSetsTest {
  @Test
  void sdnbShardSetsAndOneFileModelsPass() {
    assertDoesNotThrow(() -> StoreShardSets.check("s3x://h/b/m.sdnb", "object stores", "sdnb"));
    assertDoesNotThrow(() -> StoreShardSets.check("s3x://h/b/m.fb", "object stores", (String) null));
  }

  @Test
  void everyOtherRegisteredFamilyIsRefusedNamingWhatToWriteInstead() {
    List<String> refused = new ArrayList<>();
    for (Codec c : Codecs.all()) {
      String ext = c.shardExtension();
      if (ext == null || ext.equals(StoreShardSets.WRITTEN)) {
        continue;
      }
      refused.add(ext);
      ModelFormatException e = assertThrows(ModelFormatException.class,
          () -> StoreShardSets.check("azb://models/m." + ext, "Blob Storage", ext));
      String m = e.getMessage();
      assertTrue(m.contains("azb://models/m." + ext), m);
      assertTrue(m.contains("<base>.shard<k>-of-<N>." + ext + ") is not written to Blob Storage"), m);
      assertTrue(m.contains("a " + c.format().token() + " model"), m);
      assertTrue(m.contains("one file (format " + c.format().unsharded().token() + ")"), m);
      assertTrue(m.contains("format " + Codecs.ofShardExtension("sdnb").format().token()), m);
    }
    assertEquals(List.of("sdmc"), refused, "the registered shard-set families other than SDNB's");
  }

  /** A plain SDNB set is found by its base name; another family's set by its own base name is refused saying what it is. */
  @Test
  void plainSetFindsSdnbShardsAndNamesAnotherFamilysShards() throws IOException {
    List<String> sdnb = List.of("m.shard1-of-2.sdnb", "m.shard0-of-2.sdnb", "m.sdnb2", "n.shard0-of-1.sdnb");
    assertEquals(List.of("m.shard0-of-2.sdnb", "m.shard1-of-2.sdnb"),
        StoreShardSets.plainSet("s3x://h/b/m.sdnb", "object stores", "m.sdnb", sdnb, n -> n, n -> n));
    List<String> sdmc = List.of("m.shard0-of-2.sdmc", "m.shard1-of-2.sdmc");
    ModelFormatException e = assertThrows(ModelFormatException.class,
        () -> StoreShardSets.plainSet("hdfs://nn/d/m.sdmc", "HDFS", "m.sdmc", sdmc, n -> n, n -> n));
    assertTrue(e.getMessage().contains("hdfs://nn/d/m.sdmc") && e.getMessage().contains("m.shard0-of-2.sdmc")
        && e.getMessage().contains("container-sharded model, not read as one model from HDFS"), e.getMessage());
    assertEquals(List.of(), StoreShardSets.plainSet("x://m.fb", "HDFS", "m.fb", sdmc, n -> n, n -> n),
        "another model's name: not found, not refused");
  }
}
