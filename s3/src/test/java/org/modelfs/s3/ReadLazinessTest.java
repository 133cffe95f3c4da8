package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.FloatPattern;

/**
 * A mount of a model in the store fetches the index at open and about a parameter's bytes per
 * parameter read, counted at the server (docs/OBJECT-STORES.md "Reads"). The model: an SDNB of
 * {@value #PARAMS} FLOAT parameters of 4 MiB each (64 MiB), whose index is a few KiB at its start.
 */
class ReadLazinessTest {
  static final int PARAMS = 16;
  static final int ELEMENTS = 1 << 20;
  static final long P = 4L * ELEMENTS;
  static final long BLOCK = ObjectSource.BLOCK;

  static S3TestServer s3;
  @TempDir static Path tmp;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3TestServer.start();
    Path model = tmp.resolve("big.sdnb");
    TestModels.floats(model, PARAMS, ELEMENTS, TestModels.options("sdnb"));
    assertTrue(Files.size(model) >= 64L << 20, "a model of at least 64 MiB: " + Files.size(model));
    s3.upload(model, "lazy/big.sdnb");
    Files.delete(model);
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  /**
   * Open + walk + every node's attributes fetch the index only. An SDNB is a header and the
   * FlatGraph at its start, then the blobs, then a manifest at its end (docs/FORMATS.md §5); the
   * index is read with small reads, each fetching its aligned block ({@code ObjectSource.BLOCK},
   * 256 KiB by default) into the cache. Bounds: 2 GETs and 2 blocks (the first block, which
   * holds header and graph here, and the last, which holds the manifest); no LIST; one HEAD, by
   * the backing (the ETag, size and time every read is pinned to and the mount shows) — nothing
   * is asked of the AWS NIO provider.
   */
  @Test
  void openAndListingFetchOnlyTheIndex() throws Exception {
    s3.resetCounts();
    int nodes;
    try (FileSystem fs = mount()) {
      nodes = walkWithAttributes(fs);
    }
    long bytes = s3.bytesServed();
    System.out.printf("open + walk + attributes of %d nodes: %d requests (%d GET, %d HEAD, %d LIST), %d bytes"
        + " (block %d)%n", nodes, s3.requests(), s3.gets(), s3.heads(), s3.lists(), bytes, BLOCK);
    assertTrue(nodes > PARAMS, "the tree was walked: " + nodes);
    assertTrue(s3.gets() <= 2, "GETs: " + s3.gets());
    assertEquals(1, s3.heads(), "HEADs");
    assertEquals(0, s3.lists(), "LISTs");
    assertTrue(bytes <= 2 * BLOCK, "bytes: " + bytes);
  }

  /** One parameter read with one big read fetches its bytes and at most two blocks more. */
  @Test
  void oneParameterReadWhole() throws Exception {
    try (FileSystem fs = mount()) {
      walkWithAttributes(fs);
      s3.resetCounts();
      byte[] got = Files.readAllBytes(fs.getPath("/params/big/w7"));
      report("Files.readAllBytes of one " + P + "-byte parameter");
      assertArrayEquals(FloatPattern.bytes(7, 0, (int) P), got);
      assertTrue(s3.bytesServed() <= P + 2 * BLOCK, "bytes: " + s3.bytesServed());
    }
  }

  /**
   * One parameter copied through an 8 KiB buffer ({@code Files.copy} to a stream): the reads walk
   * forward, and each fetch doubles the last (up to {@code modelfs.s3.max-fetch}), so the last
   * fetch may reach past the parameter's end by less than what was read before it: at most
   * {@code P + min(P, max-fetch) + 2} blocks.
   */
  @Test
  void oneParameterCopiedThroughASmallBuffer() throws Exception {
    try (FileSystem fs = mount()) {
      walkWithAttributes(fs);
      s3.resetCounts();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertEquals(P, Files.copy(fs.getPath("/params/big/w9"), out));
      report("Files.copy (8 KiB buffer) of one " + P + "-byte parameter");
      assertArrayEquals(FloatPattern.bytes(9, 0, (int) P), out.toByteArray());
      assertTrue(s3.bytesServed() <= P + Math.min(P, ObjectSource.MAX_FETCH) + 2 * BLOCK,
          "bytes: " + s3.bytesServed());
      assertTrue(s3.gets() <= 2 + Math.ceil(Math.log((double) P / BLOCK) / Math.log(2)) + P / ObjectSource.MAX_FETCH,
          "GETs: " + s3.gets());
    }
  }

  private static void report(String what) {
    System.out.printf("%s: %d requests (%d GET), %d bytes (%.3f × the parameter)%n", what, s3.requests(), s3.gets(),
        s3.bytesServed(), s3.bytesServed() / (double) P);
  }

  private static FileSystem mount() throws IOException {
    return ModelFileSystems.open(s3.path("lazy/big.sdnb"), Map.of("readOnly", "true"));
  }

  /** Walks the tree reading every node's attributes; returns the number of nodes. */
  private static int walkWithAttributes(FileSystem fs) throws IOException {
    int n = 0;
    try (Stream<Path> s = Files.walk(fs.getPath("/"))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.readAttributes(p, "samediff:*");
        n++;
      }
    }
    return n;
  }
}
