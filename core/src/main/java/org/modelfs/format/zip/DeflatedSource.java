package org.modelfs.format.zip;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.modelfs.io.ByteSource;

/**
 * The uncompressed bytes of one DEFLATED zip entry, inflated only when read
 * ({@link DeflatedEntries}). Not mappable. Closing it does nothing: its zip's
 * {@link DeflatedEntries} owns the inflaters.
 */
final class DeflatedSource implements ByteSource {
  private final DeflatedEntries owner;
  private final int id;
  private final ZipIo.Entry entry;
  private final String name;

  DeflatedSource(DeflatedEntries owner, int id, ZipIo.Entry entry, String name) {
    this.owner = owner;
    this.id = id;
    this.entry = entry;
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return entry.size();
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (position < 0) {
      throw new IllegalArgumentException("negative position " + position);
    }
    if (!dst.hasRemaining()) {
      return position >= entry.size() ? -1 : 0;
    }
    return owner.read(id, dst, position);
  }

  @Override
  public void close() {}
}
