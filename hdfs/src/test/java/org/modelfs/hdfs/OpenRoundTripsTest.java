package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ParallelReads;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * What one mount of a model in HDFS and one read of a 4 MiB parameter ask of the cluster, counted
 * at its servers ({@link ServerCounts}; no timing): each NameNode request and each DataNode read
 * at open is a round trip, which at 20 ms RTT is what the mount costs (issue 34,
 * docs/OBJECT-STORES.md §9 has the sequence).
 */
class OpenRoundTripsTest {
  static final int PARAMS = 4;
  static final int ELEMENTS = 1 << 20; // 4 MiB of FLOAT
  @TempDir Path tmp;

  private Path model(String name, WriteOptions options) throws Exception {
    return model(name, options, PARAMS, ELEMENTS);
  }

  private Path model(String name, WriteOptions options, int params, int elements) throws Exception {
    Path data = tmp.resolve(name + ".data");
    var synthetic = SyntheticModels.floats(data, params, elements);
    Path local = tmp.resolve(name);
    try (var src = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), local, options);
    }
    return local;
  }

  /**
   * The model through a client of its own that counts its DataNode reads: the authority
   * {@code LOCALHOST:<port>}, which no other test spells so (the provider keeps one client per
   * authority as written).
   */
  static Path counted(String model) throws Exception {
    URI root = URI.create("hdfs://LOCALHOST:" + HdfsTestCluster.port() + "/");
    try {
      FileSystems.newFileSystem(root, Map.of("fs.hdfs.impl", CountingDfs.class.getName()));
    } catch (FileSystemAlreadyExistsException e) {
      // made by the other test
    }
    return Path.of(root.resolve(model));
  }

  /** What opening asked, and what the parameter's read asked after it. */
  private record Counts(ServerCounts open, ServerCounts read) {}

  private static Counts mountAndRead(String model, String param) throws Exception {
    return mountAndRead(model, param, ELEMENTS * 4);
  }

  private static Counts mountAndRead(String model, String param, int bytes) throws Exception {
    Path path = counted(model);
    ModelFileSystems.open(path, Map.of("readOnly", "true")).close(); // the client connected
    ServerCounts before = ServerCounts.now();
    byte[] got;
    ServerCounts opened;
    long listed = CountingDfs.LISTED.get();
    try (FileSystem fs = ModelFileSystems.open(path, Map.of("readOnly", "true"))) {
      opened = ServerCounts.now().minus(before);
      got = Files.readAllBytes(fs.getPath(param));
    }
    assertTrue(CountingDfs.LISTED.get() > listed, "the files were read over the listing's blocks (ListedBlocks)");
    ServerCounts all = ServerCounts.now().minus(before);
    assertEquals(bytes, got.length);
    assertTrue(all.dataNodeReads() > 0, "the counting client read: " + all);
    System.out.printf("%s: open %s; + one 4 MiB parameter %s%n", model, opened, all);
    return new Counts(opened, all.minus(opened));
  }

  @Test
  void oneFileOpensInOneListingAndTwoReads() throws Exception {
    Path local = model("one.sdnb", WriteOptions.of(ModelFormat.SDNB));
    HdfsTestCluster.upload(local, "/trips/one.sdnb");
    Counts c = mountAndRead("/trips/one.sdnb", "/params/big/w1");
    assertEquals(new ServerCounts(1, 0, 0, 2), c.open(),
        "one listing and no open (the file read over the listed blocks); head and tail prefetched (at once), the small FlatGraph within the head");
    assertEquals(new ServerCounts(0, 0, 0, 1), c.read(), "the parameter: one positional read");
  }

  @Test
  void aSmallFileIsReadWholeByItsFirstRead() throws Exception {
    // 40 inline arrays of 4 KiB: a FlatGraph of more than 64 KiB, the file under 1 MiB
    Path local = model("small.sdnb", WriteOptions.of(ModelFormat.SDNB), 40, 1024);
    assertTrue(Files.size(local) > 160 << 10 && Files.size(local) <= ParallelReads.TAIL_APART, Files.size(local) + " bytes");
    HdfsTestCluster.upload(local, "/trips-small/small.sdnb");
    Counts c = mountAndRead("/trips-small/small.sdnb", "/params/big/w1", 4096);
    assertEquals(new ServerCounts(1, 0, 0, 1), c.open(), "one listing and no open; the whole file in one read");
    assertEquals(new ServerCounts(0, 0, 0, 0), c.read(), "the parameter lies in what was read");
  }

  @Test
  void shardSetOpensInOneListingAndNoOpen() throws Exception {
    Path local = model("set.sdnb", WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(5 << 20));
    int shards = 0;
    int ends = 0; // a shard's head, and its tail unless it lies within the head's reach (ParallelReads.TAIL_APART)
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("set\\.shard\\d+-of-\\d+\\.sdnb")) {
          HdfsTestCluster.upload(p, "/trips-set/" + p.getFileName());
          shards++;
          ends += Files.size(p) > ParallelReads.TAIL_APART ? 2 : 1;
        }
      }
    }
    assertTrue(shards >= 3, shards + " shards");
    Counts c = mountAndRead("/trips-set/set.sdnb", "/params/big/w1");
    assertEquals(new ServerCounts(1, 0, 0, ends), c.open(),
        "one listing and no open (every shard read over the listed blocks), then every shard's ends (at once) and nothing else");
    assertEquals(new ServerCounts(0, 0, 0, 1), c.read(), "the parameter: one positional read");
  }
}
