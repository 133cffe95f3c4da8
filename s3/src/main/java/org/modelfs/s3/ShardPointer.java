package org.modelfs.s3;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;
import org.modelfs.store.PointerText;
import org.modelfs.store.StoreKeys;

/**
 * The base object of a shard set that ModelFS committed to an object store: a small text file at
 * the model's own key ({@code m.sdnb}) naming the shards of the current model, each with its size
 * and ETag, and the shards of the model it replaced (kept for that model's readers). Writing it
 * (one conditional PUT) is the commit point; readers open exactly the objects it names, pinned to
 * those ETags (docs/OBJECT-STORES.md "Shard sets").
 *
 * <pre>
 * MODELFS SHARD SET 2
 * shards N
 * &lt;size&gt; &lt;etag&gt; &lt;generation&gt;/&lt;base&gt;.shard&lt;k&gt;-of-&lt;N&gt;.sdnb     (N lines, k = 0 … N−1)
 * previous M
 * &lt;size&gt; &lt;etag&gt; &lt;generation&gt;/&lt;base&gt;.shard&lt;k&gt;-of-&lt;M&gt;.sdnb     (M lines; M = 0: none)
 * crc32c &lt;8 hex digits: CRC-32C of every byte before this line&gt;
 * </pre>
 *
 * A commit writes a new generation holding shard 0 (the graph) and the weight shards it changed,
 * and names the unchanged shards where an older generation holds them (keys are immutable), so
 * the shards of one pointer may lie in several generations; shard 0 is always in the newest, the
 * commit's own ({@link #generationAt}). Version 1 (written before shards were reused: every shard
 * in one generation, no {@code previous} section) is still read. UTF-8, lines ending in
 * {@code \n}; keys are relative to the model's directory and must be shards of a generation of
 * this model ({@link StoreKeys}); at most {@value #MAX_BYTES} bytes.
 */
final class ShardPointer {
  static final String MAGIC = "MODELFS SHARD SET 2\n";
  /** The first version's magic: every shard in one generation, no {@code previous} section. */
  static final String MAGIC_1 = "MODELFS SHARD SET 1\n";
  static final int MAX_BYTES = PointerText.MAX_BYTES;

  /** One shard: its key relative to the model's directory, size and ETag. */
  record Shard(String key, long size, String etag) {
    /** The shard's file name ({@code m.shard1-of-4.sdnb}): its key without the generation. */
    String fileName() {
      return key.substring(key.indexOf('/') + 1);
    }
  }

  /** A pointer's two lists: the shards of the model, and those of the model it replaced (may be empty). */
  record Pointer(List<Shard> shards, List<Shard> previous) {}

  private ShardPointer() {}

  /** Whether {@code src} starts with the pointer's magic line. */
  static boolean sniff(ByteSource src) throws IOException {
    return PointerText.sniff(src, MAGIC, MAGIC_1);
  }

  /**
   * The generation the model object {@code base} at {@code at} was committed in (where its shard
   * 0 is), or {@code null} if it is not a pointer (a single-file model). Reads the object at its
   * ETag.
   */
  static String generationAt(ObjectLocation at, ObjectStore.Info base) throws IOException {
    Pointer p = at(at, base);
    return p == null ? null : StoreKeys.generationOf(p.shards().get(0).key());
  }

  /** The pointer the model object {@code base} at {@code at} is, or {@code null} if it is not one. */
  static Pointer at(ObjectLocation at, ObjectStore.Info base) throws IOException {
    try (ObjectSource src = new ObjectSource(at.store(), at.bucket(), at.key(), base.etag(), base.size())) {
      return sniff(src) ? readPointer(src, at.name()) : null;
    }
  }

  /** The pointer's text for {@code shards} (shard 0 first), with no previous model. */
  static byte[] write(List<Shard> shards) {
    return write(shards, List.of());
  }

