package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.store.Backing;
import org.modelfs.store.Snapshot;
import org.modelfs.testing.SyntheticModels;

/**
 * A mount lists the model's directory once ({@link HdfsListing}): the listing {@code recoverIfIdle}
 * took serves the open after it. When a commit replaced a file in between, the file is gone by
 * the inode the listing named: the open starts again with a new listing and opens the new model,
 * never a mix and never the removed file. A listing kept by one thread is not another thread's.
 */
class OpenAfterListingTest {
  @TempDir Path tmp;

  private Backing backing(String model) throws Exception {
    return new HdfsBackings().backing(HdfsTestCluster.path(model), false);
  }

  /** The stored generation, as another client lists it (the backing under test keeps its listing). */
  private String generation(String model) throws Exception {
    return backing(model).current().toString();
  }

  /** A model of 2 variables at {@code model}, and the local file of one of 3 to replace it with. */
  private Path storedAndNext(String model) throws Exception {
    HdfsTestCluster.upload(SyntheticModels.sdnb(tmp.resolve("one.sdnb"), 2), model);
    return SyntheticModels.sdnb(tmp.resolve("two.sdnb"), 3);
  }

  @Test
  void aFileReplacedAfterTheListingIsOpenedAgainFromANewListing() throws Exception {
    Path two = storedAndNext("/listed/m.sdnb");
    Backing b = backing("/listed/m.sdnb");
    b.recoverIfIdle(); // lists: no install record, the listing kept for the open
    String old = generation("/listed/m.sdnb");
    HdfsTestCluster.upload(two, "/listed/m.sdnb"); // a new inode; the listed one is deleted
    String now = generation("/listed/m.sdnb");
    assertNotEquals(old, now);
    Snapshot s = b.open();
    try {
      assertEquals(now, s.generation().toString(), "the new model, from a new listing");
      assertEquals(3, s.model().tags().get(0).variables().size());
    } finally {
      s.model().close();
    }
    assertArrayEquals(Files.readAllBytes(two), HdfsTestCluster.bytes("/listed/m.sdnb"));
  }

  @Test
  void aListingKeptByOneThreadIsNotUsedByAnother() throws Exception {
    storedAndNext("/kept/m.sdnb");
    Backing b = backing("/kept/m.sdnb");
    Thread t = new Thread(() -> {
      try {
        b.recoverIfIdle(); // keeps its listing for its own open
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    t.start();
    t.join();
    ServerCounts before = ServerCounts.now();
    b.open().model().close(); // this thread kept nothing: it lists
    assertEquals(1, ServerCounts.now().minus(before).listings());
    b.recoverIfIdle();
    before = ServerCounts.now();
    b.open().model().close(); // its own kept listing: none
    assertEquals(0, ServerCounts.now().minus(before).listings());
  }
}
