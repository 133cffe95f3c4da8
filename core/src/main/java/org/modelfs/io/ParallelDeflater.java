package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Compresses what is written to it into one raw DEFLATE stream (RFC 1951) on every core, pigz's
 * way (docs/FORMATS.md §7.3): the input is cut into blocks of {@link #BLOCK} bytes, each
 * compressed by its own {@link Deflater} with the previous {@link #DICTIONARY} bytes of input as
 * its preset dictionary and ended by a sync flush (an empty stored block: the output is
 * byte-aligned and no block is final), the last one by FINISH; the compressed blocks are written
 * to the target in order. Their concatenation is one valid stream, and the bytes depend only on
 * the input and the level, never on thread timing or the number of threads. The CRC-32 of the
 * input is taken in the caller's thread as it passes. Memory: at most {@code inFlight} blocks of
 * input and their output. {@link #close} without {@link #finish} cancels the work.
 */
public final class ParallelDeflater implements WritableByteChannel {
  /** Input bytes per block. */
  public static final int BLOCK = 1 << 20;
  /** The window DEFLATE may refer back to: each block is primed with this much preceding input. */
  public static final int DICTIONARY = 32 << 10;

  /** A compressed block, and the input buffer it came from (reused once the block is written). */
  public record Compressed(byte[] data, int length, byte[] input) {}

  /** What was compressed: the input's CRC-32 and size, and the stream's size. */
  public record Result(long crc, long size, long compressedSize) {}

  private final WritableByteChannel target;
  private final int level;
  private final OrderedWork<Compressed> work;
  private final CRC32 crc = new CRC32();
  private final ArrayDeque<byte[]> free = new ArrayDeque<>();
  private byte[] block;
  private int fill;
  /** The last {@link #DICTIONARY} bytes before the current block, or null at the start. */
  private byte[] dictionary;
  private long size;
  private long compressedSize;
  private boolean finished;

  /**
   * @param target where the stream goes (written in the caller's thread only)
   * @param level the DEFLATE level 1–9, or -1 for zlib's default (6)
   * @param what the file and structure being written, for messages
   */
  public ParallelDeflater(WritableByteChannel target, int level, DeflateWorkers workers, String what) {
    if (level != Deflater.DEFAULT_COMPRESSION && (level < 1 || level > 9)) {
      throw new IllegalArgumentException("deflate level must be 1 to 9 or -1: " + level);
    }
    this.target = target;
    this.level = level;
    this.work = new OrderedWork<>(workers, this::writeBlock, what);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    if (finished) {
      throw new IllegalStateException("the stream is finished");
    }
    int n = src.remaining();
    crc.update(src.duplicate());
    while (src.hasRemaining()) {
      if (block == null) {
        block = free.isEmpty() ? new byte[BLOCK] : free.pop();
      }
      int take = Math.min(src.remaining(), BLOCK - fill);
      src.get(block, fill, take);
      fill += take;
      if (fill == BLOCK) {
        submit(false);
      }
    }
    size += n;
    return n;
  }

  /** Ends the stream, writes every block, and says what was written. */
  public Result finish() throws IOException {
    if (!finished) {
      if (block == null) {
        block = new byte[0];
      }
      submit(true);
      work.finish();
      finished = true;
    }
    return new Result(crc.getValue(), size, compressedSize);
  }

  private void submit(boolean last) throws IOException {
    byte[] in = block;
    int len = fill;
    byte[] dict = dictionary;
    if (len >= DICTIONARY) {
      dictionary = Arrays.copyOfRange(in, len - DICTIONARY, len);
    }
    block = null;
    fill = 0;
    int lvl = level;
    work.submit(() -> compress(in, len, dict, lvl, last));
  }

  private void writeBlock(Compressed c) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(c.data(), 0, c.length());
    while (b.hasRemaining()) {
      target.write(b);
    }
    compressedSize += c.length();
    if (c.input().length == BLOCK && free.size() < 2) {
      free.push(c.input());
    }
  }

  /**
   * One block as part of a raw DEFLATE stream: primed with {@code dictionary} (null: none), ended
   * by a sync flush, or by FINISH when {@code last}.
   */
  public static Compressed compress(byte[] in, int len, byte[] dictionary, int level, boolean last) {
    Deflater d = new Deflater(level, true);
    try {
      if (dictionary != null) {
        d.setDictionary(dictionary);
      }
      d.setInput(in, 0, len);
      if (last) {
        d.finish();
      }
      byte[] out = new byte[len + (len >> 10) + 64];
      int n = 0;
      while (true) {
        n += d.deflate(out, n, out.length - n, last ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH);
        if (last ? d.finished() : n < out.length) {
          return new Compressed(out, n, in);
        }
        if (n == out.length) {
          out = Arrays.copyOf(out, out.length * 2);
        }
      }
    } finally {
      d.end();
    }
  }

  @Override
  public boolean isOpen() {
    return !finished;
  }

  /** Cancels outstanding blocks unless {@link #finish} completed. */
  @Override
  public void close() {
    work.close();
  }
}
