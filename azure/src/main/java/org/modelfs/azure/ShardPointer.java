package org.modelfs.azure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.modelfs.io.ByteSource;
import org.modelfs.store.PointerText;
import org.modelfs.store.StoreKeys;

/**
 * The base blob of a shard set that ModelFS committed to Blob Storage: a small text at the
 * model's own name ({@code m.sdnb}) naming the shard blobs of the current version, each with its
 * size, ETag and SHA-256. Writing it (one conditional Put Block List) is the commit point; readers
 * open exactly the blobs it names, pinned to those ETags. A shard whose bytes did not change
 * is named again, in the generation that uploaded it (so the shards may be of several
 * generations); the SHA-256 is how a later commit knows.
 *
 * <pre>
 * MODELFS AZURE SHARD SET 1
 * shards N
 * &lt;size&gt; &lt;etag&gt; &lt;sha256&gt; &lt;generation&gt;/&lt;base&gt;.shard&lt;k&gt;-of-&lt;N&gt;.sdnb   (N lines)
 * crc32c &lt;8 hex digits: CRC-32C of every byte before this line&gt;
 * </pre>
 */
final class ShardPointer {
  static final String MAGIC = "MODELFS AZURE SHARD SET 1\n";
  static final int MAX_BYTES = PointerText.MAX_BYTES;

  /** One shard: its key relative to the model's directory, size, ETag and SHA-256 (hex). */
  record Shard(String key, long size, String etag, String sha256) {}

  private ShardPointer() {}

  /** Whether {@code src} starts with the pointer's magic line. */
  static boolean sniff(ByteSource src) throws IOException {
    return PointerText.sniff(src, MAGIC);
  }

  /** The shards the model blob {@code base} names, or {@code null} if it is no pointer. */
  static List<Shard> at(BlobLocation at, BlobStore.Info base) throws IOException {
    try (BlobSource src = new BlobSource(at.store(), at.container(), at.key(), base.etag(), base.size())) {
      return sniff(src) ? read(src, at.name()) : null;
    }
  }

  /** The generations {@code shards} are in. */
  static Set<String> generations(List<Shard> shards) {
    Set<String> out = new TreeSet<>();
    for (Shard s : shards) {
      out.add(StoreKeys.generationOf(s.key()));
    }
    return out;
  }

  /** The pointer's text for {@code shards} (shard 0 first). */
  static byte[] write(List<Shard> shards) {
    StringBuilder sb = new StringBuilder(MAGIC).append("shards ").append(shards.size()).append('\n');
    for (Shard s : shards) {
      sb.append(s.size()).append(' ').append(s.etag()).append(' ').append(s.sha256()).append(' ').append(s.key())
          .append('\n');
    }
    return PointerText.seal(sb.toString());
  }

  /**
   * Reads the pointer {@code src} of the model blob {@code name}: every line checked, the CRC
   * first, every key shard {@code k} of {@code N} of a generation of this model.
   */
  static List<Shard> read(ByteSource src, String name) throws IOException {
    String file = src.name();
    String[] lines = PointerText.open(src);
    if (lines.length < 3 || !(lines[0] + "\n").equals(MAGIC) || !lines[1].matches("shards [1-9][0-9]{0,5}")
        || Integer.parseInt(lines[1].substring(7)) != lines.length - 3) {
      throw PointerText.refused(file, "is not a ModelFS shard-set pointer (magic, 'shards N', N shard lines)");
    }
    int n = lines.length - 3;
    List<Shard> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      String[] f = lines[2 + k].split(" ", 4);
      if (f.length != 4 || !f[0].matches("0|[1-9][0-9]{0,17}") || !f[1].chars().allMatch(c -> c > 0x20 && c < 0x7f)
          || !f[2].matches("[0-9a-f]{64}")) {
        throw PointerText.refused(file, "line " + (3 + k) + " is not '<size> <etag> <sha256> <key>'");
      }
      String key = f[3];
      PointerText.checkShard(file, 3 + k, key, k, n, name);
      out.add(new Shard(key, Long.parseLong(f[0]), f[1], f[2]));
    }
    return out;
  }
}
