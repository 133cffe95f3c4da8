package org.modelfs.format.unified;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ReadCheck;

/**
 * The bytes of one stored (uncompressed) container array: a view of its contiguous chunks in the
 * file, mappable in place (docs/FORMATS.md §13.5). Its CRC-32Cs are checked per reader
 * ({@link #newCheck}): each copy, commit, conversion, {@code verify} and channel checks every
 * chunk it reads from the chunk's first byte to its last in order, whatever other readers do.
 * Random reads and {@code map()} are not checked (§13.6). A chunk found corrupt fails every
 * later read of it through this view.
 */
final class StoredChunks extends ChunkView {
  private final long start;
  /** Chunks found corrupt by some reader's check. */
  private final Set<Integer> corrupt = ConcurrentHashMap.newKeySet();

  StoredChunks(ByteSource file, ArrayIndex.Entry entry) {
    super(file, entry);
    this.start = entry.offsets()[0];
  }

  @Override
  public Mappable mappable(long position) throws IOException {
    return file.mappable(start + position);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (position >= entry.raw()) {
      return -1;
    }
    if (!corrupt.isEmpty()) {
      long end = Math.min(entry.raw(), position + dst.remaining());
      for (int c = (int) (position / entry.chunkSize()); c <= (end - 1) / entry.chunkSize(); c++) {
        if (corrupt.contains(c)) {
          throw corrupt(c, "was found corrupt before");
        }
      }
    }
    ByteBuffer view = dst.slice();
    if (view.remaining() > entry.raw() - position) {
      view.limit((int) (entry.raw() - position));
    }
    int n = file.read(view, start + position);
    if (n > 0) {
      dst.position(dst.position() + n);
    }
    return n;
  }

  @Override
  public ReadCheck newCheck() {
    return new Check();
  }

  private ModelFormatException corrupt(int chunk, String problem) {
    return new ModelFormatException(file.name(), "container " + entry.what() + " chunk " + chunk,
        entry.offsets()[chunk], problem);
  }

  /** One reader's check: the chunks it is reading in order, each with the CRC of what it has read so far. */
  private final class Check implements ReadCheck {
    /** At most this many chunks in progress per reader (one reading in order has one or two). */
    private static final int MAX_OPEN = 16;
    private final Map<Integer, Progress> open = new LinkedHashMap<>(4, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Integer, Progress> e) {
        return size() > MAX_OPEN;
      }
    };

    private static final class Progress {
      final CRC32C crc = new CRC32C();
      long done;
    }

    @Override
    public synchronized void passed(ByteBuffer bytes, long position) throws IOException {
      ByteBuffer b = bytes.duplicate();
      long pos = position;
      while (b.hasRemaining() && pos < entry.raw()) {
        int c = (int) (pos / entry.chunkSize());
        long inChunk = pos - c * entry.chunkSize();
        long chunkLen = entry.rawChunk(c);
        int take = (int) Math.min(b.remaining(), chunkLen - inChunk);
        ByteBuffer part = b.slice();
        part.limit(take);
        b.position(b.position() + take);
        pos += take;
        Progress p;
        if (inChunk == 0) {
          p = new Progress(); // (again) from the chunk's first byte
          open.put(c, p);
        } else {
          p = open.get(c);
        }
        if (p == null || p.done != inChunk) {
          open.remove(c); // not read in order from its start by this reader: not checked by it
          continue;
        }
        p.crc.update(part);
        p.done += take;
        if (p.done == chunkLen) {
          open.remove(c);
          int got = (int) p.crc.getValue();
          if (got != entry.crcs()[c]) {
            corrupt.add(c);
            throw corrupt(c, "CRC-32C mismatch: the index says " + Sections.hex(entry.crcs()[c])
                + ", its bytes give " + Sections.hex(got));
          }
        }
      }
    }
  }
}
