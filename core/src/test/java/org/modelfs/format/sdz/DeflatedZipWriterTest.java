package org.modelfs.format.sdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.zip.DeflatedEntries;
import org.modelfs.format.zip.ZipIo;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.DeflateWorkers;
import org.modelfs.io.ParallelDeflater;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.SyntheticModels;

/**
 * The DEFLATED zips {@link DeflatedZipWriter} writes read the same through every zip reader —
 * java.util.zip's {@code ZipFile} and streaming {@code ZipInputStream} (local headers, CRCs),
 * commons-compress, jdk.zipfs and our own inflating reader — for entries on and around block
 * boundaries, incompressible ones, pre-compressed ones copied raw, and with every Zip64 structure;
 * the bytes are the same whatever the threads.
 */
class DeflatedZipWriterTest {
  private static final int B = ParallelDeflater.BLOCK;
  private static final int[] DOS = {0x5000, 0x5a21};
  private static final ExecutorService THREE = Executors.newFixedThreadPool(3);

  @TempDir Path tmp;

  @AfterAll
  static void stop() {
    THREE.shutdownNow();
  }

  private static byte[] text(int n) {
    byte[] b = new byte[n];
    Random r = new Random(n);
    for (int i = 0; i < n; i++) {
      b[i] = (byte) ("abcdefgh \n01".charAt(r.nextInt(12)));
    }
    return b;
  }

  private static byte[] random(int n) {
    byte[] b = new byte[n];
    new Random(~n).nextBytes(b);
    return b;
  }

