package org.modelfs.io;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * Which blocks of a byte range a block-caching source still has to fetch for a
 * {@link ByteSource#prefetch}: the runs of adjacent blocks it does not hold, from the range's first
 * block on, at most a given number of blocks in all (what its cache keeps until they are read).
 * Used by {@link BlockSource}, the object stores' sources' base (s3's ObjectSource, azure's BlobSource).
 */
public final class MissingBlocks {
  private MissingBlocks() {}

  /**
   * Blocks {@code first} on, bytes {@code [from, from + length)} of the source: one request.
   *
   * @param first the run's first block
   * @param from its first byte
   * @param length its bytes (the source's last block may be short)
   */
  public record Run(long first, long from, int length) {}

  /**
   * The runs of blocks of {@code [position, position + length)} of a source of {@code size} bytes
   * cut in blocks of {@code block} bytes that {@code held} says are not held, in order, at most
   * {@code most} blocks from the range's first on (held ones counted too). Empty when the range is
   * empty or past the end. {@code held} is asked once per block, in order (a cache may count it as
   * a use).
   */
  public static List<Run> of(long position, long length, long size, int block, int most, LongPredicate held) {
    List<Run> runs = new ArrayList<>();
    if (position < 0 || length <= 0 || position >= size) {
      return runs;
    }
    long first = position / block;
    long last = Math.min((Math.min(size, position + length) - 1) / block, first + most - 1);
    long from = -1;
    for (long i = first; i <= last + 1; i++) {
      boolean missing = i <= last && !held.test(i);
      if (missing && from < 0) {
        from = i;
      } else if (!missing && from >= 0) {
        runs.add(new Run(from, from * block, (int) (Math.min(size, i * block) - from * block)));
        from = -1;
      }
    }
    return runs;
  }

  /** The block after the last of {@code runs} (a forward walk goes on from there), or -1 if there are none. */
  public static long after(List<Run> runs, int block) {
    if (runs.isEmpty()) {
      return -1;
    }
    Run r = runs.get(runs.size() - 1);
    return r.first() + (r.length() + block - 1) / block;
  }
}
