package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * A write channel opened before a commit changed the order a file shows ({@code byteOrder=stored}:
 * a new little-endian file committed to fb shows big-endian): a second channel cannot share its
 * journal file, which takes the other order (found by the issue-18 review: the second channel's
 * big-endian bytes were stored as little-endian ones).
 */
class SharedOrderTest {
  @TempDir Path tmp;


  @Test
  void aSecondChannelAfterACommitTakesBytesInTheOrderTheFileShows() throws Exception {
    Path fb = tmp.resolve("m.fb");
    var synthetic = SyntheticModels.floats(tmp.resolve("d"), 2, 1000);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), fb, WriteOptions.of(ModelFormat.FB));
    }
    byte[] values = FloatPattern.bytes(9, 0, 400);
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("byteOrder", "stored"))) {
      Path fresh = fs.getPath("/params/fresh");
      Files.write(fresh, values); // new: little-endian
      try (FileChannel a = FileChannel.open(fresh, StandardOpenOption.WRITE)) { // shares its journal file
        ((JournaledFileSystem) fs).commit();
        assertEquals("big", Files.getAttribute(fresh, "samediff:byteOrder"), "committed to fb: stored big-endian");
        // a second channel would share a journal file that takes little-endian bytes while the file
        // says big: refused, instead of storing the caller's big-endian bytes as little-endian ones
        assertThrows(FileSystemException.class, () -> FileChannel.open(fresh, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING));
      }
      // closing a installed its file, little-endian as it took it: the file says so, and b follows it
      boolean big = "big".equals(Files.getAttribute(fresh, "samediff:byteOrder"));
      try (FileChannel b = FileChannel.open(fresh, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        byte[] five = FloatPattern.bytes(5, 0, 400);
        b.write(ByteBuffer.wrap(big ? StoredByteOrderTest.big(five) : five)); // in the order the file says
      }
    }
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true"))) {
      assertArrayEquals(FloatPattern.bytes(5, 0, 400), Files.readAllBytes(fs.getPath("/params/fresh")));
    }
  }
}
