package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a {@link RemoteSource} that reads straight into the caller's buffer (HDFS's positional
 * reads: no block cache, no parameter's bytes in the heap) prefetched, kept in the heap for the
 * source's life, bounded: each prefetch is one read of its range — widened to {@link #minimum}
 * bytes if shorter (toward the start at the end of the file), to the whole file when it is the
 * head of a file of at most {@link ParallelReads#TAIL_APART} bytes, at most {@link #most} bytes —
 * and at most {@link #count} ranges are kept, the first ones; a range already kept (as asked, or
 * as widened) is not read again. Its bytes must not change while the source is open (an HDFS
 * inode's do not).
 */
public final class KeptRanges {
  /** A kept range: bytes {@code from} on. */
  private record Range(long from, byte[] bytes) {
    boolean holds(long position) {
      return position >= from && position < from + bytes.length;
    }
  }

  /** Reads bytes {@code [from, from + bytes.length)} of the source, all of them (the store's positional read). */
  @FunctionalInterface
  public interface Reader {
    void readFully(long from, byte[] bytes) throws IOException;
  }

  private final long size;
  private final int minimum;
  private final int most;
  private final int count;
  private final List<Range> kept = new CopyOnWriteArrayList<>();

  /**
   * @param size the source's bytes
   * @param minimum the least a prefetch reads (an end of the file: a header, SDNB's manifest)
   * @param most the most one prefetch reads and keeps
   * @param count the most ranges kept (an opening's head, tail and index)
   */
  public KeptRanges(long size, int minimum, int most, int count) {
    this.size = size;
    this.minimum = minimum;
    this.most = most;
    this.count = count;
  }

  /** Copies up to {@code want} kept bytes at {@code position} into {@code dst}: how many, or -1 if none are kept there. */
  public int read(ByteBuffer dst, long position, int want) {
    for (Range r : kept) {
      if (r.holds(position)) {
        int n = (int) Math.min(want, r.from() + r.bytes().length - position);
        dst.put(r.bytes(), (int) (position - r.from()), n);
        return n;
      }
    }
    return -1;
  }

  /** Reads {@code [position, position + length)}, widened and capped, with one {@code reader} call and keeps it (see the class). */
  public void prefetch(long position, long length, Reader reader) throws IOException {
    if (position < 0 || length <= 0 || position >= size || kept.size() >= count) {
      return;
    }
    long from = position;
    long to = Math.min(size, position + length);
    if (held(from, to)) {
      return; // already held as asked (an SDNB's small FlatGraph in its widened head)
    }
    if (from == 0 && size <= ParallelReads.TAIL_APART) {
      to = size; // a small file's head: the whole file, its tail (SDNB's manifest) with it (ParallelReads.prefetchEnds asks no tail)
    } else if (to - from < minimum) {
      to = Math.min(size, from + minimum);
      from = Math.max(0, to - minimum);
    }
    to = Math.min(to, from + most);
    if (held(from, to)) {
      return;
    }
    byte[] b = new byte[(int) (to - from)];
    reader.readFully(from, b);
    kept.add(new Range(from, b));
  }

  private boolean held(long from, long to) {
    for (Range r : kept) {
      if (r.holds(from) && r.holds(to - 1)) {
        return true;
      }
    }
    return false;
  }

  /** Drops every kept range (the source closed). */
  public void clear() {
    kept.clear();
  }
}
