package org.modelfs.provider;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Optional;
import org.modelfs.StoredBytes;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ReadCheck;
import org.modelfs.tree.Content;

/**
 * A read-only {@link FileChannel} on one file of a mounted model. Reads are positional on the
 * file's {@link Content}; {@code map(READ_ONLY)} maps the container itself where the bytes are
 * stored as they are shown, and otherwise a copy of the shown bytes from the {@link MapCache}.
 * Each channel has its own position; channels never share state, so reads run in parallel.
 */
final class ModelFileChannel extends FileChannel implements StoredBytes {
  private static final int TRANSFER_CHUNK = 64 * 1024;

  private final ModelFileSystem fs;
  private final Content content;
  private final String path;
  /** The {@link Lifetimes} tick this channel keeps alive: what was current when it was opened. */
  private final long pin;
  /** This channel's check of checksummed bytes it reads (docs/FORMATS.md §13.6), or {@code null}. */
  private final ReadCheck check;
  private long position; // guarded by this

  ModelFileChannel(ModelFileSystem fs, Content content, String path, long pin) {
    this.fs = fs;
    this.content = content;
    this.path = path;
    this.pin = pin;
    this.check = content.newCheck();
  }

  private void ensureOpen() throws ClosedChannelException {
    if (!isOpen()) {
      throw new ClosedChannelException();
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    ensureOpen();
    synchronized (this) {
      int n = readAt(dst, position);
      if (n > 0) {
        position += n;
      }
      return n;
    }
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    if (offset < 0 || length < 0 || offset > dsts.length - length) {
      throw new IndexOutOfBoundsException();
    }
    ensureOpen();
    synchronized (this) {
      long total = 0;
      for (int i = offset; i < offset + length; i++) {
        if (!dsts[i].hasRemaining()) {
          continue;
        }
        int n = readAt(dsts[i], position);
        if (n < 0) {
          return total == 0 ? -1 : total;
        }
        position += n;
        total += n;
        if (dsts[i].hasRemaining()) {
          break;
        }
      }
      return total;
    }
  }

  @Override
  public int read(ByteBuffer dst, long pos) throws IOException {
    if (pos < 0) {
      throw new IllegalArgumentException("negative position " + pos);
    }
    ensureOpen();
    return readAt(dst, pos);
  }

  /**
   * Reads from the content; an interrupt that closed the container's channel under this thread
   * closes this channel too, as the {@link java.nio.channels.InterruptibleChannel} contract says.
   */
  private int readAt(ByteBuffer dst, long pos) throws IOException {
    try {
      if (check == null) {
        return content.read(dst, pos);
      }
      ByteBuffer read = dst.duplicate();
      int n = content.read(dst, pos);
      if (n > 0) {
        read.limit(read.position() + n);
        check.passed(read, pos);
      }
      return n;
    } catch (ClosedByInterruptException e) {
      close();
      throw e;
    }
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) {
    throw new NonWritableChannelException();
  }

  @Override
  public int write(ByteBuffer src, long pos) {
    throw new NonWritableChannelException();
  }

  @Override
  public synchronized long position() throws IOException {
    ensureOpen();
    return position;
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position " + newPosition);
    }
    ensureOpen();
    synchronized (this) {
      position = newPosition;
    }
    return this;
  }

  @Override
  public long size() throws IOException {
    ensureOpen();
    return content.size();
  }

  @Override
  public FileChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public void force(boolean metaData) throws IOException {
    ensureOpen();
  }

  @Override
  public long transferTo(long pos, long count, WritableByteChannel target) throws IOException {
    if (pos < 0 || count < 0) {
      throw new IllegalArgumentException("negative position or count");
    }
    ensureOpen();
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
    long done = 0;
    while (done < count) {
      buf.clear().limit((int) Math.min(buf.capacity(), count - done));
      int n = readAt(buf, pos + done);
      if (n <= 0) {
        break;
      }
      buf.flip();
      while (buf.hasRemaining()) {
        target.write(buf);
      }
      done += n;
    }
    return done;
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long pos, long count) {
    throw new NonWritableChannelException();
  }

  /**
   * Maps {@code [pos, pos + size)} read-only: the container's own bytes when the file shows its
   * stored bytes from a file channel — raw little-endian, or big-endian in a mount with
   * {@code byteOrder=stored} (no copy) — else a cached copy of the bytes as shown.
   */
  @Override
  public Optional<StoredBytes.Range> storedRange() throws IOException {
    ensureOpen();
    if (check != null) {
      return Optional.empty(); // only this channel's reads check the bytes' checksums
    }
    ByteSource.Mappable m = content.mappable();
    if (m == null || m.file() == null) {
      return Optional.empty();
    }
    return Optional.of(new StoredBytes.Range(m.file(), m.fileKey(), m.position(), content.size()));
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long pos, long size) throws IOException {
    if (mode != MapMode.READ_ONLY) {
      throw new NonWritableChannelException();
    }
    if (pos < 0 || size < 0 || size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("bad mapping range: position " + pos + ", size " + size);
    }
    ensureOpen();
    long length = content.size();
    if (pos + size > length) {
      throw new IOException(fs.container() + "!" + path + ": cannot map bytes " + pos + ".."
          + (pos + size) + " of a " + length + "-byte read-only file");
    }
    // a pooled journal descriptor or a map() copy may be closed between being handed out and
    // mapped (the pool's limit, a commit): ask again, a few times
    for (int attempt = 0; ; attempt++) {
      try {
        ByteSource.Mappable m = content.mappable();
        if (m != null) {
          try {
            return m.channel().map(MapMode.READ_ONLY, m.position() + pos, size);
          } catch (UnsupportedOperationException e) {
            // the container's provider cannot map (jimfs, object stores): fall back to a copy
          }
        }
        return fs.mapCache().channel(content, path).map(MapMode.READ_ONLY, pos, size);
      } catch (ClosedByInterruptException e) {
        close();
        throw e;
      } catch (ClosedChannelException e) {
        if (attempt == 3 || Thread.currentThread().isInterrupted()) {
          throw e;
        }
      }
    }
  }

  @Override
  public FileLock lock(long pos, long size, boolean shared) throws IOException {
    return tryLock(pos, size, shared);
  }

  /**
   * Shared locks only (this channel only reads); they exclude no one but are valid until
   * released.
   */
  @Override
  public FileLock tryLock(long pos, long size, boolean shared) throws IOException {
    if (!shared) {
      throw new NonWritableChannelException();
    }
    ensureOpen();
    return new FileLock(this, pos, size, true) {
      private volatile boolean valid = true;

      @Override
      public boolean isValid() {
        return valid && channel().isOpen();
      }

      @Override
      public void release() {
        valid = false;
      }
    };
  }

  @Override
  protected void implCloseChannel() throws IOException {
    fs.resources().remove(this);
    fs.lifetimes().unpin(pin);
  }
}
