package org.modelfs.format.badinput;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.modelfs.format.ModelFormatException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.format.badinput.ZipTagsSamples.refused;
import static org.modelfs.format.badinput.ZipTagsSamples.refusedByMount;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.container.Models;
import org.modelfs.format.badinput.SdzBadInputTest.TempWatch;
import org.modelfs.format.badinput.ZipTagsSamples.Entries;
import org.modelfs.format.badinput.Zips.Info;
import org.modelfs.format.badinput.Zips.Item;
import org.modelfs.format.ziptags.ZipTagsReader;
import org.modelfs.model.Model;

/**
 * zip-tags at the zip level: deflate bombs (declared, real and overlapping), entries inflating to
 * more or less than declared, data outside the file, unsupported methods, and entries declaring
 * more than the format's limits (64 MiB text, 2 GiB FlatBuffer) — each refused before inflating
 * past the limit, its temporary file removed.
 */
class ZipTagsZipBadInputTest {
  private static final String W = "v1/params/2.fb";

  @TempDir Path dir;

  private Path deflated(String name) throws IOException {
    return ZipTagsSamples.entries().write(dir, name, true);
  }

  /** The zip at {@code z} with both headers of {@code entry} patched to these sizes. */
  private static Path sizes(Path z, String entry, long csize, long usize) throws IOException {
    byte[] b = Files.readAllBytes(z);
    Files.write(z, Zips.setSizes(b, Zips.entry(b, entry), csize, usize));
    return z;
  }

  private static Info info(Path z, String entry) throws IOException {
    return Zips.entry(Files.readAllBytes(z), entry);
  }

  @Test
  void deflatedSampleReadsWithoutATemporaryFile() throws IOException {
    Path z = deflated("ok.zip");
    Set<Path> before = ZipTagsSamples.temps();
    try (Model m = Models.open(z)) {
      BadInput.readAll(m);
      Set<Path> now = ZipTagsSamples.newTemps(before);
      assertEquals(Set.of(), now, "deflated entries are inflated in memory, on demand: " + now);
    }
    ZipTagsSamples.assertNoTempLeft(before, "after close");
  }

  // ---- bombs -----------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {W, "v1/graph.fb", "v1/params.txt", "tags.txt"})
  void declaredSizeBeyondTheDeflateRatioIsRefused(String entry) throws IOException {
    Path z = deflated("ratio.zip");
    Info e = info(z, entry);
    sizes(z, entry, e.csize(), 0xFFFFFFF0L);
    refused(z, entry + " declares 4 GiB from " + e.csize() + " bytes", "ZIP entry '" + entry + "'",
        "declares 4294967280 bytes from " + e.csize() + " compressed bytes, beyond what deflate can produce (a zip bomb)");
  }

  /** A real bomb, honestly declared: inflated to the temporary file, refused, and the file removed. */
  @Test
  void arrayFileOf64MiBOfZerosIsRefusedAndItsTemporaryFileRemoved() throws IOException {
    long n = 64L << 20;
    List<Item> items = new ArrayList<>();
    for (Item it : ZipTagsSamples.entries().items(true)) {
      items.add(!it.name().equals(W) ? it : new Item(W, ZipArchiveEntry.DEFLATED, zeros(n), true));
    }
    Path z = Zips.write(dir.resolve("bomb.zip"), items);
    assertTrue(Files.size(z) < (1 << 20), "64 MiB of zeros compress to " + Files.size(z));
    try (TempWatch w = new TempWatch(ZipTagsSamples.TEMP_PREFIX, true)) {
      refused(z, "params/2.fb: 64 MiB of zeros", "bomb.zip!" + W);
      assertTrue(w.max() <= n + (64 << 10), "inflated " + w.max() + " bytes");
    }
  }

  private static Zips.Body zeros(long n) {
    return out -> {
      byte[] z = new byte[1 << 20];
      for (long left = n; left > 0; left -= z.length) {
        out.write(z, 0, (int) Math.min(z.length, left));
      }
    };
  }

