package org.modelfs.format.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.ChildJvm;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * DEFLATED zip entries are inflated only when a read needs their bytes (docs/FORMATS.md §9.1):
 * opening and {@code info} read the index only and write nothing, and reads at any position of a
 * deflated array give the array's bytes.
 */
class LazyInflateTest {
  @TempDir Path tmp;

  /** The two zip formats, written DEFLATED. */
  enum Zip {
    SDZ(ModelFormat.SDZ, "m.sdz"),
    ZIP_TAGS(ModelFormat.ZIP_TAGS, "m.zip");

    final ModelFormat format;
    final String file;

    Zip(ModelFormat format, String file) {
      this.format = format;
      this.file = file;
    }
  }

  private Path write(Zip zip, int count, int elements) throws Exception {
    Path model = tmp.resolve(zip.file);
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), count, elements);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(zip.format).withDeflate(true));
    }
    Files.delete(tmp.resolve("data.bin"));
    return model;
  }

  /**
   * {@code info} of a deflated model of 2,000 arrays (32 MiB inflated) in a child JVM of 64 MiB
   * whose {@code java.io.tmpdir} does not exist: any temporary file fails the command, and so
   * would holding the arrays in the heap.
   */
  @ParameterizedTest
  @EnumSource(Zip.class)
  void infoReadsTheIndexOnlyAndWritesNothing(Zip zip) throws Exception {
    Path model = write(zip, 2000, 4096);
    Path noTemp = tmp.resolve("no-such-tmpdir");
    ChildJvm.Result r = ChildJvm.run(tmp.resolve("info.log"), 120,
        List.of("-Xmx64m", "-Djava.io.tmpdir=" + noTemp), Main.class, "info", model.toString());
    assertEquals(0, r.exit(), "info failed:\n" + r.output());
    assertTrue(r.output().contains("deflated"), r.output());
    assertTrue(r.output().contains("big/w1999"), r.output());
    assertFalse(Files.exists(noTemp));
  }

  /**
   * Reads of one deflated array at positions going back and forth (restarting the inflater
   * from the entry's start), across 4 KiB blocks and past the 16 MiB block cache, equal
   * the array's bytes; so does a whole sequential read.
   */
  @ParameterizedTest
  @EnumSource(Zip.class)
  void randomPositionReadsOfADeflatedArrayGiveItsBytes(Zip zip) throws Exception {
    int elements = 5 << 20; // 20 MiB: more than the block cache holds
    Path model = write(zip, 1, elements);
    long size = 4L * elements;
    Random random = new Random(15);
    try (FileSystem fs = ModelFileSystems.open(model);
        SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/params/big/w0"))) {
      assertEquals(size, ch.size());
      List<Long> positions = Stream.concat(
          Stream.of(size - 4, 0L, (4L << 10) - 2, size / 2 + 1, 17L << 20, 3L, size - 70_000),
          random.longs(12, 0, size - 1).boxed()).toList();
      for (long pos : positions) {
        int len = (int) Math.min(100_000, size - pos);
        ByteBuffer got = ByteBuffer.allocate(len);
        ch.position(pos);
        while (got.hasRemaining() && ch.read(got) > 0) {
          // fill
        }
        assertArrayEquals(FloatPattern.bytes(0, pos, len), got.array(), "bytes at " + pos);
      }
      ch.position(0);
      ByteBuffer all = ByteBuffer.allocate((int) size);
      while (all.hasRemaining() && ch.read(all) > 0) {
        // fill
      }
      assertArrayEquals(FloatPattern.bytes(0, 0, (int) size), all.array(), "the whole array");
    }
  }

  /**
   * An SDZ whose DEFLATED SDNB entry declares a 200 MiB manifest of zeros (200 KB compressed):
   * the manifest is read into the heap at open, so its size is checked against the entry's
   * compressed size first and refused — in a 64 MiB JVM, with a message, not an OutOfMemoryError.
   */
  @Test
  void aDeflatedManifestBeyondItsBudgetIsRefusedBeforeItIsRead() throws Exception {
    Path z = tmp.resolve("bomb.sdz");
    long manifest = 200L << 20;
    try (ZipArchiveOutputStream zos = new ZipArchiveOutputStream(z.toFile())) {
      ZipArchiveEntry ze = new ZipArchiveEntry("model.sdnb");
      ze.setMethod(ZipArchiveEntry.DEFLATED);
      zos.putArchiveEntry(ze);
      zos.write(ByteBuffer.allocate(32).order(ByteOrder.BIG_ENDIAN).put("SDNB".getBytes(StandardCharsets.US_ASCII))
          .putInt(1).putLong(32).putLong(manifest).putLong(32).array());
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 200; i++) {
        zos.write(zeros);
      }
      zos.closeArchiveEntry();
    }
    assertTrue(Files.size(z) < (1 << 20), Files.size(z) + " bytes");
    ChildJvm.Result r = ChildJvm.run(tmp.resolve("info.log"), 120, List.of("-Xmx64m"), Main.class, "info", z.toString());
    assertFalse(r.outOfMemory(), r.output());
    assertEquals(2, r.exit(), r.output());
    assertTrue(r.output().contains("bomb.sdz!model.sdnb: SDNB header.manifestLength at offset 16: declares a manifest of "
        + manifest + " bytes; a DEFLATED entry of "), r.output());
  }
}
