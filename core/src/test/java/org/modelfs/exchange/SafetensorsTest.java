package org.modelfs.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;

/**
 * safetensors: the header bytes (length, compact JSON, space padding to 8), files checked by
 * {@link SafetensorsSpec}, a reader written from the format's specification (not {@link Safetensors#read}), round
 * trips of every dtype in c and f order (f transposed to row-major), and bad files refused.
 */
class SafetensorsTest {
  @TempDir Path tmp;

  @Test
  void headerBytesAreCompactJsonPaddedWithSpacesToEight() {
    List<Safetensors.Tensor> ts = List.of(new Safetensors.Tensor("layer0/W", DType.FLOAT, new long[] {2, 3}, 0, 24),
        new Safetensors.Tensor("b", DType.HALF, new long[] {}, 24, 26));
    byte[] h = Safetensors.header(ts, Map.of("format", "pt"));
    String json = "{\"__metadata__\":{\"format\":\"pt\"},\"layer0/W\":{\"dtype\":\"F32\",\"shape\":[2,3],"
        + "\"data_offsets\":[0,24]},\"b\":{\"dtype\":\"F16\",\"shape\":[],\"data_offsets\":[24,26]}}";
    int padded = (json.length() + 7) / 8 * 8;
    ByteBuffer expected = ByteBuffer.allocate(8 + padded).order(ByteOrder.LITTLE_ENDIAN);
    expected.putLong(padded).put(json.getBytes(StandardCharsets.UTF_8));
    while (expected.hasRemaining()) {
      expected.put((byte) ' ');
    }
    assertArrayEquals(expected.array(), h);
    assertTrue(new String(Safetensors.header(ts, Map.of()), StandardCharsets.UTF_8).indexOf("__metadata__") < 0,
        "no __metadata__ without metadata, as the reference writes it");
  }

  @Test
  void namesAndMetadataAreEscapedAsJson() throws IOException {
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("quote\"back\\slash", "line\nbreak\ttab\u0001ünï");
    Path out = tmp.resolve("e.safetensors");
    Path src = tmp.resolve("src");
    Files.write(src, new byte[4]);
    try (FileChannel o = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      Safetensors.write(o, List.of(new Safetensors.Entry("a\"b/ü\\c", DType.FLOAT, new long[] {1}, 'c',
          () -> FileChannel.open(src))), meta, "e", x -> { });
    }
    Map<String, String> gotMeta = new LinkedHashMap<>();
    Map<String, SafetensorsSpec.Tensor> got = SafetensorsSpec.read(Files.readAllBytes(out), gotMeta);
    assertEquals(meta, gotMeta);
    assertEquals(List.of("a\"b/ü\\c"), new ArrayList<>(got.keySet()));
    try (FileChannel in = FileChannel.open(out)) {
      Safetensors.Header h = Safetensors.read(in, "e");
      assertEquals(meta, h.metadata());
      assertEquals("a\"b/ü\\c", h.tensors().get(0).name());
    }
  }

