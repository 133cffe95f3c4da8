package org.modelfs.model;

import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.OutputStream;
import org.junit.jupiter.api.Assertions;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.SliceSource;
import org.modelfs.io.ChannelSource;

import org.modelfs.io.ByteSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;

/**
 * Array copies as the writers do them — raw, byte-swapped, from a zip slice, across file
 * systems, into a stream — and the bulk element swap against a byte-at-a-time loop.
 */
class ArrayStreamsTest {
  @TempDir Path tmp;

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** The reference: every {@code width}-byte element of {@code b} reversed. */
  private static byte[] swapped(byte[] b, int from, int to, int width) {
    byte[] out = b.clone();
    for (int i = from; i + width <= to; i += width) {
      for (int k = 0; k < width; k++) {
        out[i + k] = b[i + width - 1 - k];
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 8})
  void bulkSwapEqualsTheByteLoop(int width) {
    byte[] data = random(3 * 1024 + 40, width);
    for (boolean direct : new boolean[] {false, true}) {
      for (int from : new int[] {0, 3, 8, 17}) {
        int to = from + (data.length - from - 5) / width * width;
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
        b.put(data).position(7).limit(data.length - 1);
        ArrayStreams.swap(b, from, to, width);
        assertEquals(7, b.position(), "position untouched");
        assertEquals(data.length - 1, b.limit(), "limit untouched");
        byte[] got = new byte[data.length];
        b.clear().get(got);
        assertArrayEquals(swapped(data, from, to, width), got, "width " + width + " from " + from + " direct " + direct);
      }
    }
  }

  /** A file holding {@code prefix} junk bytes, then the array. */
  private Path file(Path dir, String name, byte[] prefix, byte[] array) throws IOException {
    Path f = dir.resolve(name);
    Files.write(f, prefix);
    Files.write(f, array, StandardOpenOption.APPEND);
    return f;
  }

  private static ArrayData array(ByteSource src, long offset, int length, DType t, boolean bigEndian) {
    return new ArrayData(t, new long[] {length / t.width()}, 'c', false, src, offset, length, bigEndian,
        bigEndian ? ArrayData.Storage.BIG_ENDIAN : ArrayData.Storage.RAW);
  }

  /** Writes {@code head}, then the array, then {@code tail}, as the writers do; returns the file's bytes. */
  private static byte[] copyInto(Path target, ArrayData a, boolean bigEndianOut) throws IOException {
    try (FileChannel ch = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      CountingOutput out = new CountingOutput(ch);
      out.write(new byte[] {1, 2, 3});
      if (bigEndianOut) {
        ArrayStreams.copyBigEndian(a, out);
      } else {
        ArrayStreams.copyLittleEndian(a, out);
      }
      out.write(new byte[] {4, 5});
      assertEquals(3 + a.length() + 2, out.position(), "every byte counted");
      assertEquals(out.position(), ch.position(), "the channel is where the count says");
    }
    return Files.readAllBytes(target);
  }

  private static byte[] framed(byte[] array) {
    byte[] out = new byte[array.length + 5];
    out[0] = 1;
    out[1] = 2;
    out[2] = 3;
    System.arraycopy(array, 0, out, 3, array.length);
    out[out.length - 2] = 4;
    out[out.length - 1] = 5;
    return out;
  }

  @Test
  void arraysAreCopiedExactlyAndSwappedWhenTheOrderChanges() throws IOException {
    byte[] array = random(3 * ArrayStreams.CHUNK + 12, 1); // more than one buffer, not a multiple
    Path src = file(tmp, "src.bin", random(1001, 2), array);
    try (ChannelSource s = ChannelSource.open(src)) {
      ArrayData a = array(s, 1001, array.length, DType.FLOAT, false);
      assertArrayEquals(framed(array), copyInto(tmp.resolve("out1"), a, false));
      // big-endian to big-endian: no conversion
      ArrayData be = array(s, 1001, array.length, DType.FLOAT, true);
      assertArrayEquals(framed(array), copyInto(tmp.resolve("out2"), be, true));
      // a conversion swaps every element
      assertArrayEquals(framed(swapped(array, 0, array.length, 4)), copyInto(tmp.resolve("out3"), be, false));
      ArrayData d = array(s, 1001, array.length, DType.DOUBLE, false);
      assertArrayEquals(framed(swapped(array, 0, array.length, 8)), copyInto(tmp.resolve("out4"), d, true));
    }
  }

  @Test
  void aSourceShorterThanTheArrayIsAnEofNamingIt() throws IOException {
    byte[] array = random(200_000, 11);
    Path src = file(tmp, "short.bin", new byte[0], array);
    try (ChannelSource s = ChannelSource.open(src)) {
      for (boolean bigEndian : new boolean[] {false, true}) { // kernel transfer, then the buffer path
        ArrayData a = array(s, 0, array.length + 4096, DType.FLOAT, bigEndian);
        EOFException e = Assertions.assertThrows(EOFException.class,
            () -> copyInto(tmp.resolve("out"), a, false));
        Assertions.assertTrue(e.getMessage().contains("short.bin")
            && e.getMessage().contains("offset 200000"), e.getMessage());
      }
    }
  }

  @Test
  void aSliceOfAZipIsCopiedFromItsPlaceInTheParent() throws IOException {
    byte[] array = random(100_000, 3);
    Path src = file(tmp, "zip.bin", random(77, 4), array);
    try (ChannelSource s = ChannelSource.open(src)) {
      SliceSource slice = new SliceSource(s, "zip!entry", 70, 7 + array.length);
      assertArrayEquals(framed(array), copyInto(tmp.resolve("out"), array(slice, 7, array.length, DType.INT32, false), false));
    }
  }

  @Test
  void otherFileSystemsWorkToo() throws IOException {
    byte[] array = random(2 * ArrayStreams.CHUNK + 5, 5);
    try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
      Path dir = Files.createDirectory(jimfs.getPath("/d"));
      Path src = file(dir, "src.bin", random(9, 6), array);
      try (ChannelSource s = ChannelSource.open(src)) {
        ArrayData a = array(s, 9, array.length, DType.INT8, false);
        assertArrayEquals(framed(array), copyInto(tmp.resolve("fromJimfs"), a, false), "jimfs → disk");
        assertArrayEquals(framed(array), copyInto(dir.resolve("toJimfs"), a, false), "jimfs → jimfs");
      }
      Path disk = file(tmp, "disk.bin", random(9, 7), array);
      try (ChannelSource s = ChannelSource.open(disk)) {
        assertArrayEquals(framed(array), copyInto(dir.resolve("fromDisk"), array(s, 9, array.length, DType.INT8, false), false),
            "disk → jimfs");
      }
    }
  }

  @Test
  void aStreamOutputTakesHeapAndDirectBuffersWhole() throws IOException {
    byte[] data = random(3 * (1 << 20) + 3, 9);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int[] calls = {0};
    OutputStream counting = new FilterOutputStream(bytes) {
      @Override
      public void write(byte[] b, int off, int len) {
        calls[0]++;
        bytes.write(b, off, len);
      }
    };
    CountingOutput out = new CountingOutput(counting);
    ByteBuffer heap = ByteBuffer.wrap(data, 0, data.length / 2).slice();
    assertEquals(heap.capacity(), out.write(heap));
    assertEquals(0, heap.remaining());
    assertEquals(1, calls[0], "a heap buffer is one write");
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length - data.length / 2);
    direct.put(data, data.length / 2, direct.capacity()).flip();
    assertEquals(direct.capacity(), out.write(direct));
    assertEquals(data.length, out.position());
    assertArrayEquals(data, bytes.toByteArray());
  }
}
