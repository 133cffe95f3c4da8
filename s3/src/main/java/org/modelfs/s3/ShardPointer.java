package org.modelfs.s3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.io.ByteSource;

/**
 * The base object of a shard set that ModelFS committed to an object store: a small text file at
 * the model's own key ({@code m.sdnb}) naming the shards of the current generation, each with its
 * size and ETag. Writing it (one conditional PUT) is the commit point; readers open exactly the
 * objects it names, pinned to those ETags (docs/OBJECT-STORES.md "Shard sets").
 *
 * <pre>
 * MODELFS SHARD SET 1
 * shards N
 * &lt;size&gt; &lt;etag&gt; &lt;generation&gt;/&lt;base&gt;.shard&lt;k&gt;-of-&lt;N&gt;.sdnb     (N lines, k = 0 … N−1)
 * crc32c &lt;8 hex digits: CRC-32C of every byte before this line&gt;
 * </pre>
 *
 * UTF-8, lines ending in {@code \n}; keys are relative to the model's directory and must be
 * shards of one generation of this model ({@link ObjectNames}); at most {@value #MAX_BYTES} bytes.
 */
final class ShardPointer {
  static final String MAGIC = "MODELFS SHARD SET 1\n";
  static final int MAX_BYTES = 1 << 20;

  /** One shard: its key relative to the model's directory, size and ETag. */
  record Shard(String key, long size, String etag) {}

  private ShardPointer() {}

  /** Whether {@code src} starts with the pointer's magic line. */
  static boolean sniff(ByteSource src) throws IOException {
    byte[] magic = MAGIC.getBytes(StandardCharsets.US_ASCII);
    if (src.size() < magic.length) {
      return false;
    }
    ByteBuffer b = ByteBuffer.allocate(magic.length);
    src.readFully(b, 0);
    return java.util.Arrays.equals(b.array(), magic);
  }

  /**
   * The generation directory the model object {@code base} at {@code at} points to, or
   * {@code null} if it is not a pointer (a single-file model). Reads the object at its ETag.
   */
  static String generationAt(ObjectLocation at, ObjectStore.Info base) throws IOException {
    try (ObjectSource src = new ObjectSource(at.store(), at.bucket(), at.key(), base.etag(), base.size())) {
      return sniff(src) ? ObjectNames.generationOf(read(src, at.name()).get(0).key()) : null;
    }
  }

  /** The pointer's text for {@code shards} (shard 0 first). */
  static byte[] write(List<Shard> shards) {
    StringBuilder sb = new StringBuilder(MAGIC).append("shards ").append(shards.size()).append('\n');
    for (Shard s : shards) {
      sb.append(s.size()).append(' ').append(s.etag()).append(' ').append(s.key()).append('\n');
    }
    byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(body);
    byte[] tail = String.format("crc32c %08x%n", crc.getValue()).replace(System.lineSeparator(), "\n")
        .getBytes(StandardCharsets.US_ASCII);
    byte[] out = java.util.Arrays.copyOf(body, body.length + tail.length);
    System.arraycopy(tail, 0, out, body.length, tail.length);
    return out;
  }

  /**
   * Reads the pointer {@code src} of the model object {@code name}: every line checked, the CRC
   * first, every key a shard {@code k} of {@code N} of one generation of this model.
   */
  static List<Shard> read(ByteSource src, String name) throws IOException {
    String file = src.name();
    long size = src.size();
    if (size > MAX_BYTES) {
      throw new ModelFormatException(file, "shard-set pointer", 0, "is " + size + " bytes, more than the "
          + MAX_BYTES + " a pointer may have");
    }
    ByteBuffer all = ByteBuffer.allocate((int) size);
    src.readFully(all, 0);
    byte[] bytes = all.array();
    if (bytes.length < MAGIC.length() || bytes[bytes.length - 1] != '\n') {
      throw new ModelFormatException(file, "shard-set pointer", Math.max(0, bytes.length - 1), "is cut short: "
          + bytes.length + " bytes, not ending with a line break");
    }
    int crcLine = lastLineStart(bytes);
    String tail = new String(bytes, crcLine, bytes.length - crcLine, StandardCharsets.US_ASCII);
    if (!tail.matches("crc32c [0-9a-f]{8}\n")) {
      throw new ModelFormatException(file, "shard-set pointer", crcLine, "does not end with its 'crc32c <8 hex>'"
          + " line (cut short, or not written by ModelFS)");
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, crcLine);
    long want = Long.parseLong(tail.substring(7, 15), 16);
    if (crc.getValue() != want) {
      throw new ModelFormatException(file, "shard-set pointer", crcLine, String.format("CRC-32C of its first %d"
          + " bytes is %08x, its last line says %08x", crcLine, crc.getValue(), want));
    }
    String[] lines = new String(bytes, 0, crcLine, StandardCharsets.UTF_8).split("\n", -1);
    // lines: magic, "shards N", N shard lines, then "" (the text before the CRC line ends in \n)
    if (lines.length < 3 || !(lines[0] + "\n").equals(MAGIC) || !lines[1].matches("shards [1-9][0-9]{0,5}")
        || !lines[lines.length - 1].isEmpty()) {
      throw new ModelFormatException(file, "shard-set pointer", 0, "is not a ModelFS shard-set pointer (magic,"
          + " then 'shards N')");
    }
    int n = Integer.parseInt(lines[1].substring(7));
    if (lines.length - 3 != n) {
      throw new ModelFormatException(file, "shard-set pointer", 0, "says " + n + " shards but lists "
          + (lines.length - 3));
    }
    List<Shard> out = new ArrayList<>(n);
    String generation = null;
    for (int k = 0; k < n; k++) {
      String line = lines[2 + k];
      String[] f = line.split(" ", 3);
      if (f.length != 3 || !f[0].matches("0|[1-9][0-9]{0,17}") || f[1].isEmpty()
          || !f[1].chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
        throw new ModelFormatException(file, "shard-set pointer", 0, "line " + (3 + k) + " is not '<size> <etag>"
            + " <key>'");
      }
      String key = f[2];
      ShardNames.Shard s = ObjectNames.isGenerationShard(name, key)
          ? ShardNames.parse(key.substring(key.indexOf('/') + 1)) : null;
      if (s == null || s.index() != k || s.count() != n) {
        throw new ModelFormatException(file, "shard-set pointer", 0, "line " + (3 + k) + " names '" + key
            + "', not shard " + k + " of " + n + " of a generation of " + name);
      }
      String g = ObjectNames.generationOf(key);
      if (generation != null && !generation.equals(g)) {
        throw new ModelFormatException(file, "shard-set pointer", 0, "line " + (3 + k) + " names a shard of "
            + "generation " + g + ", the lines before " + generation);
      }
      generation = g;
      out.add(new Shard(key, Long.parseLong(f[0]), f[1]));
    }
    return out;
  }

  private static int lastLineStart(byte[] b) {
    int end = b.length - 1; // the final \n
    int i = end - 1;
    while (i >= 0 && b[i] != '\n') {
      i--;
    }
    return i + 1;
  }
}
