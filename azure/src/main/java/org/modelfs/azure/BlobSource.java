package org.modelfs.azure;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.io.ByteSource;
import org.modelfs.io.MissingBlocks;

/**
 * The bytes of one blob, read with ranged Get Blob requests all pinned to the ETag the blob had
 * when the model was opened ({@code If-Match}): a reader never mixes two versions. If a commit
 * replaced or removed the blob meanwhile, a read of bytes not cached yet fails with a
 * {@link BlobChangedException} (mount again), never with other bytes.
 *
 * <p>A read smaller than a block ({@value #BLOCK} bytes) fetches its aligned block into this
 * source's cache of at most {@value #CACHED} blocks (least recently used dropped first) — the
 * index of a model is read so, a few blocks per open. When the small reads walk forward (the
 * block wanted is the one after the last fetch) the fetch is a run of blocks that doubles each
 * time, up to {@value #MAX_RUN} blocks (a quarter of the cache, so a run is not dropped before it is
 * read), as s3's ObjectSource does: a forward walk over an index costs a logarithmic number of
 * round trips, not one per block (issue 34). A larger read fetches exactly what it asks
 * for, at most {@value #MAX_FETCH} bytes per request, and is not cached. Nothing has a position:
 * any number of threads read at once (the cache's lock is never held during a request).
 */
final class BlobSource implements ByteSource {
  static final int BLOCK = 256 * 1024;
  static final int CACHED = 32;
  static final int MAX_FETCH = 8 << 20;
  static final int MAX_RUN = 8;
  /** The most blocks one {@link #prefetch} fetches: half the cache, so they stay until read. */
  static final int MAX_PREFETCH = CACHED / 2;

  private final BlobStore store;
  private final String container;
  private final String key;
  private final String etag;
  private final long size;
  private final Map<Long, byte[]> blocks = new LinkedHashMap<>(CACHED * 2, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
      return size() > CACHED;
    }
  };
  private volatile boolean closed;
  /** The block after the last run fetched, and that run's length in blocks: the forward walk's state. */
  private volatile long nextBlock = -1;
  private volatile int run = 1;

  BlobSource(BlobStore store, String container, String key, String etag, long size) {
    this.store = store;
    this.container = container;
    this.key = key;
    this.etag = etag;
    this.size = size;
  }

  @Override
  public String name() {
    return BlobStore.name(container, key);
  }

  @Override
  public long size() {
    return size;
  }

  /** The ETag every read is pinned to. */
  String etag() {
    return etag;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    if (position < 0) {
      throw new IllegalArgumentException(name() + ": negative position " + position);
    }
    if (position >= size) {
      return -1;
    }
    long want = Math.min(dst.remaining(), size - position);
    if (want == 0) {
      return 0;
    }
    if (want >= BLOCK) {
      byte[] b = fetch(position, (int) Math.min(want, MAX_FETCH));
      dst.put(b);
      return b.length;
    }
    long index = position / BLOCK;
    byte[] bytes;
    synchronized (blocks) {
      bytes = blocks.get(index);
    }
    if (bytes == null) {
      bytes = fetchRun(index);
    }
    int off = (int) (position - index * BLOCK);
    int n = (int) Math.min(want, bytes.length - off);
    dst.put(bytes, off, n);
    return n;
  }

  /** Fetches block {@code index} — and the blocks after it, when the reads walk forward — into the cache. */
  private byte[] fetchRun(long index) throws IOException {
    int count = index == nextBlock ? Math.min(run * 2, MAX_RUN) : 1;
    long from = index * BLOCK;
    int length = (int) Math.min((long) count * BLOCK, size - from);
    byte[] first = cache(index, fetch(from, length));
    run = count;
    nextBlock = index + (length + BLOCK - 1) / BLOCK;
    return first;
  }

  /** Caches {@code bytes}, the blocks from {@code index} on, the first as the most recently used; returns it. */
  private byte[] cache(long index, byte[] bytes) {
    int got = (bytes.length + BLOCK - 1) / BLOCK;
    byte[] first = null;
    synchronized (blocks) {
      for (int i = got - 1; i >= 0; i--) { // the first block last: the most recently used
        int off = i * BLOCK;
        byte[] b = got == 1 ? bytes : Arrays.copyOfRange(bytes, off, Math.min(bytes.length, off + BLOCK));
        blocks.put(index + i, b);
        first = b;
      }
    }
    return first;
  }

  @Override
  public boolean prefetches() {
    return true;
  }

  /**
   * Fetches the blocks of {@code [position, position + length)} that are not cached — at most
   * {@value #MAX_PREFETCH} from the first on, so they stay until read — one request per run of
   * adjacent missing blocks: an index of a few MiB costs one round trip instead of a forward
   * walk's doubling runs (issue 34). The cached ones are touched first, so the new ones do not
   * push them out.
   */
  @Override
  public void prefetch(long position, long length) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    List<MissingBlocks.Run> runs;
    synchronized (blocks) {
      runs = MissingBlocks.of(position, length, size, BLOCK, MAX_PREFETCH, i -> blocks.get(i) != null);
    }
    for (MissingBlocks.Run r : runs) {
      cache(r.first(), fetch(r.from(), r.length()));
    }
    if (!runs.isEmpty()) {
      nextBlock = MissingBlocks.after(runs, BLOCK);
    }
  }

  private byte[] fetch(long position, int length) throws IOException {
    try {
      return store.get(container, key, etag, position, length);
    } catch (BlobStore.PreconditionFailed e) {
      throw changed(e, "was replaced (its ETag is no longer " + etag + ")");
    } catch (NoSuchFileException e) {
      throw changed(e, "was removed");
    }
  }

  private BlobChangedException changed(IOException cause, String what) {
    BlobChangedException e = new BlobChangedException(name(), what);
    e.initCause(cause);
    return e;
  }

  @Override
  public void close() {
    closed = true;
    synchronized (blocks) {
      blocks.clear();
    }
  }
}
