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
 * took serves the open after it. When a commit replaced a file in between, the mount is the
 * listed model whole or the new one whole, never a mix. A listing kept by one thread is not
 * another thread's.
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

  /**
   * Replaced after the listing was taken: the mount is the listed generation whole while its
   * blocks last (the stream reads the listed blocks, {@link ListedBlocks}), or, once they are gone,
   * the new one from a new listing — never the listing of one and the bytes of the other.
   * (A read after they are gone: {@link ListedBlocksTest}.)
   */
  @Test
  void aFileReplacedAfterTheListingIsMountedWholeAsTheOldOrTheNewModel() throws Exception {
    Path two = storedAndNext("/listed/m.sdnb");
    Backing b = backing("/listed/m.sdnb");
    b.recoverIfIdle(); // lists: no install record, kept for the open
    String old = generation("/listed/m.sdnb");
    HdfsTestCluster.upload(two, "/listed/m.sdnb"); // a new inode; the listed one is deleted
    String now = generation("/listed/m.sdnb");
    assertNotEquals(old, now);
    Snapshot s = b.open();
    try {
      String got = s.generation().toString();
      assertTrue(got.equals(old) || got.equals(now), got);
      assertEquals(got.equals(old) ? 2 : 3, s.model().tags().get(0).variables().size(), "the model of " + got);
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
