package org.modelfs.format.sdz;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Collections;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.SliceSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.Variable;
import org.modelfs.testing.SyntheticModels;

/** SDZ files we write: one STORED, 64-aligned {@code model.sdnb}; arrays read in place. */
class SdzLayoutTest {
  @TempDir Path tmp;

  @Test
  void storedEntryIsAlignedAndArraysAreReadInPlace() throws Exception {
    Path out = tmp.resolve("m.sdz");
    var syn = SyntheticModels.floats(tmp.resolve("d.bin"), 2, 300_000);
    try (var d = syn.data()) {
      ModelFiles.write(syn.tag(), out, WriteOptions.of(ModelFormat.SDZ));
    }
    try (ZipFile zf = ZipFile.builder().setPath(out).get()) {
      var entries = Collections.list(zf.getEntries());
      assertEquals(1, entries.size());
      ZipArchiveEntry e = entries.get(0);
      assertEquals("model.sdnb", e.getName());
      assertEquals(ZipArchiveEntry.STORED, e.getMethod());
      assertEquals(0, e.getDataOffset() % 64);
      assertNoZip64Extra(out, e);
    }
    try (Model m = Models.open(out)) {
      assertEquals(ModelFormat.SDZ, m.format());
      for (Variable v : m.newest().variables()) {
        ArrayData a = v.array();
        SliceSource s = (SliceSource) a.source();
        assertEquals(0, (s.start() + a.offset()) % 64, "blob aligned in the zip file itself");
        assertEquals(ArrayData.Storage.RAW, a.storage());
      }
    }
  }

  /** The size is set before writing, so the local header carries no Zip64 extra (id 0x0001). */
  private static void assertNoZip64Extra(Path zip, ZipArchiveEntry e) throws Exception {
    try (FileChannel ch = FileChannel.open(zip)) {
      ByteBuffer h = ByteBuffer.allocate(30).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(h, e.getLocalHeaderOffset());
      assertEquals(0x04034b50, h.getInt(0), "local file header signature");
      int nameLen = h.getShort(26) & 0xffff;
      int extraLen = h.getShort(28) & 0xffff;
      ByteBuffer extra = ByteBuffer.allocate(extraLen).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(extra, e.getLocalHeaderOffset() + 30 + nameLen);
      for (int i = 0; i + 4 <= extraLen; i += 4 + (extra.getShort(i + 2) & 0xffff)) {
        assertNotEquals(0x0001, extra.getShort(i) & 0xffff, "Zip64 extra field in the local header");
      }
    }
  }

  @Test
  void deflatedEntriesReportDeflatedStorage() throws Exception {
    Path out = tmp.resolve("d.sdz");
    var syn = SyntheticModels.floats(tmp.resolve("d.bin"), 2, 1000);
    try (var d = syn.data()) {
      ModelFiles.write(syn.tag(), out, WriteOptions.of(ModelFormat.SDZ).withDeflate(true));
    }
    try (Model m = Models.open(out)) {
      for (Variable v : m.newest().variables()) {
        assertEquals(ArrayData.Storage.DEFLATED, v.array().storage());
      }
    }
  }
}
