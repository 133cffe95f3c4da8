package org.modelfs.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.io.ByteSource;

/**
 * The framing of the shard-set pointer ({@link ShardPointer}: the small text at the model's own
 * key naming the shard objects, whose conditional write is the commit point): a magic first line,
 * UTF-8 lines ending in {@code \n} (no byte-order mark, no {@code \r}), a last line
 * {@code crc32c <8 hex>} — the CRC-32C of every byte before it — and at most {@value #MAX_BYTES}
 * bytes; each shard line's key is shard {@code k} of {@code N} of a generation of the model
 * ({@link StoreKeys}).
 */
final class PointerText {
  /** The most bytes a pointer may have. */
  static final int MAX_BYTES = 1 << 20;
  private static final byte[] BOM = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
  private static final String WHAT = "shard-set pointer";

  private PointerText() {}

  /** Whether {@code src} starts with one of {@code magics} (ASCII), after a byte-order mark if it has one. */
  static boolean sniff(ByteSource src, String... magics) throws IOException {
    int longest = 0;
    for (String m : magics) {
      longest = Math.max(longest, m.length());
    }
    ByteBuffer b = ByteBuffer.allocate((int) Math.min(longest + BOM.length, src.size()));
    src.readFully(b, 0);
    int from = b.capacity() >= BOM.length && Arrays.equals(b.array(), 0, BOM.length, BOM, 0, BOM.length) ? BOM.length
        : 0;
    for (String m : magics) {
      byte[] magic = m.getBytes(StandardCharsets.US_ASCII);
      if (b.capacity() - from >= magic.length && Arrays.equals(b.array(), from, from + magic.length, magic, 0,
          magic.length)) {
        return true;
      }
    }
    return false;
  }

  /** {@code body} (lines ending in {@code \n}) with its CRC line, as bytes. */
  static byte[] seal(String body) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(b);
    byte[] tail = String.format("crc32c %08x", crc.getValue()).concat("\n").getBytes(StandardCharsets.US_ASCII);
    byte[] out = Arrays.copyOf(b, b.length + tail.length);
    System.arraycopy(tail, 0, out, b.length, tail.length);
    return out;
  }

  /**
   * The lines of the pointer {@code src} before its CRC line (split at {@code \n}: the last is
   * empty), after its size, its last line and its CRC are checked; a failure is a
   * {@link ModelFormatException} naming {@code src}.
   */
  static String[] open(ByteSource src) throws IOException {
    String file = src.name();
    long size = src.size();
    if (size > MAX_BYTES) {
      throw new ModelFormatException(file, WHAT, 0, "is " + size + " bytes, more than the " + MAX_BYTES
          + " a pointer may have");
    }
    ByteBuffer all = ByteBuffer.allocate((int) size);
    src.readFully(all, 0);
    byte[] bytes = all.array();
    if (bytes.length >= BOM.length && Arrays.equals(bytes, 0, BOM.length, BOM, 0, BOM.length)) {
      throw new ModelFormatException(file, WHAT, 0, "line 1 starts with a byte-order mark (EF BB BF): not as ModelFS"
          + " writes it (edited by hand?)");
    }
    for (int i = 0, line = 1; i < bytes.length; i++) {
      if (bytes[i] == '\r') {
        throw new ModelFormatException(file, WHAT, i, "line " + line + " ends in CR LF or holds a CR: ModelFS ends"
            + " lines with LF only (edited by hand, or changed by a Windows tool?)");
      }
      line += bytes[i] == '\n' ? 1 : 0;
    }
    if (bytes.length == 0 || bytes[bytes.length - 1] != '\n') {
      throw new ModelFormatException(file, WHAT, Math.max(0, bytes.length - 1), "is cut short: " + bytes.length
          + " bytes, not ending with a line break");
    }
    int crcLine = lastLineStart(bytes);
    String tail = new String(bytes, crcLine, bytes.length - crcLine, StandardCharsets.US_ASCII);
    if (!tail.matches("crc32c [0-9a-f]{8}\n")) {
      throw new ModelFormatException(file, WHAT, crcLine, "does not end with its 'crc32c <8 hex>' line (cut short,"
          + " or not written by ModelFS)");
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, crcLine);
    long want = Long.parseLong(tail.substring(7, 15), 16);
    if (crc.getValue() != want) {
      throw new ModelFormatException(file, WHAT, crcLine, String.format("CRC-32C of its first %d bytes is %08x,"
          + " its last line says %08x", crcLine, crc.getValue(), want));
    }
    return new String(bytes, 0, crcLine, StandardCharsets.UTF_8).split("\n", -1);
  }

  /**
   * Refuses the key of line {@code lineNo} (1-based) of the pointer {@code file} unless it is
   * shard {@code k} of {@code n} of a generation of the model object {@code name}.
   */
  static void checkShard(String file, int lineNo, String key, int k, int n, String name)
      throws ModelFormatException {
    ShardNames.Shard s = StoreKeys.isGenerationShard(name, key) ? ShardNames.parse(key.substring(key.indexOf('/')
        + 1)) : null;
    if (s == null || s.index() != k || s.count() != n) {
      throw new ModelFormatException(file, WHAT, 0, "line " + lineNo + " names '" + key + "', not shard " + k
          + " of " + n + " of a generation of " + name);
    }
  }

  /** A failure of the pointer {@code file}'s text: {@code reason}. */
  static ModelFormatException refused(String file, String reason) {
    return new ModelFormatException(file, WHAT, 0, reason);
  }

  /** {@code line} as a message shows it: at most 100 characters, a control character as {@code \\}{@code uXXXX}. */
  static String shown(String line) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    for (; i < line.length() && sb.length() < 100; i++) {
      char c = line.charAt(i);
      sb.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return i < line.length() ? sb + "…" : sb.toString();
  }

  private static int lastLineStart(byte[] b) {
    int i = b.length - 2; // before the final \n
    while (i >= 0 && b[i] != '\n') {
      i--;
    }
    return i + 1;
  }
}
