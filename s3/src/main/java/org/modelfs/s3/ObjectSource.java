package org.modelfs.s3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import org.modelfs.io.ByteSource;
import org.modelfs.io.MissingBlocks;

/**
 * The bytes of one object in an S3-compatible store, read with ranged GETs that are all pinned to
 * the ETag the object had when the model was opened ({@code If-Match}): a reader never mixes two
 * versions of an object. If a commit (or anyone) replaced or removed the object meanwhile, a read
 * of bytes not cached yet fails with an {@link ObjectChangedException} saying that the model changed
 * since it was mounted (mount it again), never with other bytes.
 *
 * <p>How much one GET fetches (docs/OBJECT-STORES.md "Reads"):
 * <ul>
 *   <li>a read of at least one block ({@value #DEFAULT_BLOCK} bytes by default, system property
 *       {@code modelfs.s3.block-size}) fetches exactly what it asks for, up to
 *       {@code modelfs.s3.max-fetch} (8 MiB) per GET and {@value #PARALLEL} GETs sent at once, and
 *       is not cached;
 *   <li>a smaller read fetches its aligned block into the JVM's {@link BlockCache}, shared by
 *       every source under one bound in bytes (least recently used blocks dropped first) — the
 *       index of a model is read so, a few blocks per open;
 *   <li>small reads that walk forward block after block (a {@code Files.copy} with its 8 KiB
 *       buffer) fetch runs of blocks that double each time, up to the fetch limit. The cache
 *       holds at least two of the longest runs, so a run is not dropped before it is read (unless
 *       many sources walk forward at once).
 * </ul>
 * Any number of threads read at once: nothing here has a position, the cache is guarded by a
 * lock that is never held during a request, and the store's client is thread-safe.
 */
final class ObjectSource implements ByteSource {
  static final int DEFAULT_BLOCK = 256 * 1024;
  static final int DEFAULT_MAX_FETCH = 8 << 20;
  /** The most GETs one large read sends at once (its bytes: at most this many fetch limits). */
  static final int PARALLEL = 4;

  /**
   * A source's block size and the most one GET fetches.
   *
   * @param block bytes per cached block (at least 4096)
   * @param maxFetch bytes per GET at most (at least one block)
   */
  record Tuning(int block, int maxFetch) {
    /** This JVM's: system properties {@code modelfs.s3.block-size} and {@code modelfs.s3.max-fetch}. */
    static final Tuning DEFAULT = of(Integer.getInteger("modelfs.s3.block-size", DEFAULT_BLOCK),
        Integer.getInteger("modelfs.s3.max-fetch", DEFAULT_MAX_FETCH));

    /** The tuning of these sizes, each raised to its least. */
    static Tuning of(int block, int maxFetch) {
      int b = Math.max(4096, block);
      return new Tuning(b, Math.max(b, maxFetch));
    }
  }

  static final int BLOCK = Tuning.DEFAULT.block();
  static final int MAX_FETCH = Tuning.DEFAULT.maxFetch();

  private final ObjectStore store;
  private final String bucket;
  private final String key;
  private final String etag;
  private final long size;
  private final String name;
  private final int block;
  private final int maxFetch;
  /** This source's identity in the shared {@link BlockCache}. */
  private final long id = BlockCache.newSource();
  /** The block after the last run fetched, and that run's length in blocks: the forward walk's state. */
  private volatile long nextBlock = -1;
  private volatile int run = 1;
  private volatile boolean closed;

  ObjectSource(ObjectStore store, String bucket, String key, String etag, long size) {
    this(store, bucket, key, etag, size, Tuning.DEFAULT);
  }

  ObjectSource(ObjectStore store, String bucket, String key, String etag, long size, Tuning tuning) {
    this.block = tuning.block();
    this.maxFetch = tuning.maxFetch();
    BlockCache.SHARED.holdAtLeast(2L * maxFetch);
    this.store = store;
    this.bucket = bucket;
    this.key = key;
    this.etag = etag;
    this.size = size;
    this.name = store.name(bucket, key);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return size;
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
    if (want >= block) {
      return readLarge(dst, position, want);
    }
    long index = position / block;
    byte[] bytes = cached(index);
    if (bytes == null) {
      bytes = fetchRun(index);
    }
    int off = (int) (position - index * block);
    int n = (int) Math.min(want, bytes.length - off);
    dst.put(bytes, off, n);
    return n;
  }

