package org.modelfs.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonString} against a real JSON parser: Python's {@code json} module (strict: a raw
 * control character is refused) reads every string it writes back to the same UTF-16 code units,
 * over random strings made of the characters JSON writers disagree on (control characters, DEL,
 * quotes, backslashes, {@code /}, U+2028/U+2029, U+FEFF, paired and unpaired surrogates); and where
 * Python can write the string too (no unpaired surrogate), {@code json.dumps(s, ensure_ascii=False)}
 * writes the same bytes. Our own parser ({@link JsonText}) reads it back too.
 */
class JsonStringTest {
  private static final int STRINGS = 3000;

  private static final String PY = """
      import json, sys
      out = []
      for line in sys.stdin.buffer.read().split(b'\\n')[:-1]:
          v = json.loads(line.decode('utf-8'))
          out.append(v.encode('utf-16-be', 'surrogatepass').hex() + ' '
                     + json.dumps(v, ensure_ascii=False).encode('utf-8', 'surrogatepass').hex())
      sys.stdout.write('\\n'.join(out) + '\\n')
      """;

  /** A random string of the characters JSON writers treat differently. */
  static String randomString(Random r) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(12);
    for (int i = 0; i < n; i++) {
      switch (r.nextInt(10)) {
        case 0 -> sb.append((char) r.nextInt(0x20));
        case 1 -> sb.append("\"\\/\u007f".charAt(r.nextInt(4)));
        case 2 -> sb.append("\u2028\u2029\ufeff\uffff".charAt(r.nextInt(4)));
        case 3 -> sb.append((char) (0xd800 + r.nextInt(0x400))); // a high surrogate, maybe unpaired
        case 4 -> sb.append((char) (0xdc00 + r.nextInt(0x400))); // a low surrogate, maybe unpaired
        case 5 -> sb.appendCodePoint(0x10000 + r.nextInt(0x100000)); // a pair
        case 6 -> sb.append((char) (0x80 + r.nextInt(0xd800 - 0x80)));
        default -> sb.append((char) (0x20 + r.nextInt(0x5f)));
      }
    }
    return sb.toString();
  }

  private static boolean unpairedSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && (i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1)))) {
        return true;
      }
      if (Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)))) {
        return true;
      }
      if (Character.isHighSurrogate(c)) {
        i++; // its low half
      }
    }
    return false;
  }

  @Test
  void pythonsJsonReadsEveryStringBackAndWritesTheSameBytes() throws Exception {
    Random r = new Random(20261128);
    List<String> strings = new ArrayList<>();
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    for (int i = 0; i < STRINGS; i++) {
      String s = randomString(r);
      strings.add(s);
      String q = JsonString.quote(s);
      for (int k = 0; k < q.length(); k++) {
        char c = q.charAt(k);
        assertFalse(c < 0x20, "a raw control character in " + q);
      }
      assertFalse(unpairedSurrogate(q), "written text is valid UTF-16, so UTF-8 keeps it whole");
      assertEquals(s, JsonText.parse(q, 1, true));
      in.write(q.getBytes(StandardCharsets.UTF_8));
      in.write('\n');
    }
    List<String> lines = python(in.toByteArray());
    assertEquals(strings.size(), lines.size());
    HexFormat hex = HexFormat.of();
    int compared = 0;
    for (int i = 0; i < strings.size(); i++) {
      String s = strings.get(i);
      String[] f = lines.get(i).split(" ");
      assertEquals(utf16(s), f[0], "Python read back " + JsonString.quote(s));
      if (!unpairedSurrogate(s)) {
        assertEquals(hex.formatHex(JsonString.quote(s).getBytes(StandardCharsets.UTF_8)), f.length > 1 ? f[1] : "",
            "json.dumps(ensure_ascii=False) of " + JsonString.quote(s));
        compared++;
      }
    }
    assertTrue(compared > STRINGS / 10 && compared < STRINGS, "both kinds were drawn: " + compared);
  }

  @Test
  void theDecidedForms() {
    assertEquals("\"\\ud800\"", JsonString.quote("\ud800"), "an unpaired surrogate: its escape");
    assertEquals("\"\\udc00x\"", JsonString.quote("\udc00x"));
    assertEquals("\"\ud83d\ude00\"", JsonString.quote("\ud83d\ude00"), "a pair: raw");
    assertEquals("\"\\n\\r\\t\\b\\f\\u0000\\u001f\u007f\"", JsonString.quote("\n\r\t\b\f\u0000\u001f\u007f"));
    assertEquals("\"\u2028\u2029/\\\"\\\\\"", JsonString.quote("\u2028\u2029/\"\\"));
  }

  /** {@code s}'s UTF-16 code units in hex, unpaired surrogates included (as Python's surrogatepass). */
  private static String utf16(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      sb.append(String.format("%04x", (int) s.charAt(i)));
    }
    return sb.toString();
  }

  private static List<String> python(byte[] input) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder("python3", "-c", PY).redirectErrorStream(false).start();
    } catch (IOException e) {
      Assumptions.abort("python3 is not installed: the cross-check with Python's json module is skipped");
      return List.of();
    }
    CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
    try (OutputStream o = p.getOutputStream()) {
      o.write(input);
    }
    int rc = p.waitFor();
    assertEquals(0, rc, "python3: " + new String(err.get(), StandardCharsets.UTF_8));
    return new String(out.get(), StandardCharsets.UTF_8).lines().toList();
  }

  private static byte[] readAll(InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
