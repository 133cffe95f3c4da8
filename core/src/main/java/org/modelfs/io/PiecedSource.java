package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Several ranges of another source seen end to end as one source (the chunks of a chunked
 * FlatArray, docs/FORMATS.md §10): byte {@code p} of this source is found by a binary search over
 * the pieces' cumulative lengths, and read from the parent in place — nothing is copied. A read
 * stops at the end of a piece ({@link #readFully} goes on with the next). Only a single piece can
 * be {@linkplain #mappable mapped} in place; the bytes of several are not contiguous in any file.
 * Closing it does not close the parent.
 */
public final class PiecedSource implements ByteSource {
  private final ByteSource parent;
  private final String name;
  private final long[] starts;
  private final long[] ends;

  /**
   * @param parent where the pieces are
   * @param name the name for messages
   * @param starts absolute offset in {@code parent} of each piece, in the order they are read
   * @param lengths byte length of each piece (non-negative, summing to at most {@code Long.MAX_VALUE})
   */
  public PiecedSource(ByteSource parent, String name, long[] starts, long[] lengths) {
    if (starts.length != lengths.length) {
      throw new IllegalArgumentException(starts.length + " starts but " + lengths.length + " lengths");
    }
    this.parent = parent;
    this.name = name;
    this.starts = starts.clone();
    this.ends = new long[lengths.length];
    long end = 0;
    for (int i = 0; i < lengths.length; i++) {
      if (lengths[i] < 0) {
        throw new IllegalArgumentException("negative piece length " + lengths[i]);
      }
      end = Math.addExact(end, lengths[i]);
      ends[i] = end;
    }
  }

  /** Number of pieces. */
  public int pieces() {
    return starts.length;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return ends.length == 0 ? 0 : ends[ends.length - 1];
  }

  /** The piece holding byte {@code position} (the first non-empty one ending after it). */
  private int piece(long position) {
    int i = Arrays.binarySearch(ends, position);
    // an exact hit is the end of piece i: the byte is in the next piece ending after it
    i = i >= 0 ? i + 1 : -i - 1;
    while (i < ends.length && ends[i] <= position) {
      i++;
    }
    return i;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (position < 0) {
      throw new IllegalArgumentException("negative position " + position);
    }
    int i = piece(position);
    if (i >= ends.length) {
      return -1;
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    long pieceStart = i == 0 ? 0 : ends[i - 1];
    long within = position - pieceStart;
    long avail = ends[i] - position;
    ByteBuffer window = dst.remaining() > avail ? dst.slice(dst.position(), (int) avail) : dst;
    int n = parent.read(window, starts[i] + within);
    if (n > 0 && window != dst) {
      dst.position(dst.position() + n);
    }
    return n;
  }

  @Override
  public Mappable mappable(long position) throws IOException {
    if (starts.length != 1) {
      return null;
    }
    return parent.mappable(starts[0] + position);
  }

  @Override
  public ByteSource viewOf() {
    return parent;
  }

  @Override
  public void close() {}
}
