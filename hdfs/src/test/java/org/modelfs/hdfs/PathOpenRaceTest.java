package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.store.Backing;
import org.modelfs.store.Snapshot;
import org.modelfs.testing.SyntheticModels;

/**
 * A mount opens a single model file by its path while it lists the directory ({@link PathOpen}),
 * and uses that stream only when its blocks are the listed file's. A commit that replaces the file
 * between the two — either way round — must never be mounted as a mix of the listing of one
 * generation and the bytes of another: the open falls back to the inode the listing named (gone:
 * a new listing) and mounts the new generation whole. Each race is put in place by
 * {@link RacingDfs}'s hooks, no timing.
 */
class PathOpenRaceTest {
  @TempDir Path tmp;

  @AfterEach
  void reset() {
    RacingDfs.reset();
  }

  /** The model through a client with {@link RacingDfs}'s hooks: the authority {@code loCalhost:<port>}, spelt so by no other test. */
  private static Path raced(String model) throws Exception {
    URI root = URI.create("hdfs://loCalhost:" + HdfsTestCluster.port() + "/");
    try {
      FileSystems.newFileSystem(root, Map.of("fs.hdfs.impl", RacingDfs.class.getName()));
    } catch (FileSystemAlreadyExistsException e) {
      // made by another test of this class
    }
    return Path.of(root.resolve(model));
  }

  /**
   * The model through a {@link RacingDfs} client whose {@code dfs.client.read.prefetch.size} is 100
   * bytes: the authority {@code LOCALhost:<port>}, spelt so by no other test.
   */
  private static Path smallPrefetch(String model) throws Exception {
    URI root = URI.create("hdfs://LOCALhost:" + HdfsTestCluster.port() + "/");
    try {
      FileSystems.newFileSystem(root, Map.of("fs.hdfs.impl", RacingDfs.class.getName(),
          "dfs.client.read.prefetch.size", "100"));
    } catch (FileSystemAlreadyExistsException e) {
      // made by another test of this class
    }
    return Path.of(root.resolve(model));
  }

  private static Backing backing(Path model) throws Exception {
    return new HdfsBackings().backing(model, false);
  }

  /** A model of 2 variables stored at {@code model}; the local file of one of 3 that replaces it. */
  private Path storedAndNext(String model) throws Exception {
    HdfsTestCluster.upload(SyntheticModels.sdnb(tmp.resolve("one.sdnb"), 2), model);
    return SyntheticModels.sdnb(tmp.resolve("two.sdnb"), 3);
  }

  private static String generation(String model) throws Exception {
    return new HdfsBackings().backing(HdfsTestCluster.path(model), false).current().toString();
  }

  private static void await(CountDownLatch l) throws InterruptedException {
    assertTrue(l.await(60, TimeUnit.SECONDS), "the race's other side never came");
  }

  /** The new model mounted whole: its generation, its 3 variables, the inode path taken. */
  private static void mountsTheNewModelWhole(Backing b, String model, Path two) throws Exception {
    String now = generation(model);
    Snapshot s = b.open();
    try {
      assertEquals(now, s.generation().toString(), "the new generation, from a new listing");
      assertEquals(3, s.model().tags().get(0).variables().size(), "the new model's variables");
    } finally {
      s.model().close();
    }
    assertTrue(RacingDfs.INODE_OPENS.get() >= 1, "the stream opened by path was refused; the inode path took over");
    assertArrayEquals(Files.readAllBytes(two), HdfsTestCluster.bytes(model));
  }

  @Test
  void aFileReplacedBetweenTheListingAndTheOpenByPathIsOpenedAgain() throws Exception {
    Path two = storedAndNext("/race-after-listing/m.sdnb");
    Backing b = backing(raced("/race-after-listing/m.sdnb"));
    CountDownLatch replaced = new CountDownLatch(1);
    RacingDfs.BEFORE_PATH_OPEN.set(() -> await(replaced)); // the open by path waits for the commit
    String old = generation("/race-after-listing/m.sdnb");
    b.recoverIfIdle(); // the listing: the old file; the open by path still waiting
    HdfsTestCluster.upload(two, "/race-after-listing/m.sdnb"); // a new inode, the listed one deleted
    assertNotEquals(old, generation("/race-after-listing/m.sdnb"));
    replaced.countDown(); // the open by path now opens the new file
    mountsTheNewModelWhole(b, "/race-after-listing/m.sdnb", two);
  }

  @Test
  void aFileReplacedBetweenTheOpenByPathAndTheListingIsOpenedByTheListedInode() throws Exception {
    Path two = storedAndNext("/race-before-listing/m.sdnb");
    Backing b = backing(raced("/race-before-listing/m.sdnb"));
    CountDownLatch opened = new CountDownLatch(1);
    RacingDfs.AFTER_PATH_OPEN.set(opened::countDown);
    RacingDfs.BEFORE_LISTING.set(() -> { // the listing waits until the old file is open, then a commit replaces it
      await(opened);
      HdfsTestCluster.upload(two, "/race-before-listing/m.sdnb");
    });
    b.recoverIfIdle(); // the listing shows the new file; the stream has the old one's blocks
    mountsTheNewModelWhole(b, "/race-before-listing/m.sdnb", two);
  }

  @Test
  void withoutARaceTheStreamOpenedByPathIsTheMountsAndReadsTheListedFile() throws Exception {
    storedAndNext("/race-none/m.sdnb");
    Path model = raced("/race-none/m.sdnb");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertEquals(1, RacingDfs.PATH_OPENS.get());
      assertEquals(0, RacingDfs.INODE_OPENS.get(), "the stream opened by path, proven the listed file, is used");
      assertEquals(4, Files.readAllBytes(fs.getPath("/params/big/w1")).length);
    }
  }

  @Test
  void aFileLargerThanTheClientsFirstFetchOfLocationsIsOpenedByInode() throws Exception {
    storedAndNext("/race-large/m.sdnb");
    assertTrue(Files.size(tmp.resolve("one.sdnb")) > 100);
    // its later blocks' locations would be asked for by the path, unchecked, after a refresh
    try (FileSystem fs = ModelFileSystems.open(smallPrefetch("/race-large/m.sdnb"), Map.of("readOnly", "true"))) {
      assertEquals(1, RacingDfs.PATH_OPENS.get());
      assertEquals(1, RacingDfs.INODE_OPENS.get(), "opened by inode: the stream opened by path not used");
      assertEquals(4, Files.readAllBytes(fs.getPath("/params/big/w1")).length);
    }
  }
}
