package org.modelfs.provider;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * A copy from a byteOrder=stored mount while that mount commits: the bytes, their attributes and
 * their order come from one tree of the source (found by the issue-18 review: 1 copy in 300 stored
 * byte-reversed values when it read the path again after deciding the order).
 */
class CopyRaceTest {
  @TempDir Path tmp;

  @Test
  void aCopyRacingTheSourcesCommit() throws Exception {
    Path fb = tmp.resolve("m.fb");
    Path sdnb = tmp.resolve("t.sdnb");
    var synthetic = SyntheticModels.floats(tmp.resolve("d"), 1, 100);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), fb, WriteOptions.of(ModelFormat.FB));
      ModelFiles.write(synthetic.tag(), sdnb, WriteOptions.of(ModelFormat.SDNB));
    }
    byte[] values = FloatPattern.bytes(3, 0, 4000);
    int bad = 0;
    int rounds = 300;
    String firstBad = null;
    try (FileSystem s = ModelFileSystems.open(fb, Map.of("byteOrder", "stored", "commitOnClose", "false"));
        FileSystem l = ModelFileSystems.open(sdnb, Map.of("commitOnClose", "false"))) {
      for (int i = 0; i < rounds; i++) {
        Path x = s.getPath("/params/x" + i);
        Files.write(x, values); // new: little-endian until committed
        Thread committer = new Thread(() -> {
          try {
            ((JournaledFileSystem) s).commit();
          } catch (Exception e) {
            throw new RuntimeException(e);
          }
        });
        committer.start();
        long spin = (i * 7919L) % 3000_000L;
        long until = System.nanoTime() + spin;
        while (System.nanoTime() < until) {
          Thread.onSpinWait();
        }
        Path y = l.getPath("/params/y" + i);
        try {
          Files.copy(x, y);
          byte[] got = Files.readAllBytes(y);
          if (!Arrays.equals(values, got)) {
            bad++;
            if (firstBad == null) {
              firstBad = "round " + i + ": first bytes " + Arrays.toString(Arrays.copyOf(got, 8));
            }
          }
        } catch (Exception e) {
          // e.g. read during the swap
        }
        committer.join();
      }
    }
    Assertions.assertEquals(0, bad, "copies with wrong values: " + firstBad);
  }
}
