package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.HandArrays.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.HandArrays.Var;

/**
 * UTF8 arrays of legacy fb files in the older layout (big-endian count, big-endian offsets;
 * docs/FORMATS.md §3.8): presented in the M2.1 layout, written back in it, and buffers in
 * neither layout opening but refusing every read.
 */
class LegacyUtf8Test {
  @TempDir Path dir;

  static final String CONDITION = "Condition x == y did not hold element-wise:";
  static final String[] SEVERAL = {"", "first", "", "x == y", "ünïcödé", ""};

  private Path model(String name, byte[] buffer, long... dims) throws IOException {
    return Files.write(dir.resolve(name), fb(List.of(
        new Var("w", FLOAT, VARIABLE, null, array(shapeInfo(8192, 2), FLOAT, 1, floats(2, ByteOrder.BIG_ENDIAN), null,
            null, 0, 0)),
        new Var("s", UTF8, CONSTANT, null, array(shapeInfo(1048576, dims), UTF8, 1, buffer, null, null, 0, 0)))));
  }

  private static byte[] params(Path model, String name) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      return Files.readAllBytes(fs.getPath("/tags/default/params/" + name));
    }
  }

  @Test
  void olderScalarReadsAsTheRealStringInTheM21Layout() throws IOException {
    Path m = model("scalar.fb", olderUtf8(CONDITION));
    assertArrayEquals(utf8(CONDITION), params(m, "s"));
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertEquals(utf8(CONDITION).length, Files.size(fs.getPath("/tags/default/params/s")));
    }
  }

  @Test
  void olderVectorWithEmptyStringsReads() throws IOException {
    Path m = model("vector.fb", olderUtf8(SEVERAL), SEVERAL.length);
    assertArrayEquals(utf8(SEVERAL), params(m, "s"));
  }

  @Test
  void readsAtAnyPositionMatchTheM21Layout() throws IOException {
    String[] many = Stream.iterate(0, i -> i + 1).limit(3000).map(i -> i % 7 == 0 ? "" : "s" + i).toArray(String[]::new);
    byte[] want = utf8(many);
    Path m = model("many.fb", olderUtf8(many), many.length);
    try (FileSystem fs = ModelFileSystems.open(m);
        SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/tags/default/params/s"))) {
      for (int[] r : new int[][] {{13, 5000}, {4095, 9}, {8 * 3001 - 3, 40}, {0, want.length}, {8 * 512 - 1, 8 * 600}}) {
        ByteBuffer b = ByteBuffer.allocate(r[1]);
        ch.position(r[0]);
        while (b.hasRemaining() && ch.read(b) > 0) {}
        assertArrayEquals(Arrays.copyOfRange(want, r[0], r[0] + r[1]), b.array(), Arrays.toString(r));
      }
    }
  }

  @Test
  void convertingToFbStoresTheM21Layout() throws IOException {
    Path m = model("conv.fb", olderUtf8(SEVERAL), SEVERAL.length);
    Path out = dir.resolve("out.fb");
    try (Model model = Models.open(m)) {
      ModelFiles.write(model.newest(), out, WriteOptions.of(ModelFormat.FB));
    }
    byte[] file = Files.readAllBytes(out);
    assertTrue(contains(file, utf8(SEVERAL)), "the M2.1 layout is stored");
    assertFalse(contains(file, olderUtf8(SEVERAL)), "the older layout is gone");
    assertArrayEquals(utf8(SEVERAL), params(out, "s"));
  }

  @Test
  void theM21LayoutWinsWhereBothFit() throws IOException {
    // no strings: 16 zero bytes are one offset 0 and 8 string bytes (M2.1), or count 0 and offset 0 (older)
    Path m = model("zero.fb", new byte[16], 0);
    assertArrayEquals(new byte[16], params(m, "s"));
    Path one = model("m21.fb", utf8("a", "bc"), 2);
    assertArrayEquals(utf8("a", "bc"), params(one, "s"));
  }

  @Test
  void olderLayoutWithDecreasingOffsetsFailsOnRead() throws IOException {
    byte[] b = olderUtf8("ab", "cd", "ef");
    ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN).putLong(8 + 8 * 2, 1); // offsets 0, 2, 1, 6
    Path m = model("decreasing.fb", b, 3);
    assertEquals(2, params(m, "w").length / 4, "the rest of the model reads");
    IOException e = assertThrows(IOException.class, () -> params(m, "s"));
    assertTrue(e instanceof ModelFormatException, e.toString());
    assertTrue(e.getMessage().contains("decreasing.fb: FlatArray.buffer (older UTF8 layout) at offset"), e.getMessage());
    assertTrue(e.getMessage().contains("string offset 2 is 1, less than the one before (2)"), e.getMessage());
  }

  @Test
  void aBufferInNeitherLayoutOpensButRefusesReadsAndConversion() throws IOException {
    byte[] b = olderUtf8("ab", "cd");
    ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN).putLong(0, 7); // count 7 for 2 strings
    Path m = model("neither.fb", b, 2);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Path s = fs.getPath("/tags/default/params/s");
      try (Stream<Path> list = Files.list(fs.getPath("/tags/default/params"))) {
        assertEquals(2, list.count());
      }
      assertEquals(b.length, Files.size(s));
      ModelFormatException e = assertThrows(ModelFormatException.class, () -> Files.readAllBytes(s));
      assertTrue(e.getMessage().startsWith("neither.fb: FlatArray.buffer (UTF8) at offset "), e.getMessage());
      assertTrue(e.getMessage().contains("a UTF8 buffer in no layout DL4J reads: its first offset is "
          + Long.reverseBytes(7) + ", not 0 (M2.1 layout), and it is not the older layout either (big-endian count 7,"
          + " but the shape holds 2 strings)"), e.getMessage());
    }
    try (Model model = Models.open(m)) {
      IOException e = assertThrows(IOException.class,
          () -> ModelFiles.write(model.newest(), dir.resolve("no.fb"), WriteOptions.of(ModelFormat.FB)));
      assertTrue(e.getMessage().contains("no layout DL4J reads"), e.getMessage());
    }
    assertFalse(Files.exists(dir.resolve("no.fb")));
  }

  static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
