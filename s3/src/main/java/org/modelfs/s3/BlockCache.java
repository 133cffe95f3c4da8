package org.modelfs.s3;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The blocks {@link ObjectSource}s have fetched, shared by every source in the JVM under one
 * bound ({@value #DEFAULT_BLOCKS} blocks by default, system property
 * {@code modelfs.s3.cache-blocks}): however many objects are open — a shard set of a hundred
 * shards, many mounts — the cache holds at most that many blocks, least recently used dropped
 * first. A source's blocks are dropped when it closes.
 */
final class BlockCache {
  static final int DEFAULT_BLOCKS = 256;
  static final BlockCache SHARED = new BlockCache(Math.max(4, Integer.getInteger("modelfs.s3.cache-blocks",
      DEFAULT_BLOCKS)));

  private static final AtomicLong IDS = new AtomicLong();

  /** A block of one source. */
  private record Key(long source, long index) {}

  private final LinkedHashMap<Key, byte[]> blocks;

  BlockCache(int max) {
    this.blocks = new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, byte[]> eldest) {
        return size() > max;
      }
    };
  }

  /** A new source's identity in the cache. */
  static long newSource() {
    return IDS.incrementAndGet();
  }

  synchronized byte[] get(long source, long index) {
    return blocks.get(new Key(source, index));
  }

  synchronized void put(long source, long index, byte[] block) {
    blocks.put(new Key(source, index), block);
  }

  /** Drops every block of {@code source}. */
  synchronized void drop(long source) {
    blocks.keySet().removeIf(k -> k.source() == source);
  }

  /** How many blocks are held now (for tests). */
  synchronized int size() {
    return blocks.size();
  }
}
