package org.modelfs.azure;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.modelfs.io.BlockLru;
import org.modelfs.io.BlockSource;

/**
 * The bytes of one blob, read with ranged Get Blob requests all pinned to the ETag the blob had
 * when the model was opened ({@code If-Match}): a reader never mixes two versions. If a commit
 * replaced or removed the blob meanwhile, a read of bytes not cached yet fails with a
 * {@link BlobChangedException} (mount again), never with other bytes.
 *
 * <p>How it reads is core's {@link BlockSource}, as s3's ObjectSource; its sizes here: blocks of
 * {@value #BLOCK} bytes in this source's own cache of at most {@value #CACHED} blocks
 * ({@link BlockLru}); a forward walk's runs double up to {@value #MAX_RUN} blocks (a quarter of the
 * cache, so a run is not dropped before it is read); a prefetch fetches at most
 * {@value #MAX_PREFETCH} blocks (half the cache), one request per run in turn; a larger read
 * fetches exactly what it asks for, at most {@value #MAX_FETCH} bytes, with one request.
 */
final class BlobSource extends BlockSource {
  static final int BLOCK = 256 * 1024;
  static final int CACHED = 32;
  static final int MAX_FETCH = 8 << 20;
  static final int MAX_RUN = 8;
  /** The most blocks one {@link #prefetch} fetches: half the cache, so they stay until read. */
  static final int MAX_PREFETCH = CACHED / 2;
  private static final Shape SHAPE = new Shape(BLOCK, MAX_FETCH, MAX_RUN, MAX_PREFETCH, 1);

  private final BlobStore store;
  private final String container;
  private final String key;
  private final String etag;

  BlobSource(BlobStore store, String container, String key, String etag, long size) {
    super(BlobStore.name(container, key), size, SHAPE, new BlockLru(CACHED));
    this.store = store;
    this.container = container;
    this.key = key;
    this.etag = etag;
  }

  /** The ETag every read is pinned to. */
  String etag() {
    return etag;
  }

  /** One Get Blob per range, in turn, each pinned to the ETag. */
  @Override
  protected void fetch(long[] positions, int[] lengths, Fetched got) throws IOException {
    for (int i = 0; i < positions.length; i++) {
      byte[] b;
      try {
        b = store.get(container, key, etag, positions[i], lengths[i]);
      } catch (BlobStore.PreconditionFailed | NoSuchFileException e) {
        BlobChangedException x = new BlobChangedException(name(), e instanceof NoSuchFileException ? "was removed"
            : "was replaced (its ETag is no longer " + etag + ")");
        x.initCause(e);
        throw x;
      }
      got.got(i, b);
    }
  }
}
