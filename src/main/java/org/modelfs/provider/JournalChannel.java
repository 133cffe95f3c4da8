package org.modelfs.provider;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A writable channel on a file of a mounted model: a {@link FileChannel} on a journal data file,
 * whose bytes become the file's new content when the channel is closed (until then other
 * readers see the old content, as with any file replaced on close).
 */
final class JournalChannel extends FileChannel {
  /** What closing installs: the journal file's final size. */
  interface OnClose {
    void install(long size) throws IOException;
  }

  private final FileChannel ch;
  private final boolean append;
  private final OnClose onClose;
  private final OpenResources resources;

  JournalChannel(FileChannel ch, boolean append, OnClose onClose, OpenResources resources) {
    this.ch = ch;
    this.append = append;
    this.onClose = onClose;
    this.resources = resources;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    return ch.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    return ch.read(dsts, offset, length);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    if (append) {
      synchronized (this) {
        ch.position(ch.size());
        return ch.write(src);
      }
    }
    return ch.write(src);
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    if (append) {
      synchronized (this) {
        ch.position(ch.size());
        return ch.write(srcs, offset, length);
      }
    }
    return ch.write(srcs, offset, length);
  }

  @Override
  public long position() throws IOException {
    return ch.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    ch.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return ch.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    ch.truncate(size);
    return this;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    ch.force(metaData);
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
    return ch.transferTo(position, count, target);
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
    return ch.transferFrom(src, position, count);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    return ch.read(dst, position);
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    return ch.write(src, position);
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    return ch.map(mode, position, size);
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    return ch.lock(position, size, shared);
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    return ch.tryLock(position, size, shared);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    resources.remove(this);
    long size;
    try {
      size = ch.size();
    } finally {
      ch.close();
    }
    onClose.install(size);
  }
}
