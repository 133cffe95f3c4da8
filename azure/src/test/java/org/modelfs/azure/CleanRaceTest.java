package org.modelfs.azure;

import org.junit.jupiter.api.Test;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.CleanRace;
import org.modelfs.testing.VersionedModel;

/**
 * {@code modelfs clean} in a loop while a writer commits a shard set and a reader mounts it again
 * and again ({@link CleanRace}; before: a clean that a commit overtook exited 2 telling the user
 * to mount the model again).
 */
class CleanRaceTest extends AzureTest {
  @Test
  void cleanRacingCommits() throws Exception {
    long shard = 40 * 1024;
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 4, 16 * 1024, shard);
    uploadShards("race-clean/");
    CleanRace.run(path("race-clean/m.sdnb"), uri("race-clean/m.sdnb"), shard, 6);
  }
}
