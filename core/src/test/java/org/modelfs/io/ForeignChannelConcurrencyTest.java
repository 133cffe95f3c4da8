package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.testing.ParallelReads;

/**
 * A container on a file system other than the default one is read safely by many threads
 * through one {@link ChannelSource}, even when that provider's {@code FileChannel} positional
 * read is a position-then-read without a lock (the S3 NIO provider's is): the source never
 * reads such a channel positionally from two threads, and never offers it for mapping.
 */
class ForeignChannelConcurrencyTest {
  static final int SIZE = 4 << 20;
  static final int THREADS = 8;
  static final int READS = 400;
  static final int READ = 4096;

  @TempDir Path tmp;

  @Test
  void concurrentReadsOfAnUnlockedPositionalChannelGetTheirOwnBytes() throws Exception {
    Path file = tmp.resolve("container.bin");
    ByteBuffer content = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < SIZE / 4; i++) {
      content.putInt(i * 4); // every int is its own offset: a read from elsewhere shows
    }
    Files.write(file, content.array());
    Path racy = new RacyFileSystem().wrap(file);
    int wrong;
    try (ChannelSource src = ChannelSource.open(racy)) {
      wrong = ParallelReads.wrong(THREADS, READS, READ, (random, buf) -> {
        int pos = random.nextInt((SIZE - READ) / 4) * 4;
        src.readFully(buf, pos);
        buf.flip();
        for (int i = 0; i < READ / 4; i++) {
          if (buf.getInt() != pos + 4 * i) {
            return false;
          }
        }
        return true;
      });
    }
    System.out.printf("%d threads × %d random %d-byte reads through one source: %d wrong%n", THREADS, READS, READ,
        wrong);
    assertEquals(0, wrong, "reads that got bytes from another position");
  }

  @Test
  void anotherProvidersChannelIsNeverMapped() throws Exception {
    Path file = tmp.resolve("container.bin");
    Files.write(file, new byte[READ]);
    try (ChannelSource src = ChannelSource.open(new RacyFileSystem().wrap(file))) {
      assertNull(src.mappable(0), "a map() of its bytes is a copy, not the provider's map()");
    }
  }
}
