package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One reader's check of the bytes it reads from a source that carries checksums (a container's
 * stored chunks, docs/FORMATS.md §13.6): fed every read in the reader's own order, it checks each
 * checksummed unit the reader has read from its first byte to its last, and throws if one does
 * not check out. Each reader (a copy, a verify, a channel) has its own, so other readers' reads
 * never make it skip a unit.
 */
public interface ReadCheck {
  /**
   * Takes the bytes just read ({@code bytes}' remaining ones, not consumed) from source position
   * {@code position}.
   *
   * @throws IOException naming the file, the unit and its offset if a unit they complete is corrupt
   */
  void passed(ByteBuffer bytes, long position) throws IOException;
}
