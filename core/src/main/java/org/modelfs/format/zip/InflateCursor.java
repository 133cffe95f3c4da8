package org.modelfs.format.zip;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * One {@link Inflater} part-way through one DEFLATED entry: it produces the entry's bytes in
 * order, block by block, reading the compressed bytes from the zip as it goes and never past the
 * entry's declared sizes. The deflate stream must end exactly at the declared size: shorter, or
 * longer, is refused. A cursor cannot go back (an Inflater's state cannot be copied): reading an
 * earlier block takes a new cursor from the start of the entry.
 */
final class InflateCursor implements AutoCloseable {
  private static final int INPUT = 64 << 10;

  private final ByteSource zip;
  private final ZipIo.Entry entry;
  private final String file;
  private final Inflater inflater = new Inflater(true);
  private final ByteBuffer input = ByteBuffer.allocate(INPUT);
  /** Compressed bytes handed to the inflater so far. */
  private long consumed;
  /** The one padding byte zlib may want after a raw deflate stream has been given. */
  private boolean padded;
  /** Uncompressed bytes produced so far. */
  private long produced;

  InflateCursor(ByteSource zip, ZipIo.Entry entry, String file) {
    this.zip = zip;
    this.entry = entry;
    this.file = file;
  }

  /** The entry this cursor inflates. */
  ZipIo.Entry entry() {
    return entry;
  }

  /** Position in the entry of the next byte {@link #next} produces. */
  long position() {
    return produced;
  }

  /**
   * Fills {@code out} with the next {@code out.length} bytes of the entry (fewer only past the
   * declared size: the caller asks for no more than is left). At the declared end, checks that
   * the stream ends there too.
   */
  void next(byte[] out) throws IOException {
    int off = 0;
    while (off < out.length) {
      int n = inflate(out, off, out.length - off);
      if (n < 0) {
        throw error("inflates to " + (produced + off) + " bytes, but declares " + entry.size());
      }
      off += n;
    }
    produced += out.length;
    if (produced == entry.size()) {
      checkEnd();
    }
  }

  /** After the declared size: the stream must produce nothing more. */
  private void checkEnd() throws IOException {
    byte[] one = new byte[1];
    int n = inflate(one, 0, 1);
    if (n > 0) {
      throw error("inflates to more than its declared " + entry.size() + " bytes");
    }
  }

  /** Inflates up to {@code len} bytes (at least one); -1 when the stream (or its input) ended. */
  private int inflate(byte[] out, int off, int len) throws IOException {
    try {
      while (true) {
        int n = inflater.inflate(out, off, len);
        if (n > 0) {
          return n;
        }
        if (inflater.finished()) {
          return -1;
        }
        if (inflater.needsDictionary()) {
          throw error("cannot inflate: the stream asks for a preset dictionary");
        }
        if (inflater.needsInput() && !feed()) {
          return -1;
        }
      }
    } catch (DataFormatException e) {
      throw new ModelFormatException(file, what(), entry.dataOffset(), "cannot inflate: " + e.getMessage(), e);
    }
  }

  /** Gives the inflater more compressed bytes; false when the entry's compressed bytes are used up. */
  private boolean feed() throws IOException {
    long left = entry.compressedSize() - consumed;
    if (left <= 0) {
      if (padded) {
        return false;
      }
      padded = true; // zlib's raw mode may need one byte past the stream (java.util.zip.Inflater)
      inflater.setInput(new byte[1]);
      return true;
    }
    input.clear();
    input.limit((int) Math.min(INPUT, left));
    zip.readFully(input, entry.dataOffset() + consumed);
    input.flip();
    consumed += input.remaining();
    inflater.setInput(input.array(), 0, input.remaining());
    return true;
  }

  private String what() {
    return "ZIP entry '" + entry.name() + "'";
  }

  private ModelFormatException error(String problem) {
    return new ModelFormatException(file, what(), entry.dataOffset(), problem);
  }

  @Override
  public void close() {
    inflater.end();
  }
}
