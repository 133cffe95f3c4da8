package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.StoredBytes;
import org.modelfs.provider.ProviderTestModels.Format;

/**
 * {@link StoredBytes}: a range a read channel gives is exactly the bytes it shows, read as a
 * reader outside the JVM would (open the file, check its key, read the range) — differentially,
 * for every file of the fixture in every format; and no range where the bytes are checked while
 * read, decompressed, generated or written in this session.
 */
class StoredBytesTest {
  @TempDir
  Path tmp;

  @ParameterizedTest
  @EnumSource(Format.class)
  void aRangeHoldsExactlyTheBytesTheChannelShows(Format format) throws Exception {
    List<String> ranged = ranged(ProviderTestModels.write(tmp, format), Map.of("readOnly", "true"));
    switch (format) {
      // stored raw: every array of the fixture (params and updater state) has its range
      case SDNB, SHARDED, SDZ -> assertTrue(ranged.size() >= 8, format + ": " + ranged);
      // converted as read (DL4J's fb stores arrays big-endian: FORMATS.md), deflated, or checked
      // by the container's chunk checksums while read: none
      case FB, SDZ_DEFLATED, CONTAINER, CONTAINER_DEFLATED -> assertEquals(List.of(), ranged, format.toString());
      default -> throw new AssertionError(format);
    }
  }

  /** An fb model mounted with {@code byteOrder=stored} shows its arrays' stored bytes: each has its range. */
  @Test
  void anFbArrayShownAsStoredHasItsRange() throws Exception {
    List<String> ranged = ranged(ProviderTestModels.write(tmp, Format.FB), Map.of("readOnly", "true", "byteOrder", "stored"));
    assertTrue(ranged.size() >= 8, ranged.toString());
  }

  /** The files of {@code model} that have a range, each range checked against the channel's bytes. */
  private static List<String> ranged(Path model, Map<String, String> env) throws Exception {
    List<String> ranged = new ArrayList<>();
    try (FileSystem fs = ModelFileSystems.open(model, env);
         Stream<Path> s = Files.walk(fs.getPath("/"))) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        byte[] shown = Files.readAllBytes(p);
        try (SeekableByteChannel ch = Files.newByteChannel(p)) {
          Optional<StoredBytes.Range> r = ((StoredBytes) ch).storedRange();
          if (r.isEmpty()) {
            continue;
          }
          ranged.add(p.toString());
          StoredBytes.Range range = r.get();
          assertEquals(shown.length, range.size(), p.toString());
          try (FileChannel f = FileChannel.open(range.file())) {
            assertEquals(range.fileKey(), Files.readAttributes(range.file(), BasicFileAttributes.class).fileKey());
            ByteBuffer b = ByteBuffer.allocate(shown.length);
            while (b.hasRemaining() && f.read(b, range.offset() + b.position()) > 0) {
              // read the whole range
            }
            assertArrayEquals(shown, b.array(), p + " at " + range.offset() + " of " + range.file());
          }
          assertTrue(!p.toString().endsWith("graph.json") && !p.toString().contains("/metadata/"), p.toString());
        }
      }
    }
    return ranged;
  }

  @Test
  void noRangeForBytesWrittenInThisSessionOrAClosedChannel() throws Exception {
    Path model = ProviderTestModels.write(tmp, Format.SDNB);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path w = fs.getPath(ProviderTestModels.W);
      SeekableByteChannel before = Files.newByteChannel(w);
      assertTrue(((StoredBytes) before).storedRange().isPresent());
      Files.write(w, new byte[(int) ProviderTestModels.W_SIZE]);
      try (SeekableByteChannel after = Files.newByteChannel(w)) {
        assertEquals(Optional.empty(), ((StoredBytes) after).storedRange());
      }
      // the channel opened before still reads the stored bytes, and still says where they are
      assertTrue(((StoredBytes) before).storedRange().isPresent());
      before.close();
      assertThrows(ClosedChannelException.class, () -> ((StoredBytes) before).storedRange());
    }
  }
}