  private byte[] cached(long index) {
    return BlockCache.SHARED.get(id, index);
  }

  /** Fetches block {@code index} — and the blocks after it, when the reads walk forward — into the cache. */
  private byte[] fetchRun(long index) throws IOException {
    int blocks = index == nextBlock ? Math.min(run * 2, maxFetch / block) : 1;
    long from = index * block;
    int length = (int) Math.min((long) blocks * block, size - from);
    byte[] first = cache(index, fetch(from, length));
    run = blocks;
    nextBlock = index + (length + block - 1) / block;
    return first;
  }

  /** Caches {@code bytes}, the blocks from {@code index} on; returns the first block's. */
  private byte[] cache(long index, byte[] bytes) {
    int count = (bytes.length + block - 1) / block;
    byte[] first = null;
    for (int i = 0; i < count; i++) {
      int off = i * block;
      byte[] b = Arrays.copyOfRange(bytes, off, Math.min(bytes.length, off + block));
      BlockCache.SHARED.put(id, index + i, b);
      if (i == 0) {
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
   * Fetches the blocks of {@code [position, position + length)} that are not cached — at most one
   * fetch limit of them from the first on (the cache holds two, so they stay until read) — with
   * one GET per run of adjacent missing blocks, all sent at once: an index of a few MiB costs one
   * round trip instead of a forward walk's doubling runs (issue 34). A walk on from the last of
   * them goes on doubling from there.
   */
  @Override
  public void prefetch(long position, long length) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    List<MissingBlocks.Run> runs = MissingBlocks.of(position, length, size, block, maxFetch / block, i -> cached(i) != null);
    long[] positions = new long[runs.size()];
    int[] lengths = new int[runs.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = runs.get(i).from();
      lengths[i] = runs.get(i).length();
    }
    List<byte[]> got = runs.isEmpty() ? List.of() : fetchAll(positions, lengths);
    for (int i = 0; i < got.size(); i++) {
      cache(runs.get(i).first(), got.get(i));
    }
    if (!runs.isEmpty()) {
      nextBlock = MissingBlocks.after(runs, block);
    }
  }

  /**
   * A read of at least one block, straight into {@code dst}: up to {@value #PARALLEL} fetches of at
   * most the fetch limit each, sent at once (a 100 MiB {@code readAllBytes} is 13 GETs; waiting
   * for each in turn would pay a round trip per 8 MiB).
   */
  private int readLarge(ByteBuffer dst, long position, long want) throws IOException {
    int count = (int) Math.min(PARALLEL, (want + maxFetch - 1) / maxFetch);
    long[] positions = new long[count];
    int[] lengths = new int[count];
    long at = position;
    for (int i = 0; i < count; i++) {
      positions[i] = at;
      lengths[i] = (int) Math.min(maxFetch, position + want - at);
      at += lengths[i];
    }
    int n = 0;
    for (byte[] b : fetchAll(positions, lengths)) {
      dst.put(b);
      n += b.length;
    }
    return n;
  }

  private byte[] fetch(long position, int length) throws IOException {
    return fetchAll(new long[] {position}, new int[] {length}).get(0);
  }

  private List<byte[]> fetchAll(long[] positions, int[] lengths) throws IOException {
    try {
      return store.getAll(bucket, key, etag, positions, lengths);
    } catch (ObjectStore.PreconditionFailed e) {
      throw changed(e, "was replaced (its ETag is no longer " + etag + ")");
    } catch (NoSuchFileException e) {
      throw changed(e, "was removed");
    }
  }

  private ObjectChangedException changed(IOException cause, String what) {
    ObjectChangedException e = new ObjectChangedException(name, what);
    e.initCause(cause);
    return e;
  }

  @Override
  public void close() {
    closed = true;
    BlockCache.SHARED.drop(id);
  }
}