  /** Every dtype, c and f order, scalars, empty arrays: written, checked by the spec reader, read back. */
  @Test
  void roundTripEveryDtypeAndOrder() throws IOException {
    long[][] shapes = {{}, {3}, {3, 4}, {2, 3, 4}, {0}, {2, 0, 3}, {1, 5}};
    List<Safetensors.Entry> entries = new ArrayList<>();
    Map<String, byte[]> stored = new LinkedHashMap<>();
    Map<String, byte[]> rowMajor = new LinkedHashMap<>();
    int i = 0;
    for (DType t : DType.values()) {
      if (Safetensors.dtypeName(t) == null) {
        continue;
      }
      for (long[] shape : shapes) {
        for (char order : new char[] {'c', 'f'}) {
          String name = t + "/" + Arrays.toString(shape) + order;
          byte[] data = ArrayCopyTest.random((int) Shapes.byteLength(shape, t.width()), i);
          Path src = tmp.resolve("s" + i++);
          Files.write(src, data);
          entries.add(new Safetensors.Entry(name, t, shape, order, () -> FileChannel.open(src)));
          stored.put(name, data);
          rowMajor.put(name, order == 'f' ? ArrayCopyTest.naiveFToC(data, shape, t.width()) : data);
        }
      }
    }
    assertEquals(13 * shapes.length * 2, entries.size());
    Path out = tmp.resolve("all.safetensors");
    long[] progress = {0};
    try (FileChannel o = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      Safetensors.write(o, entries, Map.of("k", "v"), "all", x -> progress[0] += x);
    }
    Map<String, String> meta = new LinkedHashMap<>();
    Map<String, SafetensorsSpec.Tensor> spec = SafetensorsSpec.read(Files.readAllBytes(out), meta);
    assertEquals(Map.of("k", "v"), meta);
    assertEquals(rowMajor.keySet(), spec.keySet());
    long total = 0;
    for (Safetensors.Entry e : entries) {
      SafetensorsSpec.Tensor s = spec.get(e.name());
      assertEquals(Safetensors.dtypeName(e.dtype()), s.dtype());
      assertEquals(Arrays.stream(e.shape()).boxed().toList(), s.shape());
      assertArrayEquals(rowMajor.get(e.name()), s.data(), e.name());
      total += s.data().length;
    }
    assertEquals(total, progress[0]);
    try (FileChannel in = FileChannel.open(out)) {
      Safetensors.Header h = Safetensors.read(in, "all");
      assertEquals(entries.size(), h.tensors().size());
      for (Safetensors.Tensor t : h.tensors()) {
        Safetensors.Entry e = entries.stream().filter(x -> x.name().equals(t.name())).findFirst().orElseThrow();
        assertEquals(e.dtype(), t.dtype());
        assertArrayEquals(e.shape(), t.shape());
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        try (WritableByteChannel o = Channels.newChannel(back)) {
          Safetensors.copyData(in, h, t, e.order(), o, x -> { }); // back into the entry's own order
        }
        assertArrayEquals(stored.get(t.name()), back.toByteArray(), t.name());
      }
    }
  }

  @Test
  void dtypeTableBothWays() {
    String[] names = {"F64", "F32", "F16", "BF16", "I64", "I32", "I16", "I8", "U8", "U16", "U32", "U64", "BOOL"};
    DType[] types = {DType.DOUBLE, DType.FLOAT, DType.HALF, DType.BFLOAT16, DType.INT64, DType.INT32, DType.INT16,
        DType.INT8, DType.UINT8, DType.UINT16, DType.UINT32, DType.UINT64, DType.BOOL};
    for (int i = 0; i < names.length; i++) {
      assertEquals(names[i], Safetensors.dtypeName(types[i]));
      assertEquals(types[i], Safetensors.dtype(names[i]));
    }
    for (DType t : new DType[] {DType.UTF8, DType.FLOAT8, DType.QINT8, DType.QINT16}) {
      assertEquals(null, Safetensors.dtypeName(t));
    }
    assertEquals(null, Safetensors.dtype("F8_E4M3"));
  }

  @Test
  void duplicateAndUnsupportedEntriesAreRefused() throws IOException {
    Path src = tmp.resolve("src");
    Files.write(src, new byte[4]);
    Safetensors.Entry a = new Safetensors.Entry("a", DType.FLOAT, new long[] {1}, 'c', () -> FileChannel.open(src));
    Safetensors.Entry s = new Safetensors.Entry("s", DType.UTF8, new long[] {1}, 'c', () -> FileChannel.open(src));
    Safetensors.Entry wrong = new Safetensors.Entry("w", DType.FLOAT, new long[] {2}, 'c', () -> FileChannel.open(src));
    WritableByteChannel sink = Channels.newChannel(new ByteArrayOutputStream());
    assertTrue(assertThrows(ExchangeException.class, () -> Safetensors.write(sink, List.of(a, a), Map.of(), "o", x -> { }))
        .getMessage().contains("two tensors would be named 'a'"));
    assertTrue(assertThrows(ExchangeException.class, () -> Safetensors.write(sink, List.of(s), Map.of(), "o", x -> { }))
        .getMessage().contains("UTF8 has no safetensors dtype"));
    assertTrue(assertThrows(ExchangeException.class, () -> Safetensors.write(sink, List.of(wrong), Map.of(), "o", x -> { }))
        .getMessage().contains("holds 4 bytes, but FLOAT[2] needs 8"));
  }

