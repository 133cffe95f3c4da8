package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Sidecars;

/**
 * An interrupt at any moment of a commit (the committing thread is interrupted while it writes,
 * forces, reads back or renames): the commit either completes or fails with an exception, the
 * model is always one whole generation, the interrupted mount can still close (its next commit
 * may succeed), and afterwards nothing of the transaction is left beside the model and the lock
 * is free.
 */
class InterruptedCommitTest {
  private static final int PARAMS = 6;
  private static final int FLOATS = 1 << 19; // 2 MiB each

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"m.fb", "m.sdnb", "m.sdz", "sharded"})
  void anInterruptedCommitLeavesOneGenerationAndNothingBehind(String kind) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve(kind + ".d"));
    Path m = kind.equals("sharded") ? HostileSupport.sharded(dir, PARAMS, FLOATS, 0f)
        : HostileSupport.create(dir.resolve(kind), Map.of(), HostileSupport.uniformParams(PARAMS, FLOATS, 0f));
    Random rnd = new Random(42);
    List<String> outcomes = new ArrayList<>();
    for (int k = 1; k <= 12; k++) {
      FileSystem fs = ModelFileSystems.open(m);
      for (int i = 0; i < PARAMS; i++) {
        Files.write(fs.getPath("/params/w" + i), HostileSupport.fill(FLOATS, k));
      }
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread committer = new Thread(() -> {
        try {
          ((JournaledFileSystem) fs).commit();
        } catch (Throwable t) {
          failure.set(t);
        }
      });
      committer.start();
      Thread.sleep(rnd.nextInt(40));
      committer.interrupt();
      committer.join();
      Throwable t = failure.get();
      assertTrue(t == null || t instanceof IOException, kind + " commit " + k + ": not an IOException: " + t);
      outcomes.add(t == null ? "committed" : t.getClass().getSimpleName());
      try {
        fs.close(); // commits what the interrupt stopped, or discards it and says so
      } catch (IOException e) {
        outcomes.add("close: " + e.getMessage());
      }
      try (FileSystem check = ModelFileSystems.open(m, Map.of("readOnly", true))) {
        TreeSet<Float> values = new TreeSet<>();
        for (byte[] b : HostileSupport.params(check).values()) {
          values.add(HostileSupport.uniform(b));
        }
        assertEquals(1, values.size(), kind + " commit " + k + ": one generation, found " + values);
      }
      assertEquals(List.of(), Sidecars.of(m), kind + " commit " + k + ": nothing left beside it");
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.write(fs.getPath("/params/w0"), HostileSupport.fill(FLOATS, 99f)); // the lock is free
    }
    System.out.println("[InterruptedCommitTest] " + kind + ": " + outcomes);
  }
}
