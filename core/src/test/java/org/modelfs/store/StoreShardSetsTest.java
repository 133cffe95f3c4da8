package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
