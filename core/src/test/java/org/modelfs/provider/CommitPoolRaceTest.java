package org.modelfs.provider;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * Commits of an fb model's new files while other threads read them through the descriptor pool
 * (found by the issue-18 review: a pooled descriptor closed between lending and mapping failed
 * the commit with ClosedChannelException).
 */
class CommitPoolRaceTest {
  @TempDir Path tmp;

  @Test
  void commitOfNewFilesWhileOthersAreRead() throws Exception {
    Path fb = tmp.resolve("m.fb");
    var synthetic = SyntheticModels.floats(tmp.resolve("d"), 2, 1000);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), fb, WriteOptions.of(ModelFormat.FB));
    }
    int files = 150;
    int failures = 0;
    String first = null;
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("commitOnClose", "false"))) {
      for (int round = 0; round < 8; round++) {
        for (int i = 0; i < files; i++) {
          Files.write(fs.getPath("/params/n" + round + "_" + i), new byte[4096]);
        }
        AtomicBoolean stop = new AtomicBoolean();
        final int r = round;
        Thread[] readers = new Thread[2];
        for (int k = 0; k < readers.length; k++) {
          final int seed = k;
          readers[k] = new Thread(() -> {
            Random rnd = new Random(seed);
            while (!stop.get()) {
              try {
                Files.readAllBytes(fs.getPath("/params/n" + r + "_" + rnd.nextInt(files)));
              } catch (Exception e) {
                // ignore
              }
            }
          });
          readers[k].start();
        }
        Thread.sleep(20);
        try {
          ((JournaledFileSystem) fs).commit();
        } catch (Exception e) {
          failures++;
          if (first == null) {
            first = e.toString();
          }
          ((JournaledFileSystem) fs).rollback();
        }
        stop.set(true);
        for (Thread t : readers) {
          t.join();
        }
      }
    }
    Assertions.assertEquals(0, failures, "commits while other threads read the journal: " + first);
  }
}