  /**
   * Two central directory records pointing at one local header: the same deflate stream inflated
   * once per entry (the overlapping zip bomb multiplies this by thousands). Both are layer1/W's
   * Adam state, FLOAT [8, 3], so nothing else in the file is wrong.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void overlappingEntriesAreRefused(boolean deflate) throws IOException {
    Entries e = ZipTagsSamples.entries();
    Path z = e.put("v1/updater/1.fb", e.get("v1/updater/0.fb")).write(dir, "overlap.zip", deflate);
    assertNull(BadInput.openTimed(z, "two equal entries"), "before the patch the zip opens");
    byte[] b = Files.readAllBytes(z);
    Info zero = Zips.entry(b, "v1/updater/0.fb");
    Info one = Zips.entry(b, "v1/updater/1.fb");
    Zips.putU32(b, one.cd() + 42, zero.lfh());
    Files.write(z, b);
    refused(z, "updater/1.fb's record points at updater/0.fb's data", "ZIP entry 'v1/updater/",
        "data overlaps that of entry 'v1/updater/", "overlapping entries");
  }

  // ---- lying sizes -----------------------------------------------------------------------------

  @Test
  void entryInflatingToMoreThanDeclaredIsRefused() throws IOException {
    Entries e = ZipTagsSamples.entries();
    byte[] w = e.get(W);
    Path z = e.put(W, BadInput.concat(w, new byte[1 << 20])).write(dir, "more.zip", true);
    sizes(z, W, info(z, W).csize(), w.length);
    refused(z, "params/2.fb inflates 1 MiB beyond its declared size", "ZIP entry '" + W + "'",
        "inflates to more than its declared " + w.length + " bytes");
  }

  @Test
  void entryInflatingToLessThanDeclaredIsRefused() throws IOException {
    Path z = deflated("less.zip");
    Info e = info(z, W);
    sizes(z, W, e.csize(), e.usize() + 1000);
    refused(z, "params/2.fb declares 1000 bytes more", "ZIP entry '" + W + "'",
        "inflates to " + e.usize() + " bytes, but declares " + (e.usize() + 1000));
  }

  @Test
  void corruptDeflateStreamIsRefused() throws IOException {
    Path z = deflated("corrupt.zip");
    byte[] b = Files.readAllBytes(z);
    b[info(z, "v1/graph.fb").data()] = (byte) 0xFF; // BFINAL=1, BTYPE=11: reserved
    Files.write(z, b);
    refused(z, "graph.fb with an invalid deflate block", "ZIP entry 'v1/graph.fb'", "cannot inflate");
  }

  /** commons-compress itself finds these when it indexes the zip; the message keeps what it says. */
  @ParameterizedTest
  @ValueSource(strings = {"twice the file", "0xFFFFFFFF", "one past EOF"})
  void storedEntryDataOutsideTheFileIsRefused(String how) throws IOException {
    Path z = ZipTagsSamples.entries().write(dir, "outside.zip", false);
    long len = Files.size(z);
    Info e = info(z, W);
    long size = switch (how) {
      case "twice the file" -> 2 * len;
      case "0xFFFFFFFF" -> 0xFFFFFFFFL;
      default -> len - e.data() + 1;
    };
    sizes(z, W, size, size);
    refused(z, "params/2.fb: " + how, "ZIP central directory at offset 0: unreadable zip: ",
        "data for " + W + " overlaps with central directory");
  }