  private Path file(String json, int dataBytes) throws IOException {
    byte[] j = json.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(8 + j.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(j.length).put(j);
    Path p = Files.createTempFile(tmp, "bad", ".safetensors");
    Files.write(p, b.array());
    return p;
  }

  private static Safetensors.Header read(Path p) throws IOException {
    try (FileChannel in = FileChannel.open(p)) {
      return Safetensors.read(in, p.getFileName().toString());
    }
  }

  @ParameterizedTest
  @CsvSource(delimiterString = "=>", quoteCharacter = '`', value = {
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}                 => 8  => ",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}                 => 4  => the file ends early",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}                 => 12 => 4 bytes after the last tensor",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}                 => 4  => needs 8 bytes",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[4611686018427387904,2],\"data_offsets\":[0,8]}} => 8 => F32 shape [4611686018427387904, 2] × 4 bytes is 2^63 bytes or more",
    "{\"a\":{\"dtype\":\"F8_E4M3\",\"shape\":[2],\"data_offsets\":[0,2]}}             => 2  => dtype F8_E4M3 has no ModelFS type",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}                => 8  => dimensions are integers",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}                => 12 => belong to no tensor",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}} => 8 => the previous tensor ends at 8",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}                 => 8  => not [begin, end]",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2]}}                                        => 8  => not [begin, end]",
    "{\"a\":{\"dtype\":\"F32\",\"data_offsets\":[0,8]}}                              => 8  => no shape list",
    "{\"a\":{\"shape\":[2],\"data_offsets\":[0,8]}}                                  => 8  => no dtype string",
    "{\"a\":[1,2]}                                                                  => 0  => not an object with dtype",
    "{\"__metadata__\":{\"k\":1}}                                                   => 0  => is not a string",
    "{\"__metadata__\":[]}                                                          => 0  => __metadata__ is not an object",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}} => 8 => not valid JSON",
    "{\"a\":                                                                        => 0  => not valid JSON",
    "[1]                                                                            => 0  => does not start with '{'",
  })
  void badFilesAreRefused(String json, int data, String problem) throws IOException {
    Path p = file(json, data);
    if (problem == null) {
      assertEquals(1, read(p).tensors().size());
      return;
    }
    ExchangeException e = assertThrows(ExchangeException.class, () -> read(p));
    assertTrue(e.getMessage().startsWith(p.getFileName() + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
  }

  @Test
  void badLengthsAreRefused() throws IOException {
    Path tiny = tmp.resolve("tiny.safetensors");
    Files.write(tiny, new byte[5]);
    assertTrue(assertThrows(ExchangeException.class, () -> read(tiny)).getMessage().contains("not a safetensors file"));
    Path huge = tmp.resolve("huge.safetensors");
    Files.write(huge, ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(1L << 40).array());
    assertTrue(assertThrows(ExchangeException.class, () -> read(huge)).getMessage().contains("beyond our budget"));
    Path cut = tmp.resolve("cut.safetensors");
    Files.write(cut, ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(100).array());
    assertTrue(assertThrows(ExchangeException.class, () -> read(cut)).getMessage().contains("ends inside the header"));
    Path npy = tmp.resolve("really.npy.safetensors");
    Files.write(npy, Npy.header(DType.FLOAT, new long[] {1}, 'c', false, "x"));
    assertTrue(assertThrows(ExchangeException.class, () -> read(npy)).getMessage().contains("not a safetensors file"));
  }
}
