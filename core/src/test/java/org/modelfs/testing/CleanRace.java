package org.modelfs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.modelfs.ModelFileSystems;

/**
 * {@code modelfs clean} racing commits of a shard set in a store, while a third client mounts and
 * reads the model again and again (every store module runs it: s3, azure, hdfs): every commit
 * lands, every clean exits 0, every read sees one whole version no older than the last it saw, or
 * is told the model changed — never a missing shard or a mix — and the last commit is what stays.
 */
public final class CleanRace {
  private CleanRace() {}

  /**
   * Runs {@code commits} commits of {@link VersionedModel} versions 1… into {@code model} (a
   * VersionedModel shard set of shards of {@code shardBytes}, at version 0, spelled {@code uri} on
   * the command line) against cleans and reads.
   */
  public static void run(Path model, String uri, long shardBytes, int commits) throws Exception {
    run(model, uri, shardBytes, commits, false);
  }

  /**
   * {@link #run(Path, String, long, int)}; {@code cleanLocks}: the store's clean is its crash
   * recovery and takes the model's writer lock (HDFS), so a clean and a commit may refuse each
   * other with the lock's message ("open for writing"): such a commit is tried again, such a clean
   * is no failure.
   */
  public static void run(Path model, String uri, long shardBytes, int commits, boolean cleanLocks) throws Exception {
    Map<String, String> env = Map.of("format", "sdnb-sharded", "maxShardBytes", String.valueOf(shardBytes));
    AtomicBoolean done = new AtomicBoolean();
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    int[] cleans = new int[1];
    int[] reads = new int[1];
    Thread cleaner = new Thread(() -> {
      while (!done.get()) {
        CliRun.Result r = CliRun.run("clean", uri, "-q");
        cleans[0]++;
        if (r.code() != 0 && !(cleanLocks && locked(r.err()))) {
          failures.add("clean exited " + r.code() + ": " + r.err());
        }
        try {
          Thread.sleep(20); // a clean every ~20 ms: racing, not starving the writer of its lock
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    Thread reader = new Thread(() -> {
      int last = 0;
      while (!done.get()) {
        try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
          int v = VersionedModel.version(fs);
          reads[0]++;
          if (v < last) {
            failures.add("read version " + v + " after " + last);
          }
          last = v;
        } catch (IOException e) {
          if (!e.getClass().getSimpleName().endsWith("ChangedException")) {
            failures.add("read: " + e);
          }
        } catch (AssertionError e) {
          failures.add("read: " + e.getMessage());
        }
      }
    });
    cleaner.start();
    reader.start();
    try {
      for (int v = 1; v <= commits; v++) {
        try (FileSystem fs = ModelFileSystems.open(model, env)) {
          VersionedModel.write(fs, v);
        } catch (IOException e) {
          if (!cleanLocks || !locked(e.getMessage())) {
            throw e;
          }
          v--; // refused by the clean's lock: commit again
        }
      }
    } finally {
      done.set(true);
      cleaner.join();
      reader.join();
    }
    assertEquals(List.of(), failures, cleans[0] + " cleans, " + reads[0] + " reads");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertEquals(commits, VersionedModel.version(fs), "the last commit stays");
    }
    assertEquals(0, CliRun.run("clean", uri, "-q").code());
  }

  private static boolean locked(String message) {
    return message != null && message.contains("open for writing");
  }
}