  /** The pointer's text for {@code shards} and the shards of the model it replaces (shard 0 first). */
  static byte[] write(List<Shard> shards, List<Shard> previous) {
    StringBuilder sb = new StringBuilder(MAGIC).append("shards ").append(shards.size()).append('\n');
    lines(sb, shards);
    sb.append("previous ").append(previous.size()).append('\n');
    lines(sb, previous);
    return PointerText.seal(sb.toString());
  }

  private static void lines(StringBuilder sb, List<Shard> shards) {
    for (Shard s : shards) {
      sb.append(s.size()).append(' ').append(s.etag()).append(' ').append(s.key()).append('\n');
    }
  }

  /** The shards of the model the pointer {@code src} of the model object {@code name} names ({@link #readPointer}). */
  static List<Shard> read(ByteSource src, String name) throws IOException {
    return readPointer(src, name).shards();
  }

  /**
   * Reads the pointer {@code src} of the model object {@code name}: every line checked, the CRC
   * first, every key a shard {@code k} of {@code N} of a generation of this model (version 1:
   * all of one generation).
   */
  static Pointer readPointer(ByteSource src, String name) throws IOException {
    String file = src.name();
    String[] lines = PointerText.open(src);
    // lines: magic, "shards N", N shard lines, [v2: "previous M", M lines,] then "" (the text
    // before the CRC line ends in \n)
    boolean v1 = lines.length > 0 && (lines[0] + "\n").equals(MAGIC_1);
    if (lines.length < 3 || !(v1 || (lines[0] + "\n").equals(MAGIC)) || !lines[lines.length - 1].isEmpty()) {
      throw PointerText.refused(file, "is not a ModelFS shard-set pointer (magic, then 'shards N')");
    }
    int[] at = {1};
    List<Shard> shards = section(lines, at, "shards", false, v1, file, name);
    List<Shard> previous = v1 ? List.of() : section(lines, at, "previous", true, false, file, name);
    if (at[0] != lines.length - 1) {
      throw new ModelFormatException(file, "shard-set pointer", 0, "has " + (lines.length - 1 - at[0])
          + " lines more than its sections say");
    }
    return new Pointer(shards, previous);
  }

  /** One section at {@code lines[at[0]]}: {@code "<title> N"} and N shard lines; {@code at[0]} moves past it. */
  private static List<Shard> section(String[] lines, int[] at, String title, boolean mayBeEmpty, boolean oneGeneration,
      String file, String name) throws ModelFormatException {
    int i = at[0];
    if (i >= lines.length - 1 || !lines[i].matches(title + (mayBeEmpty ? " (0|[1-9][0-9]{0,5})" : " [1-9][0-9]{0,5}"))) {
      throw new ModelFormatException(file, "shard-set pointer", 0, "line " + (i + 1) + " is not '" + title + " N'");
    }
    int n = Integer.parseInt(lines[i].substring(title.length() + 1));
    if (lines.length - 1 - (i + 1) < n) {
      throw new ModelFormatException(file, "shard-set pointer", 0, "says " + n + " " + title + " lines but lists "
          + (lines.length - 1 - (i + 1)));
    }
    List<Shard> out = new ArrayList<>(n);
    String generation = null;
    for (int k = 0; k < n; k++) {
      int lineNo = i + 2 + k; // 1-based
      String line = lines[i + 1 + k];
      String[] f = line.split(" ", 3);
      if (f.length != 3 || !f[0].matches("0|[1-9][0-9]{0,17}") || f[1].isEmpty()
          || !f[1].chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
        throw new ModelFormatException(file, "shard-set pointer", 0, "line " + lineNo + " is not '<size> <etag>"
            + " <key>'");
      }
      String key = f[2];
      PointerText.checkShard(file, lineNo, key, k, n, name);
      String g = StoreKeys.generationOf(key);
      if (oneGeneration && generation != null && !generation.equals(g)) {
        throw new ModelFormatException(file, "shard-set pointer", 0, "line " + lineNo + " names a shard of "
            + "generation " + g + ", the lines before " + generation);
      }
      generation = g;
      out.add(new Shard(key, Long.parseLong(f[0]), f[1]));
    }
    at[0] = i + 1 + n;
    return out;
  }
}
