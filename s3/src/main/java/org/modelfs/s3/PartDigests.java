package org.modelfs.s3;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.List;

/**
 * The MD5 of each part of a single-object model, stored in the object's user metadata
 * ({@value #META}: {@code "<part size> <base64 MD5> …"}), so that the next commit learns which
 * parts it did not change without reading the old object: those are composed on the server
 * ({@code UploadPartCopy} from the old object, pinned to its ETag), only the others are uploaded
 * (docs/OBJECT-STORES.md "What a commit costs"). At most {@value #MAX_PARTS} parts (the digests
 * stay within S3's 2 KB of user metadata), each at least S3's 5 MiB minimum: a 1 GiB model has
 * 16 MiB parts, so a small change uploads one or two of them.
 */
final class PartDigests {
  static final String META = "modelfs-parts";
  static final int MAX_PARTS = 64;
  private static final long MIN_PART = 5L << 20;
  private static final long MIB = 1L << 20;

  private PartDigests() {}

  /** The part size for an object of {@code size} bytes: at least 5 MiB, whole MiB, at most {@value #MAX_PARTS} parts. */
  static long partSize(long size) {
    long p = Math.max(MIN_PART, (size + MAX_PARTS - 1) / MAX_PARTS);
    return (p + MIB - 1) / MIB * MIB;
  }

  /** Whether an object of {@code size} bytes is worth composing: more than one part. */
  static boolean worthIt(long size) {
    return size > partSize(size);
  }

  /** The metadata value for {@code file} of {@code size} bytes, in parts of {@code partSize}. */
  static String of(Path file, long size, long partSize) throws IOException {
    StringBuilder sb = new StringBuilder(Long.toString(partSize));
    for (long off = 0; off < size; off += partSize) {
      sb.append(' ').append(Base64.getEncoder().withoutPadding().encodeToString(ObjectStore.md5(file, off,
          Math.min(partSize, size - off))));
    }
    return sb.toString();
  }

  /**
   * The parts of the new object (of {@code size} bytes, digests {@code now}) that are the same
   * bytes at the same place in the old one ({@code oldSize} bytes, digests {@code old}, either
   * {@code null} when the old object has none or was cut in parts of another size).
   */
  static BitSet unchanged(String old, long oldSize, String now, long size) {
    BitSet same = new BitSet();
    List<String> a = parse(old);
    List<String> b = parse(now);
    if (a.isEmpty() || b.isEmpty() || !a.get(0).equals(b.get(0))) {
      return same;
    }
    long part = Long.parseLong(b.get(0));
    for (int i = 1; i < Math.min(a.size(), b.size()); i++) {
      long off = (i - 1) * part;
      long lenOld = Math.min(part, oldSize - off);
      long lenNew = Math.min(part, size - off);
      if (lenOld == lenNew && lenNew > 0 && a.get(i).equals(b.get(i))) {
        same.set(i - 1);
      }
    }
    return same;
  }

  /** The part size and digests of a metadata value; empty when it is not one. */
  private static List<String> parse(String value) {
    if (value == null || !value.matches("[1-9][0-9]{0,18}( [A-Za-z0-9+/]{22}){1," + MAX_PARTS + "}")) {
      return List.of();
    }
    return new ArrayList<>(List.of(value.split(" ")));
  }
}
