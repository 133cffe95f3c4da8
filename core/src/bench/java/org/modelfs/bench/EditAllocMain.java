package org.modelfs.bench;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.SyntheticModels;

/**
 * docs/PERFORMANCE.md, "Edits in O(change)": bytes allocated per change (add, replace, rename,
 * delete one parameter) in a mount of N one-float parameters, for each N given — exact counts
 * from the JVM's per-thread allocation counter, so the figures do not depend on machine load.
 * Run with the bench profile's test class path:
 * {@code java -cp <test class path> org.modelfs.bench.EditAllocMain 1000 1000000}.
 */
public final class EditAllocMain {
  private EditAllocMain() {}

  public static void main(String[] args) throws Exception {
    ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    byte[] four = {1, 2, 3, 4};
    String[] ops = {"add", "replace", "rename", "delete"};
    for (String a : args) {
      int n = Integer.parseInt(a);
      Path dir = Files.createTempDirectory("modelfs-edit-alloc");
      Path model = SyntheticModels.sdnb(dir.resolve("m.sdnb"), n);
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("commitOnClose", "false"))) {
        Path big = fs.getPath("/params/big");
        Files.write(big.resolve("warm"), four); // the lease, the journal, the name order: once
        Files.move(big.resolve("warm"), big.resolve("warm2"));
        Files.delete(big.resolve("warm2"));
        for (int op = 0; op < ops.length; op++) {
          long before = mx.getCurrentThreadAllocatedBytes();
          for (int i = 0; i < 200; i++) {
            switch (op) {
              case 0 -> Files.write(big.resolve("new" + i), four);
              case 1 -> Files.write(big.resolve("w" + i), four);
              case 2 -> Files.move(big.resolve("new" + i), big.resolve("moved" + i));
              default -> Files.delete(big.resolve("w" + (n - 1 - i)));
            }
          }
          System.out.printf("%d params, %s: %d bytes allocated per change%n", n, ops[op],
              (mx.getCurrentThreadAllocatedBytes() - before) / 200);
        }
      }
      Files.delete(model);
      Files.delete(dir);
    }
  }
}
