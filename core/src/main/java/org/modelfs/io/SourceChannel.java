package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only {@link SeekableByteChannel} view of a {@link ByteSource}, with a position of its
 * own: for a library that wants a channel (the zip library reading a central directory) where
 * the bytes come from a source, so that no second channel is ever opened on the source's file
 * (for an object store's source that would be a second, unpinned reader). Closing the view
 * leaves the source open. One thread at a time, like any channel with a position.
 */
public final class SourceChannel implements SeekableByteChannel {
  private final ByteSource src;
  private long position;
  private boolean open = true;

  public SourceChannel(ByteSource src) {
    this.src = src;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    ensureOpen();
    if (!dst.hasRemaining()) {
      return 0;
    }
    int n = src.read(dst, position);
    if (n > 0) {
      position += n;
    }
    return n;
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long position() throws IOException {
    ensureOpen();
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) throws IOException {
    ensureOpen();
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position " + newPosition);
    }
    position = newPosition;
    return this;
  }

  @Override
  public long size() throws IOException {
    ensureOpen();
    return src.size();
  }

  @Override
  public SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
  }

  private void ensureOpen() throws ClosedChannelException {
    if (!open) {
      throw new ClosedChannelException();
    }
  }
}
