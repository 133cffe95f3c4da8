package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.FloatPattern;

/**
 * {@code FileChannel.map(READ_ONLY)} of a parameter of a model in the store works: the object
 * cannot be mapped, so the mount maps a copy of the parameter's bytes (docs/FILESYSTEM.md §5) —
 * for arrays stored raw too, which a local mount maps from the container itself.
 */
class MapFromStoreTest {
  static final int ELEMENTS = 300_000;

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdz", "sharded"})
  void mapOfAParameterGivesItsBytes(String format) throws Exception {
    Path local = tmp.resolve(format.equals("sdz") ? "m.sdz" : "m.sdnb");
    List<Path> files = TestModels.floats(local, 3, ELEMENTS, TestModels.options(format));
    try (S3TestServer s3 = S3TestServer.start()) {
      for (Path f : files) {
        s3.upload(f, "map/" + f.getFileName());
      }
      try (FileSystem fs = ModelFileSystems.open(s3.path("map/" + files.get(0).getFileName()),
          Map.of("readOnly", "true"))) {
        for (int i = 0; i < 3; i++) {
          try (FileChannel ch = FileChannel.open(fs.getPath("/params/big/w" + i))) {
            MappedByteBuffer map = ch.map(MapMode.READ_ONLY, 4, ch.size() - 4);
            assertEquals(4L * ELEMENTS - 4, map.capacity());
            byte[] got = new byte[map.capacity()];
            map.get(got);
            assertArrayEquals(FloatPattern.bytes(i, 4, got.length), got, format + ": map of w" + i);
          }
        }
      }
    }
  }
}
