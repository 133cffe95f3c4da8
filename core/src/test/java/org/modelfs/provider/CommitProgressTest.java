package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;

/**
 * A commit tells its {@code progress} listener how many bytes it has written (the CLI's progress
 * lines): the env key {@code progress} of a mount and {@code ModelFiles.writeTags}; the last
 * report is the size of the new container; anything but a {@code LongConsumer} is refused.
 */
class CommitProgressTest {
  @TempDir Path tmp;

  @Test
  void aMountsCommitReportsTheBytesOfTheNewContainer() throws IOException {
    Path m = ProviderTestModels.copy(tmp, "m.fb");
    List<Long> seen = new CopyOnWriteArrayList<>();
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("progress", (LongConsumer) seen::add))) {
      Files.write(fs.getPath("/params/big"), new byte[4 << 20]);
    }
    assertTrue(!seen.isEmpty());
    assertEquals(Files.size(m), seen.get(seen.size() - 1), "the last report is the container's size");
    for (int i = 1; i < seen.size(); i++) {
      assertTrue(seen.get(i) >= seen.get(i - 1), "never backwards: " + seen);
    }
    assertThrows(IllegalArgumentException.class, () -> ModelFileSystems.open(m, Map.of("progress", "yes")));
  }

  @Test
  void aShardSetReportsEveryShard() throws IOException {
    List<Long> seen = new CopyOnWriteArrayList<>();
    Path out = tmp.resolve("s.sdnb");
    try (Model model = Models.open(ProviderTestModels.EXAMPLE)) {
      List<Path> files = ModelFiles.writeTags(model.tags(), out,
          WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(200), seen::add);
      long total = 0;
      for (Path f : files) {
        total += Files.size(f);
      }
      assertEquals(total, seen.get(seen.size() - 1));
    }
  }
}
