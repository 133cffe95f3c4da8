package org.modelfs.provider;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ByteSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * {@code FileChannel.map(READ_ONLY)} on a parameter (docs/FILESYSTEM.md §5): for an array stored raw
 * (SDNB blob, STORED SDZ entry) it is a mapping of the container file itself — same bytes at the
 * array's offset, and a change made to the container shows through it; big-endian and deflated
 * arrays map a little-endian copy.
 */
class MapTest {
  private static final int ELEMENTS = 300_000; // 1.2 MB each: appended as SDNB blobs
  @TempDir Path tmp;

  private Path write(String format) throws IOException {
    WriteOptions opts = switch (format) {
      case "sdnb" -> WriteOptions.of(ModelFormat.SDNB);
      case "sdz" -> WriteOptions.of(ModelFormat.SDZ);
      case "sdz-deflate" -> WriteOptions.of(ModelFormat.SDZ).withDeflate(true);
      case "fb" -> WriteOptions.of(ModelFormat.FB);
      case "sharded" -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(2_000_000);
      case "zip-tags" -> WriteOptions.of(ModelFormat.ZIP_TAGS);
      case "container" -> WriteOptions.of(ModelFormat.CONTAINER);
      case "container-sharded" -> WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(2_000_000);
      default -> throw new IllegalArgumentException(format);
    };
    Path out = tmp.resolve("m." + (format.startsWith("sdz") ? "sdz" : format.equals("fb") ? "fb"
        : format.equals("zip-tags") ? "zip" : format.startsWith("container") ? "sdmc" : "sdnb"));
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), 3, ELEMENTS);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), out, opts);
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdz", "sharded", "zip-tags", "container", "container-sharded"})
  void rawArraysMapTheContainerItself(String format) throws IOException {
    Path model = write(format);
    long absolute;
    Path file;
    try (Model m = Models.open(model)) {
      ArrayData a = m.newest().variable("big/w1").array();
      assertEquals("raw", a.storage().label());
      ByteSource.Mappable where = a.source().mappable(a.offset());
      absolute = where.position();
      file = format.endsWith("sharded") ? shardHolding(model, a) : model;
    }
    assertEquals(0, absolute % 64, "blobs are 64-aligned in the file");
    try (FileSystem fs = ModelFileSystems.open(model);
        FileChannel ch = FileChannel.open(fs.getPath("/params/big/w1"))) {
      MappedByteBuffer map = ch.map(MapMode.READ_ONLY, 0, ch.size());
      assertEquals(4L * ELEMENTS, map.capacity());
      byte[] container = new byte[map.capacity()];
      try (FileChannel raw = FileChannel.open(file)) {
        raw.read(ByteBuffer.wrap(container), absolute);
      }
      byte[] mapped = new byte[map.capacity()];
      map.get(mapped);
      assertArrayEquals(container, mapped);
      assertArrayEquals(FloatPattern.bytes(1, 0, mapped.length), mapped);
      assertEquals(1, ((ModelFileSystem) fs).resources().count(), "no cache copy was made");

      // Zero copy: the mapping shares the container's pages, so a change to the file shows.
      try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
        w.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), absolute + 40);
      }
      assertEquals(1, map.get(40));
      assertEquals(4, map.get(43));
    }
  }

  /** The shard file whose bytes hold {@code a} (its source name is the shard's file name). */
  private static Path shardHolding(Path base, ArrayData a) {
    return base.resolveSibling(a.source().name());
  }

  @ParameterizedTest
  @ValueSource(strings = {"fb", "sdz-deflate"})
  void convertedArraysMapALittleEndianCopy(String format) throws IOException {
    Path model = write(format);
    try (FileSystem fs = ModelFileSystems.open(model);
        FileChannel ch = FileChannel.open(fs.getPath("/params/big/w2"))) {
      String stored = (String) Files.getAttribute(fs.getPath("/params/big/w2"), "samediff:stored");
      assertEquals(format.equals("fb") ? "big-endian" : "deflated", stored);
      MappedByteBuffer map = ch.map(MapMode.READ_ONLY, 4000, 8000);
      byte[] got = new byte[8000];
      map.get(got);
      assertArrayEquals(FloatPattern.bytes(2, 4000, 8000), got);
      assertArrayEquals(Files.readAllBytes(fs.getPath("/params/big/w2")),
          bytes(ch.map(MapMode.READ_ONLY, 0, ch.size())));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "fb"})
  void windowsOfAMappingMatchChannelReads(String format) throws IOException {
    Path model = write(format);
    try (FileSystem fs = ModelFileSystems.open(model);
        FileChannel ch = FileChannel.open(fs.getPath("/tags/default/params/big/w0"))) {
      for (long pos : new long[] {0, 1, 3, 4095, 4096, 1_000_001, 4L * ELEMENTS - 7}) {
        int len = (int) Math.min(5000, 4L * ELEMENTS - pos);
        ByteBuffer viaRead = ByteBuffer.allocate(len);
        while (viaRead.hasRemaining()) {
          ch.read(viaRead, pos + viaRead.position());
        }
        assertArrayEquals(viaRead.array(), bytes(ch.map(MapMode.READ_ONLY, pos, len)), "at " + pos);
        assertArrayEquals(FloatPattern.bytes(0, pos, len), viaRead.array(), "at " + pos);
      }
      assertTrue(ch.map(MapMode.READ_ONLY, 0, 0).capacity() == 0);
    }
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }
}