  /** Entries of 0, 1, block-1, block, block+1, several MiB of text, and 3 MiB of random bytes. */
  private static Map<String, byte[]> contents() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int n : new int[] {0, 1, B - 1, B, B + 1}) {
      m.put("e" + n, text(n));
    }
    m.put("several", text(5 * B + 4321));
    m.put("random", random(3 * B + 5));
    return m;
  }

  private static List<SdzFormat.Part> parts(Map<String, byte[]> m) {
    List<SdzFormat.Part> parts = new ArrayList<>();
    m.forEach((k, v) -> parts.add(new SdzFormat.Part(k, SdzFormat.Body.of(v))));
    return parts;
  }

  private Path write(String name, List<SdzFormat.Part> parts, DeflateWorkers w, long zip64At) throws IOException {
    Path out = tmp.resolve(name);
    try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
        StandardOpenOption.READ)) {
      DeflatedZipWriter.write(parts, ch, 6, out.toString(), DOS, w, zip64At);
    }
    return out;
  }

  /** Every reader sees {@code expected}, each entry DEFLATED. */
  private static void assertReads(Path zip, Map<String, byte[]> expected) throws IOException {
    try (java.util.zip.ZipFile zf = new java.util.zip.ZipFile(zip.toFile())) {
      assertEquals(expected.size(), zf.size());
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        ZipEntry ze = zf.getEntry(e.getKey());
        assertEquals(ZipEntry.DEFLATED, ze.getMethod());
        try (InputStream in = zf.getInputStream(ze)) {
          assertArrayEquals(e.getValue(), in.readAllBytes(), "ZipFile " + e.getKey());
        }
      }
    }
    try (ZipInputStream zin = new ZipInputStream(Files.newInputStream(zip))) {
      int n = 0;
      for (ZipEntry ze; (ze = zin.getNextEntry()) != null; n++) {
        assertArrayEquals(expected.get(ze.getName()), zin.readAllBytes(), "ZipInputStream " + ze.getName());
        CRC32 crc = new CRC32();
        crc.update(expected.get(ze.getName()));
        assertEquals(crc.getValue(), ze.getCrc(), "local header CRC of " + ze.getName());
      }
      assertEquals(expected.size(), n);
    }
    try (FileSystem zipfs = FileSystems.newFileSystem(zip, Map.of())) {
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        assertArrayEquals(e.getValue(), Files.readAllBytes(zipfs.getPath(e.getKey())), "zipfs " + e.getKey());
      }
    }
    try (ByteSource src = ChannelSource.open(zip);
        org.apache.commons.compress.archivers.zip.ZipFile zf = ZipIo.open(src, zip.toString());
        DeflatedEntries inflating = new DeflatedEntries(src, zip.toString())) {
      for (ZipArchiveEntry ze : Collections.list(zf.getEntriesInPhysicalOrder())) {
        byte[] want = expected.get(ze.getName());
        try (InputStream in = zf.getInputStream(ze)) {
          assertArrayEquals(want, in.readAllBytes(), "commons-compress " + ze.getName());
        }
        ByteSource s = inflating.source(ZipIo.bounds(ze, zip.toString(), src.size()));
        ByteBuffer b = ByteBuffer.allocate(want.length);
        s.readFully(b, 0);
        assertArrayEquals(want, b.array(), "our reader " + ze.getName());
      }
    }
  }

  @Test
  void entriesAroundBlockBoundariesReadBackEverywhere() throws IOException {
    Map<String, byte[]> m = contents();
    Path zip = write("a.zip", parts(m), DeflateWorkers.shared(), DeflatedZipWriter.ZIP64_MAGIC);
    assertReads(zip, m);
    try (java.util.zip.ZipFile zf = new java.util.zip.ZipFile(zip.toFile())) {
      assertTrue(zf.getEntry("random").getCompressedSize() <= DeflatedZipWriter.worstCompressed(3 * B + 5));
      assertTrue(zf.getEntry("several").getCompressedSize() < (5L * B) * 7 / 10, "text compresses");
    }
  }

  @Test
  void everyZip64StructureReadsBack() throws IOException {
    Map<String, byte[]> m = contents();
    assertReads(write("z64.zip", parts(m), DeflateWorkers.shared(), 0), m);
    assertReads(write("z64b.zip", parts(m), DeflateWorkers.shared(), B), m);
  }

  @Test
  void theSameBytesWhateverTheThreads() throws IOException {
    Map<String, byte[]> m = contents();
    byte[] a = Files.readAllBytes(write("1.zip", parts(m), new DeflateWorkers(THREE, 1), DeflatedZipWriter.ZIP64_MAGIC));
    byte[] b = Files.readAllBytes(write("2.zip", parts(m), new DeflateWorkers(THREE, 5), DeflatedZipWriter.ZIP64_MAGIC));
    byte[] c = Files.readAllBytes(write("3.zip", parts(m), DeflateWorkers.shared(), DeflatedZipWriter.ZIP64_MAGIC));
    assertArrayEquals(a, b);
    assertArrayEquals(a, c);
  }

  /** A part already compressed is copied as it is, with the CRC and sizes it declares. */
  @Test
  void aPreDeflatedPartIsCopiedRaw() throws IOException {
    byte[] plain = text(3 * B / 2);
    Deflater d = new Deflater(9, true);
    d.setInput(plain);
    d.finish();
    ByteArrayOutputStream z = new ByteArrayOutputStream();
    byte[] buf = new byte[1 << 16];
    while (!d.finished()) {
      z.write(buf, 0, d.deflate(buf));
    }
    d.end();
    byte[] raw = z.toByteArray();
    CRC32 crc = new CRC32();
    crc.update(plain);
    SdzFormat.PreDeflated pre = new SdzFormat.PreDeflated() {
      @Override
      public long size() {
        return plain.length;
      }

      @Override
      public void writeTo(CountingOutput out) throws IOException {
        out.write(ByteBuffer.wrap(plain));
      }

      @Override
      public long crc() {
        return crc.getValue();
      }

      @Override
      public long compressedSize() {
        return raw.length;
      }

      @Override
      public void writeCompressedTo(CountingOutput out) throws IOException {
        out.write(ByteBuffer.wrap(raw));
      }
    };
    Map<String, byte[]> m = new LinkedHashMap<>(Map.of("fresh", text(B + 3)));
    List<SdzFormat.Part> parts = new ArrayList<>(parts(m));
    parts.add(0, new SdzFormat.Part("copied", pre));
    Path zip = write("pre.zip", parts, DeflateWorkers.shared(), DeflatedZipWriter.ZIP64_MAGIC);
    Map<String, byte[]> all = new LinkedHashMap<>(Map.of("copied", plain));
    all.putAll(m);
    assertReads(zip, all);
    try (java.util.zip.ZipFile zf = new java.util.zip.ZipFile(zip.toFile())) {
      assertEquals(raw.length, zf.getEntry("copied").getCompressedSize(), "the raw stream, as it was");
    }
  }

  /** A part that fails while its blocks are being compressed fails the write with its IOException. */
  @Test
  void aFailingPartFailsTheWrite() {
    SdzFormat.Body failing = new SdzFormat.Body() {
      @Override
      public long size() {
        return 20L * B;
      }

      @Override
      public void writeTo(CountingOutput out) throws IOException {
        byte[] t = text(B);
        for (int i = 0; i < 7; i++) {
          out.write(ByteBuffer.wrap(t));
        }
        throw new IOException("source gone");
      }
    };
    IOException e = assertThrows(IOException.class,
        () -> write("fail.zip", List.of(new SdzFormat.Part("x", failing)), DeflateWorkers.shared(), DeflatedZipWriter.ZIP64_MAGIC));
    assertEquals("source gone", e.getMessage());
  }

  /** The level reaches the stream of a written SDZ (it used to be 6 whatever was asked). */
  @Test
  void convertsLevelReachesTheSdz() throws IOException {
    SyntheticModels.Synthetic syn =
        SyntheticModels.floats(tmp.resolve("data"), 2, 400_000);
    long[] sizes = new long[2];
    try (var d = syn.data()) {
      int i = 0;
      for (int level : new int[] {1, 9}) {
        Path out = tmp.resolve("l" + level + ".sdz");
        ModelFiles.write(syn.tag(), out, WriteOptions.of(
            ModelFormat.SDZ).withDeflate(true).withLevel(level));
        sizes[i++] = Files.size(out);
        try (Model m = Models.open(out)) {
          assertEquals(ModelTsv.of(syn.tag()), ModelTsv.of(m.newest()));
        }
      }
    }
    assertTrue(sizes[0] > sizes[1], "level 1 " + sizes[0] + " bytes, level 9 " + sizes[1]);
  }
}
