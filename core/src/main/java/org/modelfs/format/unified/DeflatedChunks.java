package org.modelfs.format.unified;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * The bytes of one deflated container array (docs/FORMATS.md §13.5): a read inflates the chunk
 * holding its position — after checking the CRC-32C of the chunk's stored bytes, to exactly the
 * raw length the index declares — and keeps it in the container's {@link Cache}. Not mappable:
 * {@code map()} gets a copy.
 */
final class DeflatedChunks extends ChunkView {
  private final Cache cache;

  DeflatedChunks(ByteSource file, ArrayIndex.Entry entry, Cache cache) {
    super(file, entry);
    this.cache = cache;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (position >= entry.raw()) {
      return -1;
    }
    int c = (int) (position / entry.chunkSize());
    byte[] data = chunk(c);
    int from = (int) (position - c * entry.chunkSize());
    int n = Math.min(dst.remaining(), data.length - from);
    dst.put(data, from, n);
    return n;
  }

  private byte[] chunk(int c) throws IOException {
    byte[] data = cache.get(this, c);
    if (data != null) {
      return data;
    }
    long at = entry.offsets()[c];
    String what = "container " + entry.what() + " chunk " + c;
    byte[] stored = new byte[(int) entry.lengths()[c]];
    file.readFully(ByteBuffer.wrap(stored), at);
    CRC32C crc = new CRC32C();
    crc.update(stored);
    if ((int) crc.getValue() != entry.crcs()[c]) {
      throw new ModelFormatException(file.name(), what, at, "CRC-32C mismatch: the index says "
          + Sections.hex(entry.crcs()[c]) + ", its bytes give " + Sections.hex((int) crc.getValue()));
    }
    data = Sections.inflate(stored, (int) entry.rawChunk(c), file.name(), what, at);
    cache.put(this, c, data);
    return data;
  }

  /**
   * The inflated chunks of one open container, least recently used out: at most
   * {@value #MAX_BYTES} bytes whatever the container holds.
   */
  static final class Cache {
    static final long MAX_BYTES = 16L << 20;
    private record Key(DeflatedChunks owner, int chunk) {}

    private long bytes;
    private final Map<Key, byte[]> chunks = new LinkedHashMap<>(16, 0.75f, true);

    synchronized byte[] get(DeflatedChunks owner, int chunk) {
      return chunks.get(new Key(owner, chunk));
    }

    synchronized void put(DeflatedChunks owner, int chunk, byte[] data) {
      if (chunks.put(new Key(owner, chunk), data) == null) {
        bytes += data.length;
      }
      var it = chunks.entrySet().iterator();
      while (bytes > MAX_BYTES && it.hasNext()) {
        byte[] old = it.next().getValue();
        if (old == data) {
          break;
        }
        bytes -= old.length;
        it.remove();
      }
    }
  }
}
