package org.modelfs.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A sequential output that knows how many bytes it has written, so writers can pad to an
 * alignment and check that what they write lands where their layout said it would.
 */
public final class CountingOutput implements WritableByteChannel {
  private static final byte[] ZEROS = new byte[4096];
  /** Largest piece of a direct buffer copied into the heap at once for a stream. */
  private static final int STAGING = 1 << 20;
  private final WritableByteChannel out;
  /** The stream this writes to, or {@code null} when it writes to a channel. */
  private final OutputStream stream;
  private byte[] staging;
  private long position;

  public CountingOutput(WritableByteChannel out) {
    this.out = out;
    this.stream = null;
  }

  /**
   * An output over a stream (e.g. a zip entry). Heap buffers are handed to the stream whole, not
   * in the 8 KiB pieces of {@link Channels#newChannel(OutputStream)}.
   */
  public CountingOutput(OutputStream out) {
    this.out = Channels.newChannel(out);
    this.stream = out;
  }

  /** Bytes written so far. */
  public long position() {
    return position;
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    if (stream == null) {
      int n = out.write(src);
      position += n;
      return n;
    }
    int n = src.remaining();
    if (src.hasArray()) {
      stream.write(src.array(), src.arrayOffset() + src.position(), n);
      src.position(src.limit());
    } else {
      if (staging == null) {
        staging = new byte[Math.min(STAGING, Math.max(n, ZEROS.length))];
      }
      while (src.hasRemaining()) {
        int k = Math.min(staging.length, src.remaining());
        src.get(staging, 0, k);
        stream.write(staging, 0, k);
      }
    }
    position += n;
    return n;
  }

  /**
   * Copies {@code count} bytes of {@code src} from {@code position} to this output inside the
   * kernel ({@link FileChannel#transferTo}) and returns true, or returns false without writing
   * when this output is not a {@code FileChannel} (streams, other providers' channels), where
   * the JDK would fall back to small copies.
   *
   * @throws EOFException naming {@code what} if {@code src} ends before {@code count} bytes
   */
  public boolean transferFrom(FileChannel src, long position, long count, String what) throws IOException {
    if (stream != null || !(out instanceof FileChannel target)) {
      return false;
    }
    long done = 0;
    while (done < count) {
      long n = src.transferTo(position + done, count - done, target);
      if (n <= 0) {
        throw new EOFException(what + ": unexpected end of data at offset " + (position + done) + " ("
            + (count - done) + " more bytes expected)");
      }
      done += n;
      this.position += n;
    }
    return true;
  }

  /** Writes all of {@code bytes}. */
  public void write(byte[] bytes) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(bytes);
    while (bb.hasRemaining()) {
      write(bb);
    }
  }

  /** Writes a little-endian int. */
  public void writeIntLE(int v) throws IOException {
    write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, v).array());
  }

  /** Writes zeros up to absolute position {@code target}. */
  public void padTo(long target) throws IOException {
    if (target < position) {
      throw new IllegalStateException("already at " + position + ", cannot pad back to " + target);
    }
    while (position < target) {
      int n = (int) Math.min(ZEROS.length, target - position);
      write(ByteBuffer.wrap(ZEROS, 0, n));
    }
  }

  /** Fails unless the output is at {@code expected}: a layout bug, never a user error. */
  public void expectAt(long expected, String what) {
    if (position != expected) {
      throw new IllegalStateException(what + ": layout expected offset " + expected + " but wrote " + position);
    }
  }

  @Override
  public boolean isOpen() {
    return out.isOpen();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
