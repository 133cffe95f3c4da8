package org.modelfs.s3;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.modelfs.io.BlockSource;

/**
 * The bytes of one object in an S3-compatible store, read with ranged GETs that are all pinned to
 * the ETag the object had when the model was opened ({@code If-Match}): a reader never mixes two
 * versions of an object. If a commit (or anyone) replaced or removed the object meanwhile, a read
 * of bytes not cached yet fails with an {@link ObjectChangedException} saying that the model changed
 * since it was mounted (mount it again), never with other bytes.
 *
 * <p>How it reads is core's {@link BlockSource} (docs/OBJECT-STORES.md "Reads"); its sizes here:
 * <ul>
 *   <li>a read of at least one block ({@value #DEFAULT_BLOCK} bytes by default, system property
 *       {@code modelfs.s3.block-size}) fetches exactly what it asks for, up to
 *       {@code modelfs.s3.max-fetch} (8 MiB) per GET and {@value #PARALLEL} GETs sent at once, and
 *       is not cached;
 *   <li>a smaller read fetches its aligned block into the JVM's {@link BlockCache}, shared by
 *       every source under one bound in bytes (least recently used blocks dropped first);
 *   <li>small reads that walk forward fetch runs of blocks that double each time, up to the fetch
 *       limit, and a prefetch fetches at most one fetch limit of blocks, all its runs' GETs sent at
 *       once. The cache holds at least two of the longest runs, so a run is not dropped before it
 *       is read (unless many sources walk forward at once).
 * </ul>
 * The store's client is thread-safe: any number of threads read at once.
 */
final class ObjectSource extends BlockSource {
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

    /** The block source's shape: runs and prefetches of up to one fetch limit, {@value ObjectSource#PARALLEL} GETs per large read. */
    Shape shape() {
      return new Shape(block, maxFetch, maxFetch / block, maxFetch / block, PARALLEL);
    }
  }

  static final int BLOCK = Tuning.DEFAULT.block();
  static final int MAX_FETCH = Tuning.DEFAULT.maxFetch();

  private final ObjectStore store;
  private final String bucket;
  private final String key;
  private final String etag;

  ObjectSource(ObjectStore store, String bucket, String key, String etag, long size) {
    this(store, bucket, key, etag, size, Tuning.DEFAULT);
  }

  ObjectSource(ObjectStore store, String bucket, String key, String etag, long size, Tuning tuning) {
    super(store.name(bucket, key), size, tuning.shape(), BlockCache.SHARED.newSource(tuning.maxFetch()));
    this.store = store;
    this.bucket = bucket;
    this.key = key;
    this.etag = etag;
  }

  /** One GET per range, all sent at once ({@link ObjectStore#getAll}), each pinned to the ETag. */
  @Override
  protected void fetch(long[] positions, int[] lengths, Fetched got) throws IOException {
    List<byte[]> all;
    try {
      all = store.getAll(bucket, key, etag, positions, lengths);
    } catch (ObjectStore.PreconditionFailed | NoSuchFileException e) {
      ObjectChangedException x = new ObjectChangedException(name(), e instanceof NoSuchFileException ? "was removed"
          : "was replaced (its ETag is no longer " + etag + ")");
      x.initCause(e);
      throw x;
    }
    for (int i = 0; i < all.size(); i++) {
      got.got(i, all.get(i));
    }
  }
}
