package org.modelfs.format.sdnb;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.modelfs.format.ModelFormatException;

/**
 * Codec for the SDNB manifest, the Java-serialized {@code LinkedHashMap<String, Pair<Long,Long>>}
 * that maps each appended array's variable name to its absolute file offset and byte length. It
 * is decoded by our own restricted parser ({@code ObjectInputStream} never sees file content) and
 * encoded byte-for-byte as DL4J's {@code ObjectOutputStream} would.
 */
final class Manifest {

  /**
   * One manifest entry.
   *
   * @param name the variable name (map key)
   * @param offset absolute file offset of the array's bytes ({@code Pair.key})
   * @param length byte length of the array ({@code Pair.value})
   */
  record Entry(String name, long offset, long length) {
    Entry {
      Objects.requireNonNull(name, "name");
    }
  }

  private Manifest() {}

  /**
   * Serializes the entries exactly as {@code ObjectOutputStream.writeObject} serializes a new
   * {@code LinkedHashMap} filled with {@code put(name, new Pair<>(offset, length))} in list
   * order.
   *
   * @throws IllegalArgumentException if two entries have the same name (the reader would refuse
   *     such a manifest, so it is never written)
   */
  static byte[] write(List<Entry> entries) {
    return ManifestWriter.write(entries);
  }

  /**
   * Parses the manifest stream occupying {@code bytes.position()} to {@code bytes.limit()}, which
   * must hold exactly one map and nothing after it. The buffer's position is not changed.
   *
   * @param file the file name used in error messages
   * @param fileOffset absolute file offset of {@code bytes.position()}, used in error messages
   * @return the entries in stream order
   * @throws ModelFormatException if the stream is malformed, truncated, names any class other
   *     than the five the manifest uses, or contains null, duplicate or mistyped entries
   */
  static List<Entry> read(ByteBuffer bytes, String file, long fileOffset)
      throws ModelFormatException {
    return ManifestParser.parse(bytes, file, fileOffset);
  }
}
