package org.modelfs.view;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.modelfs.model.DType;

/**
 * Which elements of an array the statistics read, and reading them chunk by chunk with one
 * bounded buffer. An array of at most {@link #SAMPLE_ABOVE} elements is read whole; a larger one
 * is sampled: {@link #BLOCKS} runs of {@link #BLOCK} consecutive elements at evenly spaced,
 * deterministic offsets (the first run at element 0, the last ending at the array's end), so
 * the same file always gives the same numbers and the page says "sampled N of M".
 */
final class Sample {
  /** Arrays with more elements than this are sampled. */
  static final long SAMPLE_ABOVE = 1L << 22;
  /** Elements per sampled run. */
  static final int BLOCK = 1 << 12;
  /** Runs per sampled array: {@code BLOCKS * BLOCK} = 1 Mi elements read. */
  static final int BLOCKS = 256;
  /** Elements per chunk read (at most 128 KiB: small enough to stay out of G1's humongous regions). */
  static final int CHUNK = 1 << 14;
  /** The elements read of an array up to this many bytes are held for both passes, read once. */
  static final int HOLD = 8 << 20;
  /** Each thread's held bytes, reused from array to array (at most {@link #HOLD}). */
  private static final ThreadLocal<ByteBuffer> HELD = new ThreadLocal<>();

  /** Receives one chunk: {@code count} elements from the start of each file's buffer (in the order the files were given). */
  interface Chunk {
    void accept(ByteBuffer[] bufs, int count) throws IOException;
  }

  private Sample() {}

  /** How many of {@code n} elements are read. */
  static long read(long n) {
    return n > SAMPLE_ABOVE ? (long) BLOCK * BLOCKS : n;
  }

  /** Where sampled run {@code i} of an array of {@code n} elements starts. */
  static long runStart(long n, int i) {
    return (long) ((double) (n - BLOCK) * i / (BLOCKS - 1));
  }

  /**
   * The elements read of {@code file} (a {@code t} array of {@code n} elements), all in this
   * thread's one little-endian buffer (valid until its next call), or {@code null} when they take
   * more than {@link #HOLD} bytes.
   */
  static ByteBuffer held(Path file, DType t, long n) throws IOException {
    long bytes = read(n) * t.width();
    if (bytes > HOLD) {
      return null;
    }
    ByteBuffer all = HELD.get();
    if (all == null || all.capacity() < bytes) {
      all = ByteBuffer.allocate((int) Math.max(bytes, 1 << 20)).order(ByteOrder.LITTLE_ENDIAN);
      HELD.set(all);
    }
    ByteBuffer into = all.clear();
    forEach(new Path[] {file}, t, n, (bufs, k) -> into.put(bufs[0]));
    return into.flip();
  }

  /**
   * Feeds the elements read of {@code files} ({@code t} arrays of {@code n} elements each, read
   * at the same positions) to {@code chunk}.
   */
  static void forEach(Path[] files, DType t, long n, Chunk chunk) throws IOException {
    int w = t.width();
    ByteBuffer[] bufs = new ByteBuffer[files.length];
    SeekableByteChannel[] chs = new SeekableByteChannel[files.length];
    try {
      for (int f = 0; f < files.length; f++) {
        bufs[f] = ByteBuffer.allocate(CHUNK * w).order(ByteOrder.LITTLE_ENDIAN);
        chs[f] = Files.newByteChannel(files[f]);
      }
      if (n <= SAMPLE_ABOVE) {
        run(chs, bufs, w, 0, n, files, chunk);
      } else {
        for (int i = 0; i < BLOCKS; i++) {
          run(chs, bufs, w, runStart(n, i), BLOCK, files, chunk);
        }
      }
    } finally {
      for (SeekableByteChannel ch : chs) {
        if (ch != null) {
          ch.close();
        }
      }
    }
  }

  private static void run(SeekableByteChannel[] chs, ByteBuffer[] bufs, int w, long from, long count, Path[] files,
      Chunk chunk) throws IOException {
    for (SeekableByteChannel ch : chs) {
      ch.position(from * w);
    }
    for (long done = 0; done < count; done += CHUNK) {
      int k = (int) Math.min(CHUNK, count - done);
      for (int f = 0; f < chs.length; f++) {
        ByteBuffer buf = bufs[f];
        buf.clear().limit(k * w);
        while (buf.hasRemaining()) {
          if (chs[f].read(buf) < 0) {
            throw new EOFException(files[f] + ": the array ends after " + chs[f].position()
                + " bytes; its shape needs " + (from + count) * w);
          }
        }
        buf.flip();
      }
      chunk.accept(bufs, k);
    }
  }
}
