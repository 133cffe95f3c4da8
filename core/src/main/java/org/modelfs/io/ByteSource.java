package org.modelfs.io;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Random access to the bytes of one file (or part of one): positional reads only, so many
 * threads can read at once. Every container, extracted entry and journal is seen through one.
 */
public interface ByteSource extends Closeable {

  /** A short name for messages: the file name or {@code zip!entry}. */
  String name();

  /** Total number of bytes. */
  long size() throws IOException;

  /**
   * Reads up to {@code dst.remaining()} bytes at {@code position}; returns the number read, or -1
   * at end of source. Does not change any shared position.
   */
  int read(ByteBuffer dst, long position) throws IOException;

  /**
   * Where byte {@code position} of this source lies in a {@link FileChannel}
   * (for a zero-copy {@code map}), or {@code null} when the bytes are not in one.
   */
  default Mappable mappable(long position) throws IOException {
    return null;
  }

  /**
   * A new check for one reader of this source ({@link ReadCheck}), or {@code null} when reads need
   * none (no checksums, or every read is checked already). A reader that reads in order — a copy,
   * a verify, a channel — takes one and feeds it what it reads; a copy of a source that has one
   * never moves its bytes around the reads (a kernel {@code transferTo}), or corrupt bytes would be
   * copied unchecked.
   */
  default ReadCheck newCheck() {
    return null;
  }

  /**
   * The source this one is a view of (a window, the pieces of a chunked array, a converted
   * layout), or {@code null} when it reads its bytes itself: whoever tracks which files are
   * still in use follows this to the file.
   */
  default ByteSource viewOf() {
    return null;
  }

  /**
   * A read-only view of bytes {@code [position, position + length)} of this source mapped from
   * its file — possibly fewer (a view ends at its window's edge) — or {@code null} when the
   * source offers none. For reads that convert while they copy (fb's big-endian elements).
   */
  default ByteBuffer window(long position, int length) throws IOException {
    return null;
  }

  /**
   * Whether {@link #prefetch} does anything: every read of this source costs a round trip (an
   * object store's ranged GET), so an opening that knows which bytes it will read fetches them
   * first, all at once (issue 34). False for files and bytes in memory.
   */
  default boolean prefetches() {
    return false;
  }

  /**
   * Says that bytes {@code [position, position + length)} are about to be read (an index): a
   * source that {@link #prefetches} fetches those it does not hold yet — as many as it can keep
   * until they are read, the first first — and returns when it holds them; any other does nothing.
   * Fails as a read of those bytes would (a replaced object, the source closed).
   */
  default void prefetch(long position, long length) throws IOException {}

  /**
   * A position in a file channel. Where the channel is a local file that stays as it is while
   * this source is open — a model's own container, never a journal file or a temporary — also
   * the file and its {@code fileKey}, so that a reader outside the JVM (splice(2) in the FUSE
   * mount, {@code org.modelfs.StoredBytes}) can open it again and check it is the same file;
   * otherwise those two are {@code null}.
   */
  record Mappable(FileChannel channel, long position, Path file, Object fileKey) {
    public Mappable(FileChannel channel, long position) {
      this(channel, position, null, null);
    }
  }

  /**
   * Reads exactly {@code dst.remaining()} bytes at {@code position}.
   *
   * @throws EOFException if the source ends first
   */
  default void readFully(ByteBuffer dst, long position) throws IOException {
    long pos = position;
    while (dst.hasRemaining()) {
      int n = read(dst, pos);
      if (n < 0) {
        throw new EOFException(
            name() + ": unexpected end of data at offset " + pos + " (" + dst.remaining()
                + " more bytes expected)");
      }
      pos += n;
    }
  }
}
