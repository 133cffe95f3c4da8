package org.modelfs.s3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.modelfs.io.ByteSource;

/**
 * The bytes of one object in an S3-compatible store, read with ranged GETs that are all pinned to
 * the ETag the object had when the model was opened ({@code If-Match}): a reader never mixes two
 * versions of an object. If a commit (or anyone) replaced or removed the object meanwhile, a read
 * of bytes not cached yet fails with a {@link FileSystemException} saying that the model changed
 * since it was mounted (mount it again), never with other bytes.
 *
 * <p>How much one GET fetches (docs/OBJECT-STORES.md "Reads"):
 * <ul>
 *   <li>a read of at least one block ({@value #DEFAULT_BLOCK} bytes by default, system property
 *       {@code modelfs.s3.block-size}) fetches exactly what it asks for, up to
 *       {@code modelfs.s3.max-fetch} (8 MiB) per GET, and is not cached;
 *   <li>a smaller read fetches its aligned block into a per-source cache of
 *       {@value #CACHE_BLOCKS} blocks (least recently used dropped first) — the index of a model is
 *       read so, a few blocks per open;
 *   <li>small reads that walk forward block after block (a {@code Files.copy} with its 8 KiB
 *       buffer) fetch runs of blocks that double each time, up to the fetch limit.
 * </ul>
 * Any number of threads read at once: nothing here has a position, the cache is guarded by a
 * lock that is never held during a request, and the store's client is thread-safe.
 */
final class ObjectSource implements ByteSource {
  static final int DEFAULT_BLOCK = 256 * 1024;
  static final int BLOCK = Math.max(4096, Integer.getInteger("modelfs.s3.block-size", DEFAULT_BLOCK));
  static final int MAX_FETCH = Math.max(BLOCK, Integer.getInteger("modelfs.s3.max-fetch", 8 << 20));
  static final int CACHE_BLOCKS = 64;

  private final ObjectStore store;
  private final String bucket;
  private final String key;
  private final String etag;
  private final long size;
  private final String name;
  /** Cached blocks by index, least recently used first (guarded by itself). */
  private final LinkedHashMap<Long, byte[]> cache = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
      return size() > CACHE_BLOCKS;
    }
  };
  /** The block after the last run fetched, and that run's length in blocks: the forward walk's state. */
  private volatile long nextBlock = -1;
  private volatile int run = 1;
  private volatile boolean closed;

  ObjectSource(ObjectStore store, String bucket, String key, String etag, long size) {
    this.store = store;
    this.bucket = bucket;
    this.key = key;
    this.etag = etag;
    this.size = size;
    this.name = ObjectStore.name(bucket, key);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return size;
  }

  /** The ETag every read of this source is pinned to. */
  String etag() {
    return etag;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    if (position < 0) {
      throw new IllegalArgumentException(name + ": negative position " + position);
    }
    if (position >= size) {
      return -1;
    }
    long want = Math.min(dst.remaining(), size - position);
    if (want == 0) {
      return 0;
    }
    if (want >= BLOCK) {
      int n = (int) Math.min(want, MAX_FETCH);
      dst.put(fetch(position, n));
      return n;
    }
    long index = position / BLOCK;
    byte[] block = cached(index);
    if (block == null) {
      block = fetchRun(index);
    }
    int off = (int) (position - index * BLOCK);
    int n = (int) Math.min(want, block.length - off);
    dst.put(block, off, n);
    return n;
  }

  private byte[] cached(long index) {
    synchronized (cache) {
      return cache.get(index);
    }
  }

  /** Fetches block {@code index} — and the blocks after it, when the reads walk forward — into the cache. */
  private byte[] fetchRun(long index) throws IOException {
    int blocks = index == nextBlock ? Math.min(run * 2, MAX_FETCH / BLOCK) : 1;
    long from = index * BLOCK;
    int length = (int) Math.min((long) blocks * BLOCK, size - from);
    byte[] bytes = fetch(from, length);
    int count = (length + BLOCK - 1) / BLOCK;
    byte[] first = null;
    synchronized (cache) {
      for (int i = 0; i < count; i++) {
        int off = i * BLOCK;
        byte[] b = java.util.Arrays.copyOfRange(bytes, off, Math.min(length, off + BLOCK));
        cache.put(index + i, b);
        if (i == 0) {
          first = b;
        }
      }
    }
    run = blocks;
    nextBlock = index + count;
    return first;
  }

  private byte[] fetch(long position, int length) throws IOException {
    try {
      return store.get(bucket, key, etag, position, length);
    } catch (ObjectStore.PreconditionFailed e) {
      throw changed(e, "was replaced (its ETag is no longer " + etag + ")");
    } catch (NoSuchFileException e) {
      throw changed(e, "was removed");
    }
  }

  private FileSystemException changed(IOException cause, String what) {
    FileSystemException e = new FileSystemException(name, null, "the model changed since it was mounted: the object "
        + what + "; this mount's bytes are no longer in the store — mount the model again");
    e.initCause(cause);
    return e;
  }

  @Override
  public void close() {
    closed = true;
    synchronized (cache) {
      cache.clear();
    }
  }
}
