package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.VersionedModel;

/**
 * A model just over the size that is one Put Blob ({@code BlockUpload.SMALL}, 1 MiB) with 1 MiB
 * blocks: two blocks, the last a few hundred bytes (the SDNB's index); committed twice (the
 * second reuses the unchanged block) and read back whole.
 */
class BlockEdgesTest extends AzureTest {
  @Test
  void aModelJustOverOneBlockCommitsWhole() throws Exception {
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 1, (1 << 20) / 4, 0);
    long size = Files.size(local);
    upload(local, "edge/m.sdnb");
    System.setProperty("modelfs.azure.block-size", String.valueOf(1 << 20));
    try {
      for (int v : new int[] {9, 10}) {
        try (FileSystem fs = ModelFileSystems.open(path("edge/m.sdnb"))) {
          VersionedModel.write(fs, v);
        }
        assertEquals(v, VersionedModel.values(path("edge/m.sdnb"), 1)[0]);
        assertEquals(size, bytes("edge/m.sdnb").length, "the same size: both blocks, the short last one too");
      }
    } finally {
      System.clearProperty("modelfs.azure.block-size");
    }
  }
}
