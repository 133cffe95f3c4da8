package org.modelfs.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;

/**
 * The {@code .npy} header as NumPy (1.24+) writes it, byte for byte; round trips of every dtype
 * in c and f order, scalars and empty arrays; bad headers refused with the file's name.
 */
class NpyTest {
  @TempDir Path tmp;

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  @Test
  void headerIsWhatNumPyWritesFor2x3Float32() throws IOException {
    byte[] h = Npy.header(DType.FLOAT, new long[] {2, 3}, 'c', false, "w");
    String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    // magic, version 1.0, header length 118 (little-endian), dict, 20 spaces of growth room for
    // the first dimension (21 - len("2")), spaces to 127 bytes, a newline: 128 = 2 × 64
    String expected = "\u0093NUMPY\u0001\u0000\u0076\u0000" + dict + " ".repeat(127 - 10 - dict.length()) + "\n";
    assertEquals(expected, text(h));
    assertEquals(128, h.length);
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
    "FLOAT    ; \"\"       ; c ; {'descr': '<f4', 'fortran_order': False, 'shape': (), }",
    "DOUBLE   ; 7        ; c ; {'descr': '<f8', 'fortran_order': False, 'shape': (7,), }",
    "INT64    ; 3,4      ; f ; {'descr': '<i8', 'fortran_order': True, 'shape': (3, 4), }",
    "BOOL     ; 0        ; c ; {'descr': '|b1', 'fortran_order': False, 'shape': (0,), }",
    "INT8     ; 2,2,2    ; c ; {'descr': '|i1', 'fortran_order': False, 'shape': (2, 2, 2), }",
    "UINT8    ; 5        ; c ; {'descr': '|u1', 'fortran_order': False, 'shape': (5,), }",
    "HALF     ; 1        ; f ; {'descr': '<f2', 'fortran_order': False, 'shape': (1,), }",
    "INT32    ; 1        ; c ; {'descr': '<i4', 'fortran_order': False, 'shape': (1,), }",
    "INT16    ; 1        ; c ; {'descr': '<i2', 'fortran_order': False, 'shape': (1,), }",
    "UINT16   ; 1        ; c ; {'descr': '<u2', 'fortran_order': False, 'shape': (1,), }",
    "UINT32   ; 1        ; c ; {'descr': '<u4', 'fortran_order': False, 'shape': (1,), }",
    "UINT32   ; 0,3      ; f ; {'descr': '<u4', 'fortran_order': False, 'shape': (0, 3), }",
    "FLOAT    ; 1,3,1    ; f ; {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 1), }",
    "FLOAT    ; 2,3,1    ; f ; {'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 1), }",
    "UINT64   ; 12345678901234,2 ; c ; {'descr': '<u8', 'fortran_order': False, 'shape': (12345678901234, 2), }",
  })
  void headerDictPaddingAndAlignment(DType t, String dims, char order, String dict) throws IOException {
    long[] shape = dims.isEmpty() ? new long[0] : Arrays.stream(dims.split(",")).mapToLong(Long::parseLong).toArray();
    byte[] h = Npy.header(t, shape, order, false, "w");
    String s = text(h);
    assertTrue(s.startsWith("\u0093NUMPY\u0001\u0000"), s);
    assertEquals(0, h.length % 64, s);
    assertEquals(h.length - 10, ByteBuffer.wrap(h, 8, 2).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xffff);
    assertEquals(dict, s.substring(10, 10 + dict.length()));
    String rest = s.substring(10 + dict.length());
    assertTrue(rest.endsWith("\n") && rest.substring(0, rest.length() - 1).isBlank() && !rest.contains("\t"), rest);
    long growth = shape.length == 0 ? -1 : shape[order == 'f' && !Npy.orderFree(shape) ? shape.length - 1 : 0];
    int room = growth < 0 ? 0 : 21 - Long.toString(growth).length();
    int pad = rest.length() - 1 - room;
    assertTrue(pad >= 1 && pad <= 64, "padding " + pad); // NumPy pads 64 when already aligned
  }

  @Test
  void everyDtypeHasItsDescrAndTheOthersAreRefused() {
    assertEquals("<u2", assertDoesNotThrow(() -> Npy.descr(DType.BFLOAT16, true, "w")));
    ExchangeException bf = assertThrows(ExchangeException.class, () -> Npy.descr(DType.BFLOAT16, false, "m.fb:/params/b"));
    assertTrue(bf.getMessage().startsWith("m.fb:/params/b: BFLOAT16 has no NumPy dtype; give --raw-bfloat16"), bf.getMessage());
    ExchangeException utf = assertThrows(ExchangeException.class, () -> Npy.descr(DType.UTF8, false, "m.fb:/params/s"));
    assertTrue(utf.getMessage().contains("UTF8 (string) array has no NumPy equivalent without pickling"), utf.getMessage());
    for (DType t : new DType[] {DType.FLOAT8, DType.QINT8, DType.QINT16}) {
      assertThrows(ExchangeException.class, () -> Npy.descr(t, true, "x"));
    }
  }

  private static <T> T assertDoesNotThrow(ThrowingSupplier<T> s) {
    return Assertions.assertDoesNotThrow(s);
  }

  static List<DType> npyTypes() {
    List<DType> out = new ArrayList<>();
    for (DType t : DType.values()) {
      try {
        Npy.descr(t, false, "x");
        out.add(t);
      } catch (ExchangeException e) {
        // refused ones are tested above
      }
    }
    return out;
  }

  /** Writes an array through {@link Npy#write}, reads it back through the header reader and {@link Npy#copyData}. */
  @Test
  void roundTripEveryDtypeOrderScalarAndEmpty() throws IOException {
    List<DType> types = npyTypes();
    assertEquals(12, types.size(), types.toString());
    types.add(DType.BFLOAT16); // with --raw-bfloat16
    long[][] shapes = {{}, {1}, {5}, {3, 4}, {2, 3, 4}, {0}, {2, 0}, {1, 1, 1}};
    int file = 0;
    for (DType t : types) {
      for (long[] shape : shapes) {
        for (char order : new char[] {'c', 'f'}) {
          boolean raw = t == DType.BFLOAT16;
          int len = (int) Shapes.byteLength(shape, t.width());
          byte[] data = ArrayCopyTest.random(len, file);
          Path src = tmp.resolve("src" + file);
          Files.write(src, data);
          Path npy = tmp.resolve("a" + file++ + ".npy");
          try (FileChannel in = FileChannel.open(src);
              FileChannel out = FileChannel.open(npy, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            Npy.write(out, t, shape, order, raw, in, 0, len, "x", x -> { });
          }
          try (FileChannel in = FileChannel.open(npy)) {
            Npy.Header h = Npy.readHeader(in, npy.toString(), raw);
            assertEquals(t, h.dtype());
            assertArrayEquals(shape, h.shape());
            assertEquals(Npy.orderFree(shape) ? 'c' : order, h.order()); // as np.save writes it
            assertFalse(h.bigEndian());
            assertEquals(0, h.dataOffset() % 64);
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try (WritableByteChannel o = Channels.newChannel(got)) {
              Npy.copyData(in, h, o, x -> { });
            }
            assertArrayEquals(data, got.toByteArray(), t + " " + Arrays.toString(shape) + " " + order);
          }
        }
      }
    }
  }

  private Path npy(String header, byte[] data) throws IOException {
    return npy(1, header, data);
  }

  private Path npy(int major, String header, byte[] data) throws IOException {
    byte[] h = header.getBytes(major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    ByteBuffer b = ByteBuffer.allocate(12 + h.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put(Npy.MAGIC).put((byte) major).put((byte) 0);
    if (major == 1) {
      b.putShort((short) h.length);
    } else {
      b.putInt(h.length);
    }
    b.put(h).put(data);
    Path p = Files.createTempFile(tmp, "h", ".npy");
    Files.write(p, Arrays.copyOf(b.array(), b.position()));
    return p;
  }

  private Npy.Header read(Path p) throws IOException {
    try (FileChannel in = FileChannel.open(p)) {
      return Npy.readHeader(in, p.getFileName().toString(), false);
    }
  }

  @Test
  void headersNumPyAcceptsInOtherSpellings() throws IOException {
    // double quotes, another key order, no trailing comma, Python 2 longs, version 2.0 and 3.0
    Npy.Header h = read(npy("{\"shape\": (2L, 3L), \"fortran_order\": True, \"descr\": \">f8\"}\n", new byte[48]));
    assertEquals(DType.DOUBLE, h.dtype());
    assertArrayEquals(new long[] {2, 3}, h.shape());
    assertEquals('f', h.order());
    assertTrue(h.bigEndian());
    assertEquals(DType.BOOL, read(npy(2, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", new byte[3])).dtype());
    assertEquals(DType.UINT8, read(npy(3, "{'descr': '|u1', 'fortran_order': False, 'shape': (), } ", new byte[1])).dtype());
    assertEquals(DType.INT8, read(npy("{'descr': '>i1', 'fortran_order': False, 'shape': (1,)}", new byte[1])).dtype());
  }

  @Test
  void bigEndianIsSwappedWhileCopying() throws IOException {
    ByteBuffer be = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN).putDouble(1.5).putDouble(-2.25);
    Path p = npy("{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }", be.array());
    try (FileChannel in = FileChannel.open(p)) {
      Npy.Header h = Npy.readHeader(in, "x", false);
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try (WritableByteChannel o = Channels.newChannel(got)) {
        Npy.copyData(in, h, o, x -> { });
      }
      ByteBuffer le = ByteBuffer.wrap(got.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(1.5, le.getDouble());
      assertEquals(-2.25, le.getDouble());
    }
  }

  @ParameterizedTest
  @CsvSource(delimiterString = "=>", quoteCharacter = '"', value = {
    "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }                => object array",
    "{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (2,), } => structured dtype",
    "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }               => (complex numbers) has no ModelFS type",
    "{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }               => (fixed-width strings)",
    "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (2,), }           => is not one ModelFS holds",
    "{'descr': '<f16', 'fortran_order': False, 'shape': (2,), }              => has no ModelFS type",
    "{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }               => 'not applicable' for a byte order",
    "{'descr': '<f4', 'fortran_order': False, 'shape': [2], }                => not a tuple of integers",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }              => dimensions are integers ≥ 0",
    "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }                   => not True or False",
    "{'descr': '<f4', 'shape': (2,), }                                       => lacks 'fortran_order'",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}         => has a key 'x'",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (2,)}  => given twice",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)                  => not a Python dict literal",
    "{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}                  => not a Python dict literal",
    "['descr', '<f4']                                                        => not a dict",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk            => text after the dict",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }               => the file ends early",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }               => longer than its array",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), } => × 4 bytes is 2^63 bytes or more",
  })
  void badHeadersAreRefused(String header, String problem) throws IOException {
    Path p = npy(header, new byte[8]);
    ExchangeException e = assertThrows(ExchangeException.class, () -> read(p));
    assertTrue(e.getMessage().startsWith(p.getFileName() + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
  }

  @Test
  void badPreamblesAreRefused() throws IOException {
    Path notNpy = tmp.resolve("x.npy");
    Files.writeString(notNpy, "PK\u0003\u0004 not numpy");
    assertTrue(assertThrows(ExchangeException.class, () -> read(notNpy)).getMessage().contains("not a NumPy .npy file"));
    Path v4 = npy(4, "{}", new byte[0]);
    assertTrue(assertThrows(ExchangeException.class, () -> read(v4)).getMessage().contains("version 4.0"));
    Path big = npy(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" + " ".repeat(20_000), new byte[8]);
    assertTrue(assertThrows(ExchangeException.class, () -> read(big)).getMessage().contains("at most 10000"));
    Path cut = tmp.resolve("cut.npy");
    Files.write(cut, Arrays.copyOf(Files.readAllBytes(npy("{'descr': '<f4'}", new byte[0])), 9));
    assertTrue(assertThrows(ExchangeException.class, () -> read(cut)).getMessage().contains("preamble"));
    Path shortHeader = tmp.resolve("short.npy");
    Files.write(shortHeader, Arrays.copyOf(Files.readAllBytes(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", new byte[0])), 30));
    assertTrue(assertThrows(ExchangeException.class, () -> read(shortHeader)).getMessage().contains("ends inside the .npy header"));
    Path badUtf8 = tmp.resolve("u.npy");
    byte[] b = Files.readAllBytes(npy(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", new byte[8]));
    b[14] = (byte) 0xff;
    Files.write(badUtf8, b);
    assertTrue(assertThrows(ExchangeException.class, () -> read(badUtf8)).getMessage().contains("not UTF-8"));
  }
}
