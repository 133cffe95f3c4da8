package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * A mount of a model in HDFS reads the index at open and a parameter's bytes per parameter read,
 * counted at the client (Hadoop's own statistics of the {@code hdfs} scheme: every byte a
 * {@code DFSInputStream} returned). The model: an SDNB of 16 FLOAT parameters of 4 MiB each
 * (64 MiB). Open + walk + every node's attributes + one 4 MiB parameter ≤ 1 MiB + that parameter.
 */
class ReadLazinessTest {
  static final int PARAMS = 16;
  static final int ELEMENTS = 1 << 20;
  @TempDir Path tmp;

  private static long bytesRead() {
    long n = 0;
    for (Statistics s : org.apache.hadoop.fs.FileSystem.getAllStatistics()) {
      if (s.getScheme().equals("hdfs")) {
        n += s.getBytesRead();
      }
    }
    return n;
  }

  @Test
  void openWalkAndOneParameterReadLittleMoreThanTheParameter() throws Exception {
    Path data = tmp.resolve("big.data");
    var synthetic = SyntheticModels.floats(data, PARAMS, ELEMENTS);
    Path local = tmp.resolve("big.sdnb");
    try (var src = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), local, WriteOptions.of(ModelFormat.SDNB));
    }
    Files.delete(data);
    long size = Files.size(local);
    assertTrue(size >= 64L << 20, "a model of at least 64 MiB: " + size);
    HdfsTestCluster.upload(local, "/lazy/big.sdnb");
    byte[] expected;
    try (FileSystem fs = ModelFileSystems.open(local, Map.of("readOnly", "true"))) {
      expected = Files.readAllBytes(fs.getPath("/params/big/w3"));
    }

    long before = bytesRead();
    long index;
    byte[] got;
    try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path("/lazy/big.sdnb"), Map.of("readOnly", "true"))) {
      List<Path> all;
      try (var walk = Files.walk(fs.getPath("/"))) {
        all = walk.toList();
      }
      for (Path p : all) {
        Files.readAttributes(p, BasicFileAttributes.class);
      }
      index = bytesRead() - before;
      got = Files.readAllBytes(fs.getPath("/params/big/w3"));
    }
    long total = bytesRead() - before;
    System.out.printf("open + walk + attributes of a %d MiB SDNB in HDFS: %d bytes read; + one %d MiB parameter:"
        + " %d bytes%n", size >> 20, index, expected.length >> 20, total);
    assertArrayEquals(expected, got);
    assertTrue(index <= 1 << 20, "open + walk read " + index + " bytes");
    assertTrue(total <= (1 << 20) + expected.length, "open + walk + one parameter read " + total + " bytes");
  }
}
