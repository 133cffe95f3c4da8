package org.modelfs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A read channel of a mounted model whose bytes may lie, exactly as it shows them, in a local
 * file: for a reader that moves them without copying them through the JVM, as {@code splice(2)}
 * or {@code sendfile(2)} do — the FUSE mount's reads. Every read channel of a ModelFS file system
 * ({@code Files.newByteChannel} on one of its paths) is one.
 *
 * <pre>{@code
 * try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/params/layer0/W"))) {
 *   if (ch instanceof StoredBytes s && s.storedRange().orElse(null) instanceof StoredBytes.Range r) {
 *     // open r.file(), check its fileKey equals r.fileKey(), then read r.size() bytes at r.offset()
 *   }
 * }
 * }</pre>
 */
public interface StoredBytes {
  /**
   * Bytes {@code [offset, offset + size)} of {@code file} are this channel's bytes {@code [0,
   * size)}. {@code file} is the one whose {@code BasicFileAttributes.fileKey()} equals {@code
   * fileKey}: a commit (of this mount or another process) may have replaced the path since, so a
   * reader opens it, checks the key of what it opened, and reads through that descriptor only —
   * and only while this channel is open, which keeps the file's bytes where they are.
   */
  record Range(Path file, Object fileKey, long offset, long size) {}

  /**
   * Where this channel's bytes lie, or empty when they are not a plain range of a local file:
   * converted as they are read (a legacy big-endian array, a little-endian view of other stored
   * bytes), decompressed, checked while read (the unified container's chunk checksums, which only
   * the JVM's reads check), written in this session, generated (graph.json, metadata), or in an
   * object store.
   *
   * @throws java.nio.channels.ClosedChannelException if the channel is closed
   */
  Optional<Range> storedRange() throws IOException;
}
