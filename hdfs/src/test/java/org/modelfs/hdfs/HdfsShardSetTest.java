package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.VersionedModel;

/**
 * A small change of a shard set in HDFS uploads the changed shards only: the unchanged weight
 * shards keep their inodes (neither written, renamed nor deleted), the bytes written (Hadoop's
 * statistics at the client) are those of the rewritten shards, and the model reads back whole.
 */
class HdfsShardSetTest {
  @TempDir Path tmp;

  private static Map<String, FileStatus> shards(String dir) throws Exception {
    Map<String, FileStatus> out = new HashMap<>();
    for (FileStatus s : HdfsTestCluster.admin().listStatus(new org.apache.hadoop.fs.Path(dir))) {
      out.put(s.getPath().getName(), s);
    }
    return out;
  }

  private static long bytesWritten() {
    long n = 0;
    for (var s : org.apache.hadoop.fs.FileSystem.getAllStatistics()) {
      if (s.getScheme().equals("hdfs")) {
        n += s.getBytesWritten();
      }
    }
    return n;
  }

  @Test
  void oneChangedParameterRewritesItsShardAndTheGraphShardOnly() throws Exception {
    long shard = 40 * 1024;
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 8, 16 * 1024, shard);
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("m\\.shard\\d+-of-\\d+\\.sdnb")) {
          HdfsTestCluster.upload(p, "/kept/" + p.getFileName());
        }
      }
    }
    Map<String, FileStatus> before = shards("/kept");
    assertTrue(before.size() > 3, before.keySet().toString());
    long written = bytesWritten();
    byte[] seven = new byte[16 * 1024 * 4];
    Arrays.fill(seven, (byte) 7);
    try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path("/kept/m.sdnb"), Map.of("format", "sdnb-sharded",
        "maxShardBytes", String.valueOf(shard)))) {
      Files.write(fs.getPath("/params/big/w0"), seven);
    }
    long uploaded = bytesWritten() - written;
    Map<String, FileStatus> after = shards("/kept");
    assertEquals(before.keySet(), after.keySet(), "the same shard names, nothing else left");
    long rewritten = 0;
    int changed = 0;
    for (String n : after.keySet()) {
      if (((HdfsFileStatus) after.get(n)).getFileId() != ((HdfsFileStatus) before.get(n)).getFileId()) {
        changed++;
        rewritten += after.get(n).getLen();
      }
    }
    System.out.printf("one 64 KiB parameter of a %d-shard set changed: %d shards rewritten (%d bytes), %d bytes"
        + " written to HDFS%n", after.size(), changed, rewritten, uploaded);
    assertTrue(changed <= 2 && changed < after.size(), changed + " of " + after.size() + " shards rewritten");
    assertTrue(uploaded <= rewritten + 4096, uploaded + " bytes written for " + rewritten + " bytes of new shards");
    try (FileSystem fs = ModelFileSystems.open(HdfsTestCluster.path("/kept/m.sdnb"), Map.of("readOnly", "true"))) {
      assertArrayEquals(seven, Files.readAllBytes(fs.getPath("/params/big/w0")));
      byte[] zero = new byte[seven.length];
      assertArrayEquals(zero, Files.readAllBytes(fs.getPath("/params/big/w5")));
    }
  }
}