  @Test
  void storedEntryWithTwoSizesIsRefused() throws IOException {
    Path z = ZipTagsSamples.entries().write(dir, "two.zip", false);
    Info e = info(z, W);
    sizes(z, W, e.csize(), e.usize() + 8);
    refused(z, "STORED size != compressed size", "ZIP entry '" + W + "'",
        "STORED entry with size " + (e.usize() + 8) + " != compressed size " + e.csize());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 9, 12, 14, 93, 95, 98, 99})
  void unsupportedCompressionMethodIsRefused(int method) throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().write(dir, "method.zip", deflate);
      byte[] b = Files.readAllBytes(z);
      Files.write(z, Zips.setMethod(b, Zips.entry(b, W), method));
      refused(z, "params/2.fb with method " + method, "ZIP entry '" + W + "'",
          "compression method " + method + " is not supported (STORED or DEFLATED only)");
    }
  }

  /** Traditional (bit 0) or strong (bit 6) encryption: the stored bytes are not the array's. */
  @ParameterizedTest
  @ValueSource(ints = {1, 1 | 64})
  void encryptedEntryIsRefused(int flags) throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().write(dir, "enc.zip", deflate);
      byte[] b = Files.readAllBytes(z);
      Files.write(z, Zips.orFlags(b, Zips.entry(b, W), flags));
      refused(z, "params/2.fb flagged encrypted (" + flags + ", " + (deflate ? "DEFLATED" : "STORED") + ")",
          "ZIP entry '" + W + "'", "encrypted");
    }
  }

  @Test
  void bzip2EntryIsRefusedByMount() throws IOException {
    Path z = ZipTagsSamples.entries().write(dir, "bzip2.zip", true);
    byte[] b = Files.readAllBytes(z);
    Files.write(z, Zips.setMethod(b, Zips.entry(b, "v2/graph.fb"), 12));
    refusedByMount(z, "graph.fb as bzip2, mounted", "ZIP entry 'v2/graph.fb'", "compression method 12");
  }

  // ---- limits ----------------------------------------------------------------------------------

  @Test
  void textEntryOfMoreThan64MiBIsRefusedBeforeInflating() throws IOException {
    long n = (64L << 20) + 1;
    long padding = n - ZipTagsSamples.entries().get("v1/params.txt").length;
    List<Item> items = new ArrayList<>();
    for (Item it : ZipTagsSamples.entries().items(true)) {
      items.add(!it.name().equals("v1/params.txt") ? it : new Item(it.name(), ZipArchiveEntry.DEFLATED, out -> {
        it.body().writeTo(out);
        byte[] spaces = new byte[1 << 20];
        Arrays.fill(spaces, (byte) ' ');
        for (long left = padding; left > 0; left -= spaces.length) {
          out.write(spaces, 0, (int) Math.min(spaces.length, left));
        }
      }, true));
    }
    Path z = Zips.write(dir.resolve("text.zip"), items);
    assertEquals(n, info(z, "v1/params.txt").usize());
    refused(z, "params.txt of 64 MiB + 1", "ZIP entry 'v1/params.txt'", "declares 67108865 bytes; at most 67108864 are allowed here");
  }

  /** Declared 2 GiB + 64 from 2.1 MB of (incompressible) deflate data: refused before inflating it. */
  @ParameterizedTest
  @ValueSource(strings = {"v1/graph.fb", W, "v2/trainingConfig.fb"})
  void deflatedFlatBufferDeclaringMoreThan2GiBIsRefusedBeforeInflating(String entry) throws IOException {
    byte[] noise = new byte[2_200_000];
    new Random(1).nextBytes(noise);
    Path z = ZipTagsSamples.entries().put(entry, noise).write(dir, "huge.zip", true);
    long declared = (1L << 31) + 64;
    sizes(z, entry, info(z, entry).csize(), declared);
    try (TempWatch w = new TempWatch(ZipTagsSamples.TEMP_PREFIX, true)) {
      refused(z, entry + " declares 2 GiB + 64", "ZIP entry '" + entry + "'", "declares " + declared + " bytes; ",
          "is under 2 GiB");
      assertTrue(w.max() < noise.length, entry + ": inflated " + w.max() + " bytes before refusing");
    }
  }

  /**
   * A STORED entry of 2 GiB + 64 bytes, really in the file (a sparse hole): refused by size without
   * reading it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"v1/graph.fb", W})
  void storedFlatBufferOfMoreThan2GiBIsRefused(String entry) throws IOException {
    Entries e = ZipTagsSamples.entries();
    byte[] content = e.get(entry);
    e.remove(entry).put(entry, content); // last entry, just before the central directory
    byte[] z = Files.readAllBytes(e.write(dir, "small.zip", false));
    Info last = Zips.entry(z, entry);
    long size = (1L << 31) + 64;
    int cd = Zips.cdOffset(z);
    assertEquals(last.data() + last.csize(), cd, "the entry is the last before the central directory");
    byte[] tail = Zips.setSizes(z, last, size, size);
    Zips.putU32(tail, Zips.eocd(tail) + 16, last.data() + size);
    Path big = dir.resolve("sparse.zip");
    try (FileChannel ch = FileChannel.open(big, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(tail, 0, last.data()));
      ch.write(ByteBuffer.wrap(tail, cd, tail.length - cd), last.data() + size);
    }
    try {
      refused(big, entry + " of 2 GiB + 64 (STORED)", "ZIP entry '" + entry + "'", "declares " + size + " bytes; ",
          "is under 2 GiB");
    } finally {
      Files.delete(big);
    }
  }

  /**
   * More than {@code ZipTagsReader.MAX_ENTRIES} (1,048,576) entries: tags.txt, v1/graph.fb and a
   * million empty top-level entries, written by hand (Zip64 end records). commons-compress needs
   * about 10 s and 1 GB to index such a directory (twice: detection, then reading), so the case
   * runs with {@code mvn -Pslow} only.
   */
  @Test
  @Tag("slow")
  void moreThan1048576EntriesAreRefused() throws IOException {
    int max = ZipTagsReader.MAX_ENTRIES;
    assertEquals(1 << 20, max);
    Entries e = ZipTagsSamples.entries();
    Path z = manyEntries(dir.resolve("many.zip"), List.of("tags.txt", "v1/graph.fb"),
        List.of("v1\n".getBytes(StandardCharsets.UTF_8), e.get("v1/graph.fb")), max + 1);
    Set<Path> before = ZipTagsSamples.temps();
    IOException ex = Assertions.assertTimeoutPreemptively(Duration.ofMinutes(2),
        () -> BadInput.openAndReadAll(z, "1,048,577 entries"));
    assertTrue(ex instanceof ModelFormatException, "refused with a ModelFormatException: " + ex);
    BadInput.assertGoodMessage(ex, "1,048,577 entries", List.of("many.zip"));
    ZipTagsSamples.assertParts(ex, "1,048,577 entries", "ZIP central directory",
        "1048577 entries, more than the 1048576 a zip-tags file may hold");
    ZipTagsSamples.assertNoTempLeft(before, "1,048,577 entries");
  }

  /** A STORED zip of {@code names}/{@code contents}, then empty entries up to {@code total}, with Zip64 end records. */
  private static Path manyEntries(Path out, List<String> names, List<byte[]> contents, int total) throws IOException {
    ByteArrayOutputStream cd = new ByteArrayOutputStream();
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      long at = 0;
      for (int i = 0; i < total; i++) {
        byte[] name = (i < names.size() ? names.get(i) : Integer.toString(i, 36))
            .getBytes(StandardCharsets.UTF_8);
        byte[] data = i < contents.size() ? contents.get(i) : new byte[0];
        CRC32 crc = new CRC32();
        crc.update(data);
        ByteBuffer h = ByteBuffer.allocate(46 + name.length).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0x04034b50).putShort((short) 10).putShort((short) 0).putShort((short) 0).putInt(0x00210000)
            .putInt((int) crc.getValue()).putInt(data.length).putInt(data.length).putShort((short) name.length)
            .putShort((short) 0).put(name);
        o.write(h.array(), 0, 30 + name.length);
        o.write(data);
        ByteBuffer c = ByteBuffer.allocate(46 + name.length).order(ByteOrder.LITTLE_ENDIAN);
        c.putInt(0x02014b50).putShort((short) 0x031E).putShort((short) 10).putShort((short) 0).putShort((short) 0)
            .putInt(0x00210000).putInt((int) crc.getValue()).putInt(data.length).putInt(data.length)
            .putShort((short) name.length).putShort((short) 0).putShort((short) 0).putShort((short) 0)
            .putShort((short) 0).putInt(0).putInt((int) at).put(name);
        cd.write(c.array());
        at += 30 + name.length + data.length;
      }
      byte[] dir = cd.toByteArray();
      o.write(dir);
      long zip64 = at + dir.length;
      ByteBuffer end = ByteBuffer.allocate(56 + 20 + 22).order(ByteOrder.LITTLE_ENDIAN);
      end.putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45).putInt(0).putInt(0)
          .putLong(total).putLong(total).putLong(dir.length).putLong(at);
      end.putInt(0x07064b50).putInt(0).putLong(zip64).putInt(1);
      end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) 0xFFFF)
          .putShort((short) 0xFFFF).putInt(dir.length).putInt((int) at).putShort((short) 0);
      o.write(end.array());
    }
    return out;
  }

  /** The helper above writes zips commons-compress and our reader take (checked with a few entries). */
  @Test
  void handWrittenZip64DirectoryIsReadable() throws IOException {
    Entries e = ZipTagsSamples.entries();
    List<String> names = new ArrayList<>(e.map.keySet());
    List<byte[]> contents = new ArrayList<>(e.map.values());
    Path z = manyEntries(dir.resolve("few.zip"), names, contents, names.size() + 3);
    assertNull(BadInput.openTimed(z, "the sample plus 3 empty entries, hand-written"));
  }

  @Test
  void validSampleStillOpensAfterAllThis() throws IOException {
    assertNull(BadInput.openTimed(deflated("ok.zip"), "the valid sample"));
  }
}
