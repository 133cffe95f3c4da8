package org.modelfs.tree;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ReadCheck;

/**
 * The bytes of one regular file of the tree, read by position so that many channels can read
 * at once. Array files read straight from their container; small generated files (graph,
 * JSON, metadata) from memory.
 */
public interface Content {

  /** The file's size in bytes. May build a generated file, never reads array data. */
  long size() throws IOException;

  /**
   * Reads up to {@code dst.remaining()} bytes at {@code position}; returns how many, or -1 at
   * the end of the file.
   */
  int read(ByteBuffer dst, long position) throws IOException;

  /**
   * Where the file's bytes lie, unchanged, in a {@link java.nio.channels.FileChannel} (a
   * little-endian array stored raw), for a zero-copy mapping; {@code null} otherwise.
   */
  default ByteSource.Mappable mappable() throws IOException {
    return null;
  }

  /**
   * A check for one reader of this file (a channel), fed what it reads at file positions, when
   * the file's bytes carry checksums ({@link ByteSource#newCheck}); {@code null} otherwise.
   */
  default ReadCheck newCheck() {
    return null;
  }
}
