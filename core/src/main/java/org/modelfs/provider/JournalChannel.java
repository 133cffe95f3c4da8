package org.modelfs.provider;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import org.modelfs.io.StorageFullException;
import org.modelfs.store.Journal;

/**
 * A writable channel on a file of a mounted model: a {@link FileChannel} on a journal data file,
 * whose bytes become the file's new content when the channel is closed (until then other
 * readers see the old content, as with any file replaced on close).
 */
final class JournalChannel extends FileChannel {
  /**
   * What closing does: installs the journal file's final size — or, when a write of this channel
   * failed ({@code failure} not null), installs nothing.
   */
  interface OnClose {
    void closed(long size, IOException failure) throws IOException;
  }

  private final FileChannel ch;
  /** Opened with {@code READ} too: else reads, maps and transfers out are refused, as by the JDK. */
  private final boolean readable;
  private final boolean append;
  private final OnClose onClose;
  private final OpenResources resources;
  /** Explains a full device or file size limit met by a write (set once, before the channel is handed out). */
  private Journal journal;
  private Path file;
  private String what;
  /** The first write, truncate or force that failed: then closing installs nothing. */
  private volatile IOException failure;

  JournalChannel(FileChannel ch, boolean readable, boolean append, OnClose onClose, OpenResources resources) {
    this.ch = ch;
    this.readable = readable;
    this.append = append;
    this.onClose = onClose;
    this.resources = resources;
  }

  /**
   * Makes a write that meets a full device, a used-up quota or a file size limit throw a
   * {@link StorageFullException} saying which journal file of which path and model,
   * how far it got and how much room there is. Returns this channel.
   */
  JournalChannel explaining(Journal journal, Path file, String what) {
    this.journal = journal;
    this.file = file;
    this.what = what;
    return this;
  }

  /** {@code e} as {@link Journal#failure} explains it when it is a full device or size limit; else {@code e}. */
  private IOException full(IOException e, long needed) {
    if (journal == null) {
      return failed(e);
    }
    long size;
    try {
      size = ch.size();
    } catch (IOException | RuntimeException x) {
      size = -1;
    }
    IOException explained = StorageFullException.explain(e, file, what, size, needed);
    return failed(explained == e ? e : journal.failure(e, file, what, size, needed));
  }

  /** Remembers the first failure of a change to the file: its bytes are then not what the caller wrote. */
  private IOException failed(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }

  /** Refuses what needs {@code READ} on a channel opened without it (the JDK's {@code FileChannelImpl}). */
  private void readable() {
    if (!readable) {
      throw new NonReadableChannelException();
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    readable();
    return ch.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    readable();
    return ch.read(dsts, offset, length);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    long needed = src.remaining();
    try {
      if (append) {
        synchronized (this) {
          ch.position(ch.size());
          return ch.write(src);
        }
      }
      return ch.write(src);
    } catch (IOException e) {
      throw full(e, needed);
    }
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    long needed = 0;
    for (int i = offset; i < offset + length && i < srcs.length; i++) {
      needed += srcs[i].remaining();
    }
    try {
      if (append) {
        synchronized (this) {
          ch.position(ch.size());
          return ch.write(srcs, offset, length);
        }
      }
      return ch.write(srcs, offset, length);
    } catch (IOException e) {
      throw full(e, needed);
    }
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
    try {
      ch.truncate(size);
    } catch (IOException e) {
      throw failed(e);
    }
    return this;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    try {
      ch.force(metaData);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
    readable();
    return ch.transferTo(position, count, target);
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
    try {
      return ch.transferFrom(src, position, count);
    } catch (IOException e) {
      throw full(e, -1); // count is an upper bound (often Long.MAX_VALUE), not what was left
    }
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    readable();
    return ch.read(dst, position);
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    long needed = src.remaining();
    try {
      return ch.write(src, position);
    } catch (IOException e) {
      throw full(e, needed);
    }
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    readable(); // every mode needs READ (READ_WRITE: READ and WRITE), as on the JDK's channels
    return ch.map(mode, position, size);
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    if (shared) {
      readable();
    }
    return ch.lock(position, size, shared);
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    if (shared) {
      readable();
    }
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
    onClose.closed(size, failure);
  }
}
