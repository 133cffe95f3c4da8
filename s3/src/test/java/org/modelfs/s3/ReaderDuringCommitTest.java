package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.VersionedModel;

/**
 * Readers that mount and read the whole model again and again while another mount commits new
 * versions: every read sees one version whole — never a mix of two. A single object replaced
 * under a reader that is still reading makes that reader fail with {@link ObjectChangedException}
 * (its bytes are gone from the store); a shard set's readers never fail (the previous generation
 * is kept).
 */
class ReaderDuringCommitTest extends StoreTest {
  private static final int COMMITS = 12;
  @Test
  void singleObject() throws Exception {
    s3.upload(VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 6, 64 * 1024, 0), "read1/m.sdnb");
    run("read1/m.sdnb", Map.of(), false);
  }

  @Test
  void shardSet() throws Exception {
    long shard = 200 * 1024;
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 6, 64 * 1024, shard);
    uploadShards("read2/");
    run("read2/m.sdnb", Map.of("format", "sdnb-sharded", "maxShardBytes", String.valueOf(shard)), true);
  }

  private void run(String key, Map<String, String> env, boolean neverFails) throws Exception {
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger whole = new AtomicInteger();
    AtomicInteger changed = new AtomicInteger();
    ConcurrentLinkedQueue<Throwable> wrong = new ConcurrentLinkedQueue<>();
    List<Thread> readers = List.of(reader(key, done, whole, changed, wrong), reader(key, done, whole, changed, wrong));
    readers.forEach(Thread::start);
    try {
      for (int v = 1; v <= COMMITS; v++) {
        try (FileSystem fs = ModelFileSystems.open(s3.path(key), env)) {
          VersionedModel.write(fs, v);
        }
      }
    } finally {
      done.set(true);
      for (Thread t : readers) {
        t.join(60_000);
      }
    }
    System.out.println(key + ": " + whole.get() + " whole reads, " + changed.get() + " stopped by a commit");
    assertTrue(wrong.isEmpty(), "reads that mixed versions or failed otherwise: " + wrong);
    assertTrue(whole.get() > 0, "some reads ran during the commits");
    if (neverFails) {
      assertEquals(0, changed.get(), "readers of a shard set finish the generation they opened");
    }
  }

  private static Thread reader(String key, AtomicBoolean done, AtomicInteger whole, AtomicInteger changed,
      ConcurrentLinkedQueue<Throwable> wrong) {
    return new Thread(() -> {
      while (!done.get()) {
        try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
          VersionedModel.version(fs);
          whole.incrementAndGet();
        } catch (IOException e) {
          if (isChanged(e)) {
            changed.incrementAndGet();
          } else {
            wrong.add(e);
          }
        } catch (Throwable t) {
          wrong.add(t);
        }
      }
    });
  }

  private static boolean isChanged(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ObjectChangedException) {
        return true;
      }
    }
    return false;
  }
}
