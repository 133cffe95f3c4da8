package org.modelfs.format.zip;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ChannelSource;

/**
 * {@link ZipIo#checkEntryCount}: central directory records are counted before a zip library
 * indexes them — with and without Zip64 end records, and whatever count the end record claims.
 */
class ZipIoTest {
  @TempDir Path tmp;

  private Path zip(int entries, boolean zip64) throws IOException {
    Path out = tmp.resolve("z" + entries + zip64 + ".zip");
    try (SeekableByteChannel ch = Files.newByteChannel(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        ZipArchiveOutputStream zos = new ZipArchiveOutputStream(ch)) {
      zos.setUseZip64(zip64 ? Zip64Mode.Always : Zip64Mode.Never);
      for (int i = 0; i < entries; i++) {
        zos.putArchiveEntry(new ZipArchiveEntry(i == 0 ? "model" : "e" + i));
        zos.write(new byte[] {(byte) i});
        zos.closeArchiveEntry();
      }
      zos.finish();
    }
    return out;
  }

  private static void check(Path zip, int max) throws IOException {
    try (ChannelSource src = ChannelSource.open(zip)) {
      ZipIo.checkEntryCount(src, zip.getFileName().toString(), max, "a test zip");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void countsRecordsUpToTheLimit(boolean zip64) throws IOException {
    Path z = zip(10, zip64);
    check(z, 10);
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> check(z, 9));
    assertTrue(e.getMessage().contains("at least 10 entries, more than the 9 a test zip may hold")
        && e.getMessage().contains(z.getFileName().toString()) && e.getMessage().contains("ZIP central directory"),
        e.getMessage());
  }

  /** Past the limit with no entry a model could be in (a jar, say): "not a model file", not "too many entries". */
  @Test
  void tooManyEntriesWithoutAModelEntryIsNotAModel() throws IOException {
    Path z = tmp.resolve("app.jar");
    try (SeekableByteChannel ch = Files.newByteChannel(z, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        ZipArchiveOutputStream zos = new ZipArchiveOutputStream(ch)) {
      for (int i = 0; i < 12; i++) {
        zos.putArchiveEntry(new ZipArchiveEntry("org/C" + i + ".class"));
        zos.closeArchiveEntry();
      }
      zos.finish();
    }
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> check(z, 9));
    assertTrue(e.getMessage().startsWith("app.jar: ZIP central directory at offset ")
        && e.getMessage().contains(": not a model file: a zip whose first 10 entries include no model entry"), e.getMessage());
    e = assertThrows(ModelFormatException.class, () -> check(z, 20));
    assertTrue(e.getMessage().contains(": not a model file: a zip without a model entry"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void theEndRecordsClaimedCountIsNotTrusted(boolean zip64) throws IOException {
    Path z = zip(10, zip64);
    byte[] b = Files.readAllBytes(z);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int eocd = b.length - 22;
    bb.putShort(eocd + 8, (short) 1).putShort(eocd + 10, (short) 1); // "1 entry"
    Files.write(z, b);
    assertThrows(ModelFormatException.class, () -> check(z, 9));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 3, 21})
  void filesWithoutAnEndRecordAreLeftToTheZipLibrary(int size) throws IOException {
    Path f = Files.write(tmp.resolve("junk" + size), new byte[size]);
    check(f, 1);
  }
}
