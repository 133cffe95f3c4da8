package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link StoreKeys}: a key is a generation shard of a model only as ModelFS spells it; every
 * name one character off is someone else's (what cleanup never deletes).
 */
class StoreKeysTest {
  @Test
  void onlyTheExactSpellingIsAGenerationShard() {
    String g = StoreKeys.newGeneration("m.sdnb");
    assertTrue(StoreKeys.isGenerationShard("m.sdnb", g + "/m.shard0-of-2.sdnb"));
    assertTrue(StoreKeys.isGenerationShard("m.sdnb", g + "/m.shard1-of-2.sdnb"));
    String hex = g.substring(g.length() - 32);
    for (String foreign : new String[] {
        g + "/m.shard00-of-2.sdnb", g + "/m.shard0-of-02.sdnb", g + "/m.shard2-of-2.sdnb", g + "/m.shard0-of-2.sdnb.tmp",
        g + "/m.shard0-of-2.SDNB", g + "/n.shard0-of-2.sdnb", g + "/x/m.shard0-of-2.sdnb", g + "/m.shard0-of-2.sdmc",
        g.substring(0, g.length() - 1) + "/m.shard0-of-2.sdnb", g + "0/m.shard0-of-2.sdnb",
        "m.sdnb.modelfs-g" + hex.toUpperCase() + "/m.shard0-of-2.sdnb", "m.sdnb2.modelfs-g" + hex + "/m.shard0-of-2.sdnb",
        "m.shard0-of-2.sdnb", g, g + "/"}) {
      assertFalse(StoreKeys.isGenerationShard("m.sdnb", foreign), foreign);
    }
  }
}
