package org.modelfs.io;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One source's own {@link BlockSource.Cache}: at most a given number of blocks, the least recently
 * used dropped first; a fetch's first block is put last, as the most recently used (it is the one
 * being read). Azure's blob sources use one each; s3's share one bound in bytes across sources.
 */
public final class BlockLru implements BlockSource.Cache {
  private final Map<Long, byte[]> blocks;

  /** A cache of at most {@code most} blocks. */
  public BlockLru(int most) {
    this.blocks = new LinkedHashMap<>(most * 2, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
        return size() > most;
      }
    };
  }

  @Override
  public synchronized byte[] get(long index) {
    return blocks.get(index);
  }

  @Override
  public synchronized void put(long first, List<byte[]> run) {
    for (int i = run.size() - 1; i >= 0; i--) { // the first block last: the most recently used
      blocks.put(first + i, run.get(i));
    }
  }

  @Override
  public synchronized void clear() {
    blocks.clear();
  }
}
