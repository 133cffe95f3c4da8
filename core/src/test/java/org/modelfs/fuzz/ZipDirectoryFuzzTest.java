package org.modelfs.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.modelfs.format.zip.ZipIo;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.ByteSource;

/**
 * The zip central-directory walk every zip format shares ({@link ZipIo}): the record count taken
 * before any zip library indexes the directory, the zip library's index, each entry's bounds, the
 * overlap check, and the copy of each entry that passed them (bounded as the readers bound it).
 * May only succeed or throw an {@link IOException}.
 */
class ZipDirectoryFuzzTest {
  private static final int MAX_ENTRIES = 1 << 16;

  @FuzzTest(maxDuration = "30s")
  void centralDirectory(byte[] input) {
    Path zip = FuzzFiles.write(FuzzFiles.freshDir("zip"), "m.zip", input);
    try (ByteSource src = ChannelSource.open(zip)) {
      ZipIo.checkEntryCount(src, "m.zip", MAX_ENTRIES, "a fuzzed zip");
      try (ZipFile zf = ZipIo.open(zip, "m.zip")) {
        List<ZipIo.Entry> checked = new ArrayList<>();
        List<ZipArchiveEntry> raw = new ArrayList<>();
        for (Enumeration<ZipArchiveEntry> en = zf.getEntriesInPhysicalOrder(); en.hasMoreElements(); ) {
          ZipArchiveEntry ze = en.nextElement();
          ZipIo.unsafeName(ze.getName());
          checked.add(ZipIo.bounds(ze, "m.zip", input.length));
          raw.add(ze);
        }
        ZipIo.checkNoOverlap(checked, "m.zip");
        for (int i = 0; i < raw.size(); i++) {
          ZipIo.Entry e = checked.get(i);
          if (e.size() <= FuzzFiles.READ_CAP) {
            ZipIo.copy(zf, raw.get(i), e, "m.zip", Channels.newChannel(OutputStream.nullOutputStream()));
          }
        }
      }
    } catch (IOException expected) {
      // a refusal
    }
  }
}
