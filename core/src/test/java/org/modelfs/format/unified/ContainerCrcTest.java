package org.modelfs.format.unified;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;

/**
 * A stored chunk's CRC is checked by every reader that reads it in order, whatever other readers
 * did before (docs/FORMATS.md §13.6): a short read at a chunk's start by one reader never lets a
 * later copy, commit or channel pass the chunk unchecked. {@code layer0/W} is laid out in 64-byte
 * chunks (the reader accepts any chunk size; the writer's are 64 MiB) and byte 10 of its first
 * chunk is changed.
 */
class ContainerCrcTest {
  private static final String W = "layer0/W";
  @TempDir Path dir;

  private Path corrupt() throws IOException {
    byte[] f = Containers.sample(false, false);
    byte[] raw = ContainerIndexBadInputTest.wBytes(f);
    byte[] chunked = ContainerIndexBadInputTest.relayout(f, W, c -> pieces(raw, 64), 64);
    ArrayIndex.Entry w = Containers.readIndex(Containers.sections(chunked).get(Containers.find(
        Containers.sections(chunked), ContainerLayout.SectionType.ARRAYS, 0))).stream()
        .filter(e -> e.name().equals(W) && e.updaterKey() == null).findFirst().orElseThrow();
    assertEquals(raw.length / 64, w.chunks(), "the array in 64-byte chunks");
    Path good = Files.write(dir.resolve("good.sdmc"), chunked);
    try (Model m = Models.open(good)) {
      assertArrayEquals(raw, readAll(m.newest().variable(W).array()), "the re-chunked array reads as before");
    }
    chunked[(int) w.offsets()[0] + 10] ^= 0x40;
    return Files.write(dir.resolve("m.sdmc"), chunked);
  }

  private static List<byte[]> pieces(byte[] raw, int size) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < raw.length; i += size) {
      out.add(Arrays.copyOfRange(raw, i, Math.min(raw.length, i + size)));
    }
    return out;
  }

  private static byte[] readAll(ArrayData a) throws IOException {
    ByteBuffer b = ByteBuffer.allocate((int) a.length());
    a.source().readFully(b, a.offset());
    return b.array();
  }

  @Test
  void aCopyAfterAShortReadStillChecksTheChunk() throws IOException {
    Path m = corrupt();
    try (Model model = Models.open(m)) {
      ArrayData a = model.newest().variable(W).array();
      a.source().readFully(ByteBuffer.allocate(3), a.offset()); // a peek at the chunk's start
      IOException e = assertThrows(IOException.class,
          () -> ModelFiles.write(model.newest(), dir.resolve("out.sdnb"), WriteOptions.of(ModelFormat.SDNB)));
      assertTrue(e.getMessage().contains("chunk 0") && e.getMessage().contains("CRC-32C mismatch"), e.getMessage());
    }
  }

  @Test
  void aMountCommitAfterAPeekIsRefusedAndTheModelKept() throws IOException {
    Path m = corrupt();
    byte[] before = Files.readAllBytes(m);
    IOException e = assertThrows(IOException.class, () -> {
      try (FileSystem fs = ModelFileSystems.open(m)) {
        try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/tags/default/params/" + W))) {
          ch.read(ByteBuffer.allocate(3));
        }
        Files.write(fs.getPath("/tags/default/params/layer0/b"), new byte[32]);
      }
    });
    assertTrue(e.getMessage().contains("CRC-32C mismatch"), e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(m), "nothing replaced");
  }

  @Test
  void eachChannelChecksWhatItReadsInOrder() throws IOException {
    Path m = corrupt();
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", "true"))) {
      Path p = fs.getPath("/tags/default/params/" + W);
      try (SeekableByteChannel peek = Files.newByteChannel(p)) {
        peek.read(ByteBuffer.allocate(3));
        IOException e = assertThrows(IOException.class, () -> Files.readAllBytes(p));
        assertTrue(e.getMessage().contains("chunk 0"), e.getMessage());
        // the peeking channel itself, going on in order, finds it too
        IOException again = assertThrows(IOException.class, () -> {
          ByteBuffer rest = ByteBuffer.allocate(128);
          while (peek.read(rest) > 0 && rest.hasRemaining()) {
            // read on
          }
        });
        assertTrue(again.getMessage().contains("chunk 0"), again.getMessage());
      }
      // random reads of other chunks still work
      try (SeekableByteChannel ch = Files.newByteChannel(p)) {
        ch.position(64);
        assertEquals(64, ch.read(ByteBuffer.allocate(64)));
      }
    }
  }
}
