package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.SyntheticModels;

/**
 * Edits cost O(change), not O(model) (issue 15 item 4, docs/PERFORMANCE.md "Edits in
 * O(change)"): adding, replacing, renaming and deleting one parameter of a mount of 200,000
 * allocates a bounded number of bytes. Measured as this thread's allocated bytes (the JVM
 * counts them exactly), not time: before, every change rebuilt the whole tree — about 340 bytes
 * per array by a class histogram, some 68 MB per change at this size.
 */
class EditCostTest {
  private static final int PARAMS = 200_000;
  /** Bytes one change may allocate: journal file and channel objects, the treap path, the tag. */
  private static final long BOUND = 256 * 1024;

  @TempDir Path tmp;

  @Test
  void oneChangeAmongTwoHundredThousandAllocatesLittle() throws Exception {
    Path model = SyntheticModels.sdnb(tmp.resolve("m.sdnb"), PARAMS);
    ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    byte[] four = {1, 2, 3, 4};
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("commitOnClose", "false"))) {
      Path big = fs.getPath("/params/big");
      // the first change takes the lease, makes the journal and sorts the names once
      Files.write(big.resolve("warm"), four);
      Files.move(big.resolve("warm"), big.resolve("warm2"));
      Files.delete(big.resolve("warm2"));
      int n = 200;
      long before = mx.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < n; i++) {
        Files.write(big.resolve("new" + i), four); // add
        Files.write(big.resolve("w" + i), four); // replace
        Files.move(big.resolve("new" + i), big.resolve("moved" + i)); // rename one file
        Files.delete(big.resolve("w" + (PARAMS - 1 - i))); // delete
        assertTrue(Files.exists(big.resolve("moved" + i)));
      }
      long perChange = (mx.getCurrentThreadAllocatedBytes() - before) / (4L * n);
      assertTrue(perChange < BOUND, "bytes allocated per change among " + PARAMS + " parameters: " + perChange);
      assertArrayEquals(four, Files.readAllBytes(big.resolve("w7")));
      assertEquals(4, Files.size(big.resolve("w" + (PARAMS - 1 - n))));
      assertTrue(Files.notExists(big.resolve("w" + (PARAMS - 1))));
      try (var list = Files.list(big)) {
        assertEquals(PARAMS, list.count()); // +200 moved, -200 deleted
      }
    }
  }
}
