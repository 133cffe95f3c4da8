package org.modelfs.format.unified;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * The bytes of one stored (uncompressed) container array: a view of its contiguous chunks in the
 * file, mappable in place, whose CRC-32Cs are checked as reads pass through them
 * (docs/FORMATS.md §13.5). A chunk is checked when it has been read from its first byte to its
 * last in order — what every copy, commit, conversion, {@code verify} and sequential reader does;
 * random reads and {@code map()} are not checked. A chunk found corrupt fails every later read
 * of it. Positions are relative to the array's first byte.
 */
final class StoredChunks extends ChunkView {
  private final long start;
  /** Per chunk: bytes read in order from its start and checked so far; -1 once found corrupt. */
  private final long[] progress;
  /** Per chunk: the running CRC of the bytes read in order (null before the first read). */
  private final CRC32C[] running;

  StoredChunks(ByteSource file, ArrayIndex.Entry entry) {
    super(file, entry);
    this.start = entry.offsets()[0];
    this.progress = new long[entry.chunks()];
    this.running = new CRC32C[entry.chunks()];
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
    int first = (int) (position / entry.chunkSize());
    failIfCorrupt(first);
    ByteBuffer view = dst.slice();
    if (view.remaining() > entry.raw() - position) {
      view.limit((int) (entry.raw() - position));
    }
    int n = file.read(view, start + position);
    if (n <= 0) {
      return n;
    }
    view.flip();
    account(view, position);
    dst.position(dst.position() + n);
    return n;
  }

  private synchronized void failIfCorrupt(int chunk) throws ModelFormatException {
    if (progress[chunk] < 0) {
      throw corrupt(chunk, "was found corrupt before");
    }
  }

  /** Feeds the bytes just read at {@code position} to the checks of the chunks they belong to. */
  private synchronized void account(ByteBuffer bytes, long position) throws ModelFormatException {
    long pos = position;
    while (bytes.hasRemaining()) {
      int c = (int) (pos / entry.chunkSize());
      long inChunk = pos - c * entry.chunkSize();
      long chunkLen = entry.rawChunk(c);
      int take = (int) Math.min(bytes.remaining(), chunkLen - inChunk);
      ByteBuffer part = bytes.slice();
      part.limit(take);
      bytes.position(bytes.position() + take);
      pos += take;
      if (progress[c] < 0) {
        throw corrupt(c, "was found corrupt before");
      }
      if (progress[c] != inChunk || progress[c] == chunkLen) {
        continue; // a random read, or a chunk already checked
      }
      if (running[c] == null) {
        running[c] = new CRC32C();
      }
      running[c].update(part);
      progress[c] += take;
      if (progress[c] == chunkLen) {
        int got = (int) running[c].getValue();
        running[c] = null;
        if (got != entry.crcs()[c]) {
          progress[c] = -1;
          throw corrupt(c, "CRC-32C mismatch: the index says " + Sections.hex(entry.crcs()[c]) + ", its bytes give "
              + Sections.hex(got));
        }
      }
    }
  }

  private ModelFormatException corrupt(int chunk, String problem) {
    return new ModelFormatException(file.name(), "container " + entry.what() + " chunk " + chunk,
        entry.offsets()[chunk], problem);
  }
}
