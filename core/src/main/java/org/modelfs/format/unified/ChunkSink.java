package org.modelfs.format.unified;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;
import org.modelfs.io.CountingOutput;

/**
 * Receives one array's raw bytes and writes them as chunks (docs/FORMATS.md §13.5): stored chunks
 * straight through, contiguous, a CRC-32C per {@link ContainerLayout#STORED_CHUNK} bytes; or
 * deflated chunks of {@link ContainerLayout#DEFLATE_CHUNK} raw bytes, each compressed on its own
 * (one chunk of raw bytes in the heap at a time) with the CRC-32C of its stored bytes.
 */
final class ChunkSink implements WritableByteChannel {
  private final CountingOutput out;
  private final Deflater deflater;
  private final long chunkSize;
  private final List<Long> offsets = new ArrayList<>();
  private final List<Long> lengths = new ArrayList<>();
  private final List<Integer> crcs = new ArrayList<>();
  private final CRC32C crc = new CRC32C();
  /** Raw bytes of the current chunk (stored: written already; deflated: waiting in {@link #pending}). */
  private long inChunk;
  private final byte[] pending;
  private final byte[] compressed;

  /** @param deflater the deflater to use, or {@code null} to store */
  ChunkSink(CountingOutput out, Deflater deflater) {
    this.out = out;
    this.deflater = deflater;
    this.chunkSize = deflater == null ? ContainerLayout.STORED_CHUNK : ContainerLayout.DEFLATE_CHUNK;
    this.pending = deflater == null ? null : new byte[ContainerLayout.DEFLATE_CHUNK];
    this.compressed = deflater == null ? null : new byte[64 << 10];
  }

  long chunkSize() {
    return chunkSize;
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    int n = src.remaining();
    while (src.hasRemaining()) {
      int take = (int) Math.min(src.remaining(), chunkSize - inChunk);
      if (deflater == null) {
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
    if (deflater == null) {
      lengths.add(inChunk);
    } else {
      long start = out.position();
      offsets.add(start);
      deflater.reset();
      deflater.setInput(pending, 0, (int) inChunk);
      deflater.finish();
      while (!deflater.finished()) {
        int k = deflater.deflate(compressed);
        crc.update(compressed, 0, k);
        ByteBuffer bb = ByteBuffer.wrap(compressed, 0, k);
        while (bb.hasRemaining()) {
          out.write(bb);
        }
      }
      lengths.add(out.position() - start);
    }
    crcs.add((int) crc.getValue());
    crc.reset();
    inChunk = 0;
  }

  /** Ends the last chunk; the chunk table of what was written. */
  Table finish() throws IOException {
    endChunk();
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

  @Override
  public void close() {
    // the output belongs to the writer
  }
}
