package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.VersionedModel;

/**
 * What a commit uploads and what a read downloads, counted in the requests' bodies as the
 * service receives and sends them ({@link BlobStore#UPLOADED}, {@link BlobStore#DOWNLOADED}: a
 * pipeline policy of the SDK client sums their Content-Lengths): a 1 KiB change of a model as one
 * blob uploads at most two 4 MiB blocks (the service composes the rest from the blob's committed
 * blocks); of a shard set, the changed shard, the graph shard and the pointer; open + walk + one
 * 4 MiB parameter reads at most 1 MiB besides that parameter.
 */
class CommitCostTest extends AzureTest {
  private static final int MIB = 1 << 20;

  /** Writes 1 KiB of {@code value}s at byte {@code at} (1 MiB) of parameter {@code name}; returns what the commit uploaded. */
  private static long change(Path model, Map<String, String> env, String name, int value) throws Exception {
    return change(model, env, name, value, MIB);
  }

  private static long change(Path model, Map<String, String> env, String name, int value, long at) throws Exception {
    FileSystem fs = ModelFileSystems.open(model, env);
    try (FileChannel ch = FileChannel.open(fs.getPath("/params/big/" + name), StandardOpenOption.WRITE)) {
      byte[] b = new byte[1024];
      Arrays.fill(b, (byte) value);
      ch.write(ByteBuffer.wrap(b), at);
    }
    long before = BlobStore.UPLOADED.get();
    fs.close();
    return BlobStore.UPLOADED.get() - before;
  }

  private static byte[] param(Path model, Map<String, String> env, String name) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model, env)) {
      return Files.readAllBytes(fs.getPath("/params/big/" + name));
    }
  }

  @Test
  void aSmallChangeOfOneBlobUploadsABlockOrTwo() throws Exception {
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 8, MIB, 0); // 8 × 4 MiB
    upload(local, "cost1/m.sdnb");
    Path model = path("cost1/m.sdnb");
    long first = change(model, Map.of(), "w1", 7);
    // a blob not written by ModelFS is uploaded whole once — each distinct block once: this model's
    // blocks of zeros are one block
    assertTrue(first > 0 && first <= Files.size(local) + 64 * 1024, "the first commit uploaded " + first);
    long second = change(model, Map.of(), "w5", 9);
    System.out.printf("azure single blob of %d MiB: first commit uploaded %.1f MiB, a 1 KiB change %.1f MiB%n",
        Files.size(local) >> 20, first / (double) MIB, second / (double) MIB);
    assertTrue(second <= 2L * BlockUpload.blockBytes() + 64 * 1024, "a 1 KiB change uploaded " + second + " bytes");
    byte[] w5 = param(model, Map.of("readOnly", "true"), "w5");
    assertEquals(9, w5[MIB]);
    assertEquals(9, w5[MIB + 1023]);
    assertEquals(0, w5[MIB + 1024]);
    assertEquals(7, param(model, Map.of("readOnly", "true"), "w1")[MIB]);
    assertEquals(List.of("cost1/m.sdnb"), keys("cost1/"));
  }

  @Test
  void aSmallChangeOfAShardSetUploadsTheChangedShardTheGraphShardAndThePointer() throws Exception {
    long shard = 5L * MIB / 4;
    Map<String, String> env = Map.of("format", "sdnb-sharded", "maxShardBytes", String.valueOf(shard));
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 6, MIB / 4, shard); // 6 × 1 MiB
    uploadShards("cost2/");
    Path model = path("cost2/m.sdnb");
    change(model, env, "w0", 3, MIB / 2); // the first commit: every shard into a generation, the pointer
    long largest = 0;
    long graph = Long.MAX_VALUE;
    for (String k : keys("cost2/m.sdnb.modelfs-g")) {
      long size = container.getBlobClient(k).getProperties().getBlobSize();
      largest = Math.max(largest, size);
      graph = Math.min(graph, size);
    }
    long second = change(model, env, "w4", 5, MIB / 2);
    System.out.printf("azure shard set: a 1 KiB change uploaded %.2f MiB (largest shard %.2f MiB)%n",
        second / (double) MIB, largest / (double) MIB);
    assertTrue(second <= largest + graph + 64 * 1024, "a 1 KiB change uploaded " + second + " bytes");
    assertEquals(5, param(model, Map.of("readOnly", "true"), "w4")[MIB / 2]);
    assertEquals(3, param(model, Map.of("readOnly", "true"), "w0")[MIB / 2]);
    assertEquals(0, param(model, Map.of("readOnly", "true"), "w2")[MIB / 2]);
  }

  @Test
  void openWalkAndOneParameterReadLittleBesideIt() throws Exception {
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 8, MIB, 0);
    upload(local, "lazy/m.sdnb");
    long before = BlobStore.DOWNLOADED.get();
    byte[] w;
    try (FileSystem fs = ModelFileSystems.open(path("lazy/m.sdnb"), Map.of("readOnly", "true"))) {
      try (var walk = Files.walk(fs.getPath("/"))) {
        for (Path p : (Iterable<Path>) walk::iterator) {
          Files.readAttributes(p, BasicFileAttributes.class);
        }
      }
      w = Files.readAllBytes(fs.getPath("/params/big/w3"));
    }
    long read = BlobStore.DOWNLOADED.get() - before;
    System.out.printf("azure open + walk + one %d MiB parameter of a %d MiB blob: %.2f MiB downloaded%n",
        w.length >> 20, Files.size(local) >> 20, read / (double) MIB);
    assertEquals(4 * MIB, w.length);
    assertTrue(read <= MIB + w.length, read + " bytes read");
  }
}
