package org.modelfs.s3;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.modelfs.io.BlockSource;

/**
 * The blocks {@link ObjectSource}s have fetched, shared by every source in the JVM under one
 * bound in bytes ({@value #DEFAULT_BYTES} bytes by default, system property
 * {@code modelfs.s3.cache-bytes}; raised to two of the longest fetch any source makes): however
 * many objects are open — a shard set of a hundred shards, many mounts — the cache holds at most
 * that much, least recently used blocks dropped first. A source's blocks are dropped when it
 * closes.
 */
final class BlockCache {
  static final long DEFAULT_BYTES = 64L << 20;
  static final BlockCache SHARED = new BlockCache(Math.max(1L << 20, Long.getLong("modelfs.s3.cache-bytes",
      DEFAULT_BYTES)));

  private static final AtomicLong IDS = new AtomicLong();

  /** A block of one source. */
  private record Key(long source, long index) {}

  private final LinkedHashMap<Key, byte[]> blocks = new LinkedHashMap<>(64, 0.75f, true);
  private long bytes;
  private long max;

  BlockCache(long max) {
    this.max = max;
  }

  /**
   * A new source's view of this cache (its blocks under an identity of their own), the bound
   * raised to at least two of its longest fetch ({@code maxFetch} bytes).
   */
  BlockSource.Cache newSource(int maxFetch) {
    holdAtLeast(2L * maxFetch);
    long id = IDS.incrementAndGet();
    return new BlockSource.Cache() {
      @Override
      public byte[] get(long index) {
        return BlockCache.this.get(id, index);
      }

      @Override
      public void put(long first, List<byte[]> run) {
        for (int i = 0; i < run.size(); i++) {
          BlockCache.this.put(id, first + i, run.get(i));
        }
      }

      @Override
      public void clear() {
        drop(id);
      }
    };
  }

  /** Raises the bound to at least {@code bytes} (a source's two longest fetches). */
  synchronized void holdAtLeast(long atLeast) {
    max = Math.max(max, atLeast);
  }

  synchronized byte[] get(long source, long index) {
    return blocks.get(new Key(source, index));
  }

  synchronized void put(long source, long index, byte[] block) {
    byte[] old = blocks.put(new Key(source, index), block);
    bytes += block.length - (old == null ? 0 : old.length);
    for (Iterator<byte[]> it = blocks.values().iterator(); bytes > max && it.hasNext(); ) {
      bytes -= it.next().length;
      it.remove();
    }
  }

  /** Drops every block of {@code source}. */
  synchronized void drop(long source) {
    for (Iterator<Map.Entry<Key, byte[]>> it = blocks.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Key, byte[]> e = it.next();
      if (e.getKey().source() == source) {
        bytes -= e.getValue().length;
        it.remove();
      }
    }
  }
}
