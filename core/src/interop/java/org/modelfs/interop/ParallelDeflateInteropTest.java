package org.modelfs.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ParallelDeflater;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.ModelTsv;

/**
 * A model DL4J 1.0.0-M2.1 saved, written by us as a DEFLATED SDZ whose entry spans many
 * parallel-deflated blocks (docs/FORMATS.md §7.3): java.util.zip's streaming reader (DL4J's own
 * zip code; it checks every CRC) inflates it whole, our reader sees DL4J's values, and the fb
 * converted from it loads in DL4J with the same values. (M2.1 has no SDZ loader of its own.)
 */
@Tag("interop")
class ParallelDeflateInteropTest {
  @TempDir Path tmp;

  @Test
  void dl4jSeesTheValuesThroughAParallelDeflatedSdz() throws Exception {
    Path original = tmp.resolve("large.fb");
    Dl4jModels.large(original, 12L << 20);
    String expected = Dl4jSnapshot.load(original).toTsv();
    Path sdz = tmp.resolve("large.sdz");
    try (Model m = Models.open(original)) {
      ModelFiles.write(m.newest(), sdz, WriteOptions.of(ModelFormat.SDZ).withDeflate(true).withLevel(1));
    }
    try (ZipInputStream zin = new ZipInputStream(Files.newInputStream(sdz))) {
      ZipEntry e = zin.getNextEntry();
      assertEquals(ZipEntry.DEFLATED, e.getMethod());
      long n = zin.transferTo(OutputStream.nullOutputStream()); // CRC and size checked at the end
      assertTrue(n > 8L * ParallelDeflater.BLOCK, "the entry spans many blocks: " + n + " bytes");
    }
    try (Model m = Models.open(sdz)) {
      assertEquals(expected, ModelTsv.of(m.newest()), "our reading of the parallel-deflated SDZ");
    }
    Path back = tmp.resolve("back.fb");
    try (Model m = Models.open(sdz)) {
      ModelFiles.write(m.newest(), back, WriteOptions.of(ModelFormat.FB).withDropMetadata(true));
    }
    assertEquals(expected, Dl4jSnapshot.load(back).toTsv(), "DL4J's reading of the fb made from it");
  }
}
