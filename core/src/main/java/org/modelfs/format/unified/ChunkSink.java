package org.modelfs.format.unified;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.DeflateWorkers;
import org.modelfs.io.OrderedWork;
import org.modelfs.io.ParallelDeflater;

/**
 * Receives one array's raw bytes and writes them as chunks (docs/FORMATS.md §13.5): stored chunks
 * straight through, contiguous, a CRC-32C per {@link ContainerLayout#STORED_CHUNK} bytes; or
 * deflated chunks of {@link ContainerLayout#DEFLATE_CHUNK} raw bytes, each compressed on its own
 * by the {@link DeflateWorkers} (§13.7: every core; the chunks written in order, so the bytes do
 * not depend on the threads), with the CRC-32C of its stored bytes; at most the workers' in-flight
 * count of chunks in the heap. {@link #close} before {@link #finish} cancels the compression.
 */
final class ChunkSink implements WritableByteChannel {
  /** A compressed chunk and the CRC-32C of its stored bytes. */
  private record Chunk(byte[] data, int length, int crc) {}

  private final CountingOutput out;
  private final boolean deflate;
  private final long chunkSize;
  private final List<Long> offsets = new ArrayList<>();
  private final List<Long> lengths = new ArrayList<>();
  private final List<Integer> crcs = new ArrayList<>();
  private final CRC32C crc = new CRC32C();
  /** Raw bytes of the current chunk (stored: written already; deflated: waiting in {@link #pending}). */
  private long inChunk;
  private byte[] pending;
  private final int level;
  private final OrderedWork<Chunk> work;

  /**
   * @param level the deflate level 1–9 ({@code -1}: 6), or 0 to store
   * @param what the file and array, for messages
   */
  ChunkSink(CountingOutput out, int level, DeflateWorkers workers, String what) {
    this.out = out;
    this.deflate = level != 0;
    this.level = level;
    this.chunkSize = deflate ? ContainerLayout.DEFLATE_CHUNK : ContainerLayout.STORED_CHUNK;
    this.work = deflate ? new OrderedWork<>(workers, this::writeChunk, what) : null;
  }

  long chunkSize() {
    return chunkSize;
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    int n = src.remaining();
    while (src.hasRemaining()) {
      int take = (int) Math.min(src.remaining(), chunkSize - inChunk);
      if (!deflate) {
        if (inChunk == 0) {
          offsets.add(out.position());
        }
        ByteBuffer part = src.slice();
        part.limit(take);
        crc.update(part.duplicate());
        while (part.hasRemaining()) {
          out.write(part);
        }
        src.position(src.position() + take);
      } else {
        if (pending == null) {
          pending = new byte[ContainerLayout.DEFLATE_CHUNK];
        }
        src.get(pending, (int) inChunk, take);
      }
      inChunk += take;
      if (inChunk == chunkSize) {
        endChunk();
      }
    }
    return n;
  }

  private void endChunk() throws IOException {
    if (inChunk == 0) {
      return;
    }
    if (!deflate) {
      lengths.add(inChunk);
      crcs.add((int) crc.getValue());
      crc.reset();
    } else {
      byte[] raw = pending;
      int len = (int) inChunk;
      int lvl = level;
      pending = null;
      work.submit(() -> {
        ParallelDeflater.Compressed c = ParallelDeflater.compress(raw, len, null, lvl, true);
        CRC32C sum = new CRC32C();
        sum.update(c.data(), 0, c.length());
        return new Chunk(c.data(), c.length(), (int) sum.getValue());
      });
    }
    inChunk = 0;
  }

  /** Writes a compressed chunk where the file is, in order (the caller's thread). */
  private void writeChunk(Chunk c) throws IOException {
    offsets.add(out.position());
    ByteBuffer bb = ByteBuffer.wrap(c.data(), 0, c.length());
    while (bb.hasRemaining()) {
      out.write(bb);
    }
    lengths.add((long) c.length());
    crcs.add(c.crc());
  }

  /** Ends the last chunk; the chunk table of what was written. */
  Table finish() throws IOException {
    endChunk();
    if (work != null) {
      work.finish();
    }
    long[] o = new long[offsets.size()];
    long[] l = new long[o.length];
    int[] c = new int[o.length];
    for (int i = 0; i < o.length; i++) {
      o[i] = offsets.get(i);
      l[i] = lengths.get(i);
      c[i] = crcs.get(i);
    }
    return new Table(o, l, c);
  }

  /** Where each chunk went, its stored length and CRC-32C. */
  record Table(long[] offsets, long[] lengths, int[] crcs) {}

  @Override
  public boolean isOpen() {
    return true;
  }

  /** Cancels chunks still being compressed (none after {@link #finish}); the output belongs to the writer. */
  @Override
  public void close() {
    if (work != null) {
      work.close();
    }
  }
}
