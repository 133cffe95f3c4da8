package org.modelfs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * The base object of a shard set that ModelFS committed to an object store (S3, Azure Blob
 * Storage): a small text at the model's own key ({@code m.sdnb}) naming the shard objects of the
 * current model — each with its size, its ETag and, where the store module knows it, its SHA-256
 * — and those of the model it replaced (kept for that model's readers and known to cleanup).
 * Writing it (one conditional write) is the commit point; readers open exactly the objects it
 * names, pinned to those ETags. One format for every store module (docs/OBJECT-STORES.md §5):
 *
 * <pre>
 * MODELFS SHARD SET 3
 * shards N
 * &lt;size&gt; &lt;etag&gt; &lt;sha256|-&gt; &lt;generation&gt;/&lt;base&gt;.shard&lt;k&gt;-of-&lt;N&gt;.sdnb   (N lines, k = 0 … N−1)
 * previous M
 * &lt;size&gt; &lt;etag&gt; &lt;sha256|-&gt; &lt;generation&gt;/&lt;base&gt;.shard&lt;k&gt;-of-&lt;M&gt;.sdnb   (M lines; M = 0: none)
 * crc32c &lt;8 hex digits: CRC-32C of every byte before this line&gt;
 * </pre>
 *
 * The shards of one pointer may lie in several generations (an unchanged shard is named where an
 * older generation holds it; keys are immutable); shard 0 is in the commit's own. The framing
 * (UTF-8, {@code \n}, the CRC line, at most {@value #MAX_BYTES} bytes) and the key rule (a shard
 * of a generation of this model, {@link StoreKeys}) are {@link PointerText}'s. Every spelling an
 * earlier ModelFS wrote is still read ({@link Spelling}); only this one is written.
 */
public final class ShardPointer {
  /** The first line of the pointer this ModelFS writes. */
  public static final String MAGIC = Spelling.V3.magic;
  /** The most bytes a pointer may have. */
  public static final int MAX_BYTES = PointerText.MAX_BYTES;

  /** One shard: its key relative to the model's directory, size, ETag and SHA-256 (hex; {@code null}: not known). */
  public record Shard(String key, long size, String etag, String sha256) {
    /** A shard whose SHA-256 is not known (written {@code -}). */
    public Shard(String key, long size, String etag) {
      this(key, size, etag, null);
    }

    /** The shard's file name ({@code m.shard1-of-4.sdnb}): its key without the generation. */
    public String fileName() {
      return key.substring(key.indexOf('/') + 1);
    }

    /** The generation directory the shard is in. */
    public String generation() {
      return StoreKeys.generationOf(key);
    }
  }

  /** A pointer's two lists: the shards of the model (shard 0 first), and those of the model it replaced (may be empty). */
  public record Pointer(List<Shard> shards, List<Shard> previous) {
    public Pointer {
      shards = List.copyOf(shards);
      previous = List.copyOf(previous);
    }

    /** The generation the pointer was committed in: its shard 0's. */
    public String generation() {
      return shards.get(0).generation();
    }

    /** The generations the model's shards are in. */
    public Set<String> generations() {
      Set<String> out = new TreeSet<>();
      for (Shard s : shards) {
        out.add(s.generation());
      }
      return out;
    }
  }

  /** Every first line a ModelFS pointer has had, and what its lines hold. */
  enum Spelling {
    /** s3, before shards were reused: every shard in one generation, no previous section, no SHA-256. */
    S3_1("MODELFS SHARD SET 1\n", false, Sha.NONE, true),
    /** s3: a previous section, no SHA-256. */
    S3_2("MODELFS SHARD SET 2\n", true, Sha.NONE, false),
    /** azure: a SHA-256 on every line, no previous section (the previous generations were in the blob's metadata). */
    AZURE_1("MODELFS AZURE SHARD SET 1\n", false, Sha.REQUIRED, false),
    /** The one format written now. */
    V3("MODELFS SHARD SET 3\n", true, Sha.OPTIONAL, false);

    final String magic;
    final boolean previous;
    final Sha sha;
    final boolean oneGeneration;

    Spelling(String magic, boolean previous, Sha sha, boolean oneGeneration) {
      this.magic = magic;
      this.previous = previous;
      this.sha = sha;
      this.oneGeneration = oneGeneration;
    }

    static Spelling of(String firstLine) {
      for (Spelling s : values()) {
        if (s.magic.equals(firstLine + "\n")) {
          return s;
        }
      }
      return null;
    }
  }

  /** Whether a shard line carries a SHA-256 field. */
  enum Sha { NONE, REQUIRED, OPTIONAL }

  private ShardPointer() {}

  /**
   * Whether {@code src} is meant as a pointer: it starts with {@code MODELFS SHARD SET } or
   * {@code MODELFS AZURE SHARD SET } (after a byte-order mark, if one is there), so that a damaged
   * or newer pointer is refused by {@link #read} with its reason, not opened as a model file.
   */
  public static boolean sniff(ByteSource src) throws IOException {
    return PointerText.sniff(src, "MODELFS SHARD SET ", "MODELFS AZURE SHARD SET ");
  }

  /** The pointer's text for {@code shards} (shard 0 first), with no previous model. */
  public static byte[] write(List<Shard> shards) {
    return write(shards, List.of());
  }

  /** The pointer's text for {@code shards} and the shards of the model it replaces (each shard 0 first). */
  public static byte[] write(List<Shard> shards, List<Shard> previous) {
    StringBuilder sb = new StringBuilder(MAGIC).append("shards ").append(shards.size()).append('\n');
    lines(sb, shards);
    sb.append("previous ").append(previous.size()).append('\n');
    lines(sb, previous);
    return PointerText.seal(sb.toString());
  }

  private static void lines(StringBuilder sb, List<Shard> shards) {
    for (Shard s : shards) {
      sb.append(s.size()).append(' ').append(s.etag()).append(' ').append(s.sha256() == null ? "-" : s.sha256())
          .append(' ').append(s.key()).append('\n');
    }
  }

  /**
   * Reads the pointer {@code src} of the model object {@code name}, in any spelling a ModelFS
   * wrote: every line checked, the framing first, every key shard {@code k} of {@code N} of a
   * generation of this model. A failure is a {@link ModelFormatException} naming {@code src} and
   * the line.
   */
  public static Pointer read(ByteSource src, String name) throws IOException {
    String file = src.name();
    String[] lines = PointerText.open(src);
    // lines: magic, "shards N", N lines, ["previous M", M lines,] then "" (the text before the CRC line ends in \n)
    Spelling spelling = Spelling.of(lines[0]);
    if (spelling == null) {
      throw PointerText.refused(file, "line 1 is '" + PointerText.shown(lines[0]) + "', not the first line of a"
          + " shard-set pointer this ModelFS reads ('" + MAGIC.strip() + "' or an earlier one)");
    }
    int[] at = {1};
    ShardLines section = new ShardLines(file, name, spelling);
    List<Shard> shards = section.read(lines, at, "shards", false);
    List<Shard> previous = spelling.previous ? section.read(lines, at, "previous", true) : List.of();
    if (at[0] != lines.length - 1) {
      throw PointerText.refused(file, "line " + (at[0] + 1) + " is one more than its sections say (" + (lines.length
          - 1 - at[0]) + " extra)");
    }
    return new Pointer(shards, previous);
  }

  /** The sections of one pointer's text, as its spelling has them. */
  private record ShardLines(String file, String name, Spelling spelling) {
    /** The section at {@code lines[at[0]]}: {@code "<title> N"} and N shard lines; {@code at[0]} moves past it. */
    List<Shard> read(String[] lines, int[] at, String title, boolean mayBeEmpty) throws ModelFormatException {
      int i = at[0];
      if (i >= lines.length - 1 || !lines[i].matches(title + (mayBeEmpty ? " (0|[1-9][0-9]{0,5})" : " [1-9][0-9]{0,5}"))) {
        throw PointerText.refused(file, "line " + (i + 1) + " is not '" + title + " N'" + (i >= lines.length - 1
            ? " (the pointer ends before it)" : ""));
      }
      int n = Integer.parseInt(lines[i].substring(title.length() + 1));
      if (lines.length - 1 - (i + 1) < n) {
        throw PointerText.refused(file, "line " + (i + 1) + " says " + n + " " + title + " lines but " + (lines.length
            - 1 - (i + 1)) + " lines follow");
      }
      List<Shard> out = new ArrayList<>(n);
      for (int k = 0; k < n; k++) {
        Shard s = shard(lines[i + 1 + k], i + 2 + k, k, n);
        if (spelling.oneGeneration && k > 0 && !s.generation().equals(out.get(0).generation())) {
          throw PointerText.refused(file, "line " + (i + 2 + k) + " names a shard of generation " + s.generation()
              + ", the lines before " + out.get(0).generation() + " (version 1 holds one generation)");
        }
        out.add(s);
      }
      at[0] = i + 1 + n;
      return out;
    }

    /** Line {@code lineNo} (1-based): shard {@code k} of {@code n}. */
    private Shard shard(String line, int lineNo, int k, int n) throws ModelFormatException {
      int fields = spelling.sha == Sha.NONE ? 3 : 4;
      String[] f = line.split(" ", fields);
      String sha = fields == 4 && f.length == 4 ? f[2] : null;
      boolean shaOk = sha == null || sha.matches("[0-9a-f]{64}") || (spelling.sha == Sha.OPTIONAL && sha.equals("-"));
      if (f.length != fields || !f[0].matches("0|[1-9][0-9]{0,17}") || f[1].isEmpty()
          || !f[1].chars().allMatch(c -> c > 0x20 && c < 0x7f) || !shaOk) {
        throw PointerText.refused(file, "line " + lineNo + " is not '<size> <etag> " + (fields == 4
            ? (spelling.sha == Sha.OPTIONAL ? "<sha256 or -> " : "<sha256> ") : "") + "<key>': '"
            + PointerText.shown(line) + "'");
      }
      String key = f[fields - 1];
      PointerText.checkShard(file, lineNo, key, k, n, name);
      return new Shard(key, Long.parseLong(f[0]), f[1], "-".equals(sha) ? null : sha);
    }
  }
}
