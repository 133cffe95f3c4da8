package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A window mapped before its file grew is mapped again at the new size (found by the issue-18
 * review).
 */
class WindowGrowTest {
  @TempDir Path tmp;

  @Test
  void aWindowMappedBeforeTheFileGrewIsMappedAgain() throws Exception {
    Path f = tmp.resolve("j");
    Files.write(f, new byte[1_500_000]);
    try (ChannelSource src = ChannelSource.open(f)) {
      ByteBuffer w = src.window(0, 1 << 20);
      try (var ch = FileChannel.open(f, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
        ch.write(ByteBuffer.wrap(new byte[1_500_000]));
      }
      ByteBuffer w2 = src.window(2L << 20, 1 << 20); // the file holds 3,000,000 bytes now
      // the window mapped at 1,500,000 bytes is mapped again at the file's new size
      assertEquals(3_000_000 - (2 << 20), w2.remaining(), "the bytes past the old end, up to the file's end");
      assertEquals(1 << 20, w.remaining());
    }
  }
}
