package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributeView;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ByteSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * The mount option {@code byteOrder=stored} (docs/FILESYSTEM.md §4, §6.1): files of big-endian
 * (fb) arrays show their stored bytes, say so in {@code samediff:byteOrder}, map the container's
 * own pages; bytes written to them are taken big-endian, a new file is little-endian, and copies
 * between mounts of either order keep the values.
 */
class StoredByteOrderTest {
  private static final int ELEMENTS = 300_000;
  private static final Map<String, String> STORED = Map.of("byteOrder", "stored");
  @TempDir Path tmp;

  private Path write(ModelFormat format, String name) throws IOException {
    Path out = tmp.resolve(name);
    var synthetic = SyntheticModels.floats(tmp.resolve(name + ".data"), 3, ELEMENTS);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), out, WriteOptions.of(format));
    }
    return out;
  }

  /** {@code little} with every element's bytes reversed (4-byte floats). */
  static byte[] big(byte[] little) {
    byte[] out = little.clone();
    for (int i = 0; i + 4 <= out.length; i += 4) {
      for (int k = 0; k < 4; k++) {
        out[i + k] = little[i + 3 - k];
      }
    }
    return out;
  }

  private static byte[] pattern(int array) {
    return FloatPattern.bytes(array, 0, 4 * ELEMENTS);
  }

  @Test
  void storedOrderShowsTheStoredBytesAndMapsTheContainersPages() throws IOException {
    Path fb = write(ModelFormat.FB, "m.fb");
    long absolute;
    try (Model m = Models.open(fb)) {
      ArrayData a = m.newest().variable("big/w1").array();
      ByteSource.Mappable where = a.source().mappable(a.offset());
      absolute = where.position();
    }
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true"))) {
      Path p = fs.getPath("/params/big/w1");
      assertEquals("little", Files.getAttribute(p, "samediff:byteOrder"));
      assertEquals("little", Files.readAttributes(p, "samediff:*").get("byteOrder"));
      assertArrayEquals(pattern(1), Files.readAllBytes(p));
    }
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true", "byteOrder", "stored"))) {
      Path p = fs.getPath("/params/big/w1");
      assertEquals("big", Files.getAttribute(p, "samediff:byteOrder"));
      assertEquals("big", Files.getFileAttributeView(p, SamediffFileAttributeView.class).readAttributes().byteOrder());
      assertEquals("big-endian", Files.getAttribute(p, "samediff:stored"));
      assertEquals(null, Files.readAttributes(fs.getPath("/params/big"), "samediff:*").get("byteOrder"));
      assertArrayEquals(big(pattern(1)), Files.readAllBytes(p));
      try (FileChannel ch = FileChannel.open(p)) {
        ByteBuffer at = ByteBuffer.allocate(4096);
        ch.read(at, 4000);
        assertArrayEquals(Arrays.copyOfRange(big(pattern(1)), 4000, 8096), at.array());
        MappedByteBuffer map = ch.map(MapMode.READ_ONLY, 0, ch.size());
        byte[] mapped = new byte[map.capacity()];
        map.get(mapped);
        assertArrayEquals(big(pattern(1)), mapped);
        assertEquals(1, ((ModelFileSystem) fs).resources().count(), "no map() copy was made");
        // the container's own pages: a change to the file shows through the mapping
        try (FileChannel w = FileChannel.open(fb, StandardOpenOption.WRITE)) {
          w.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), absolute + 40);
        }
        assertEquals(1, map.get(40));
        assertEquals(4, map.get(43));
      }
    }
    Path sdnb = write(ModelFormat.SDNB, "m.sdnb");
    try (FileSystem fs = ModelFileSystems.open(sdnb, Map.of("readOnly", "true", "byteOrder", "stored"))) {
      Path p = fs.getPath("/params/big/w1");
      assertEquals("little", Files.getAttribute(p, "samediff:byteOrder"), "SDNB stores little-endian");
      assertArrayEquals(pattern(1), Files.readAllBytes(p));
    }
    assertThrows(IllegalArgumentException.class,
        () -> ModelFileSystems.open(sdnb, Map.of("byteOrder", "native")).close());
  }

  @Test
  void writesAreTakenInTheOrderTheFileShows() throws IOException {
    Path fb = write(ModelFormat.FB, "m.fb");
    byte[] newValues = pattern(2); // little-endian values of array 2, written big-endian onto w0
    try (FileSystem fs = ModelFileSystems.open(fb, STORED)) {
      Path w0 = fs.getPath("/params/big/w0");
      Files.write(w0, big(newValues));
      assertEquals("big", Files.getAttribute(w0, "samediff:byteOrder"));
      assertThrows(IllegalArgumentException.class, () -> Files.setAttribute(w0, "samediff:byteOrder", "little"),
          "read-only: it follows from the mount option and the file");
      assertArrayEquals(big(newValues), Files.readAllBytes(w0));
      // a write into the middle of a file showing big-endian bytes (no truncation)
      Path w1 = fs.getPath("/params/big/w1");
      try (FileChannel ch = FileChannel.open(w1, StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.wrap(big(FloatPattern.bytes(7, 0, 8))), 8);
      }
      byte[] w1Expected = pattern(1);
      System.arraycopy(FloatPattern.bytes(7, 0, 8), 0, w1Expected, 8, 8);
      assertArrayEquals(big(w1Expected), Files.readAllBytes(w1));
      assertEquals("big", Files.getAttribute(w1, "samediff:byteOrder"));
      // a new file is little-endian, in any mount
      Path fresh = fs.getPath("/params/fresh");
      Files.write(fresh, FloatPattern.bytes(5, 0, 400));
      assertEquals("little", Files.getAttribute(fresh, "samediff:byteOrder"));
      assertArrayEquals(FloatPattern.bytes(5, 0, 400), Files.readAllBytes(fresh));
      try (FileChannel before = FileChannel.open(fresh)) {
        ((JournaledFileSystem) fs).commit();
        // committed to fb, the new file is big-endian in the container now, and shows so at once;
        // a channel opened before the commit goes on reading what it read (little-endian)
        assertEquals("big", Files.getAttribute(fresh, "samediff:byteOrder"));
        assertArrayEquals(big(FloatPattern.bytes(5, 0, 400)), Files.readAllBytes(fresh));
        ByteBuffer old = ByteBuffer.allocate(400);
        before.read(old, 0);
        assertArrayEquals(FloatPattern.bytes(5, 0, 400), old.array());
      }
      assertArrayEquals(big(newValues), Files.readAllBytes(w0));
    }
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true"))) {
      assertArrayEquals(newValues, Files.readAllBytes(fs.getPath("/params/big/w0")));
      byte[] w1Expected = pattern(1);
      System.arraycopy(FloatPattern.bytes(7, 0, 8), 0, w1Expected, 8, 8);
      assertArrayEquals(w1Expected, Files.readAllBytes(fs.getPath("/params/big/w1")));
      assertArrayEquals(FloatPattern.bytes(5, 0, 400), Files.readAllBytes(fs.getPath("/params/fresh")));
    }
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true", "byteOrder", "stored"))) {
      // committed to fb, the new file is big-endian in the container now, and shows so
      assertEquals("big", Files.getAttribute(fs.getPath("/params/fresh"), "samediff:byteOrder"));
      assertArrayEquals(big(FloatPattern.bytes(5, 0, 400)), Files.readAllBytes(fs.getPath("/params/fresh")));
    }
  }

  @Test
  void copiesBetweenMountsOfEitherOrderKeepTheValues() throws IOException {
    Path fb = write(ModelFormat.FB, "a.fb");
    Path sdnb = write(ModelFormat.SDNB, "b.sdnb");
    try (FileSystem stored = ModelFileSystems.open(fb, STORED);
        FileSystem little = ModelFileSystems.open(sdnb)) {
      // big-endian file → new little-endian file
      Files.copy(stored.getPath("/params/big/w1"), little.getPath("/params/fromFb"));
      assertArrayEquals(pattern(1), Files.readAllBytes(little.getPath("/params/fromFb")));
      // little-endian file → a file showing big-endian bytes (it keeps its order)
      Files.copy(little.getPath("/params/big/w0"), stored.getPath("/params/big/w2"), StandardCopyOption.REPLACE_EXISTING);
      assertEquals("big", Files.getAttribute(stored.getPath("/params/big/w2"), "samediff:byteOrder"));
      assertArrayEquals(big(pattern(0)), Files.readAllBytes(stored.getPath("/params/big/w2")));
      // little-endian file → new file of the stored-order mount: little, unchanged
      Files.copy(little.getPath("/params/big/w1"), stored.getPath("/params/fromSdnb"));
      assertArrayEquals(pattern(1), Files.readAllBytes(stored.getPath("/params/fromSdnb")));
      // within the stored-order mount: big-endian file → new (little-endian) file
      Files.copy(stored.getPath("/params/big/w1"), stored.getPath("/params/copy"));
      assertEquals("little", Files.getAttribute(stored.getPath("/params/copy"), "samediff:byteOrder"));
      assertArrayEquals(pattern(1), Files.readAllBytes(stored.getPath("/params/copy")));
    }
    try (FileSystem a = ModelFileSystems.open(fb, Map.of("readOnly", "true"));
        FileSystem b = ModelFileSystems.open(sdnb, Map.of("readOnly", "true"))) {
      assertArrayEquals(pattern(1), Files.readAllBytes(b.getPath("/params/fromFb")));
      assertArrayEquals(pattern(0), Files.readAllBytes(a.getPath("/params/big/w2")));
      assertArrayEquals(pattern(1), Files.readAllBytes(a.getPath("/params/fromSdnb")));
      assertArrayEquals(pattern(1), Files.readAllBytes(a.getPath("/params/copy")));
      assertTrue(Files.size(a.getPath("/params/copy")) == 4L * ELEMENTS);
    }
  }

  /** On a provider that cannot map (jimfs), {@code map()} maps a copy of the bytes as the file shows them. */
  @Test
  void onAProviderThatCannotMapTheCopyHoldsTheShownBytes() throws IOException {
    Path fb = write(ModelFormat.FB, "m.fb");
    try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
      Path there = Files.copy(fb, jimfs.getPath("/m.fb"));
      try (FileSystem fs = ModelFileSystems.open(there, Map.of("readOnly", "true", "byteOrder", "stored"));
          FileChannel ch = FileChannel.open(fs.getPath("/params/big/w2"))) {
        MappedByteBuffer map = ch.map(MapMode.READ_ONLY, 0, ch.size());
        byte[] mapped = new byte[map.capacity()];
        map.get(mapped);
        assertArrayEquals(big(pattern(2)), mapped);
      }
    }
  }
}
