package org.modelfs.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.format.JsonText;

/** A safetensors reader for tests, written from the format's specification, independent of {@link Safetensors#read}. */
public final class SafetensorsSpec {
  private SafetensorsSpec() {}

  /** What the specification says a file holds: tensors by name, each dtype, shape and row-major bytes. */
  public record Tensor(String dtype, List<Long> shape, byte[] data) {}

  /**
   * A reader from the specification: 8 bytes little-endian unsigned N; N bytes of UTF-8 JSON (an
   * object; {@code __metadata__} maps strings to strings; every other key a tensor with dtype,
   * shape, data_offsets relative to the byte after the header); the tensors' bytes must fill the
   * rest of the file exactly. JSON syntax is parsed by JsonText; everything else is checked here.
   */
  public static Map<String, Tensor> read(byte[] file, Map<String, String> metadataOut) {
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    long n = b.getLong();
    assertEquals(0, (8 + n) % 8, "the data starts on a multiple of 8");
    String json = new String(file, 8, (int) n, StandardCharsets.UTF_8);
    assertTrue(json.startsWith("{"), json);
    assertTrue(json.stripTrailing().endsWith("}"), json);
    assertTrue(json.substring(json.stripTrailing().length()).chars().allMatch(c -> c == ' '), "padding is spaces");
    Map<?, ?> top = (Map<?, ?>) JsonText.parse(json, 8, true);
    Map<String, Tensor> out = new LinkedHashMap<>();
    long dataLen = file.length - 8 - n;
    long covered = 0;
    Map<String, Integer> widths = Map.ofEntries(Map.entry("F64", 8), Map.entry("F32", 4), Map.entry("F16", 2),
        Map.entry("BF16", 2), Map.entry("I64", 8), Map.entry("I32", 4), Map.entry("I16", 2), Map.entry("I8", 1),
        Map.entry("U8", 1), Map.entry("U16", 2), Map.entry("U32", 4), Map.entry("U64", 8), Map.entry("BOOL", 1));
    for (Map.Entry<?, ?> e : top.entrySet()) {
      if (e.getKey().equals("__metadata__")) {
        ((Map<?, ?>) e.getValue()).forEach((k, v) -> metadataOut.put((String) k, (String) v));
        continue;
      }
      Map<?, ?> info = (Map<?, ?>) e.getValue();
      String dtype = (String) info.get("dtype");
      @SuppressWarnings("unchecked")
      List<Long> shape = (List<Long>) info.get("shape");
      List<?> off = (List<?>) info.get("data_offsets");
      long begin = (Long) off.get(0);
      long end = (Long) off.get(1);
      long count = shape.stream().reduce(1L, (x, y) -> x * y);
      assertEquals(count * widths.get(dtype), end - begin, e.getKey() + " size");
      assertTrue(end <= dataLen, e.getKey() + " inside the data");
      assertEquals(0, begin % widths.get(dtype), e.getKey() + " starts aligned to its element width");
      covered += end - begin;
      out.put((String) e.getKey(), new Tensor(dtype, shape,
          Arrays.copyOfRange(file, (int) (8 + n + begin), (int) (8 + n + end))));
    }
    assertEquals(dataLen, covered, "the tensors fill the data exactly");
    return out;
  }
}
