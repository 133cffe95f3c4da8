package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link ByteSource} over a {@link SeekableByteChannel}: positional {@link FileChannel} reads
 * when the file's provider offers them, otherwise position-and-read under the channel's lock
 * (e.g. a container on a provider without {@code FileChannel}).
 *
 * <p>A thread interrupted in a {@code FileChannel} read closes the channel for every thread
 * (NIO's interruptible-channel rule). A source opened from a path therefore reopens its file
 * once for the other readers, who were not interrupted; the interrupted one gets its
 * {@link ClosedByInterruptException}.
 */
public final class ChannelSource implements ByteSource {
  private final String name;
  private final Path file;
  private final boolean temporary;
  private volatile SeekableByteChannel channel;
  private volatile boolean closed;

  private ChannelSource(String name, Path file, SeekableByteChannel channel, boolean temporary) {
    this.name = name;
    this.file = file;
    this.channel = channel;
    this.temporary = temporary;
  }

  /** Opens {@code file} for reading on whatever file system it lives on. */
  public static ChannelSource open(Path file) throws IOException {
    Path fileName = file.getFileName();
    return new ChannelSource(fileName == null ? file.toString() : fileName.toString(), file, openChannel(file), false);
  }

  /**
   * Opens the temporary file {@code file} (an inflated zip entry) for reading under the name
   * {@code name}; closing the source deletes the file.
   */
  public static ChannelSource temporary(String name, Path file) throws IOException {
    return new ChannelSource(name, file, openChannel(file), true);
  }

  private static SeekableByteChannel openChannel(Path file) throws IOException {
    try {
      return FileChannel.open(file, StandardOpenOption.READ);
    } catch (UnsupportedOperationException e) {
      return java.nio.file.Files.newByteChannel(file, StandardOpenOption.READ);
    }
  }

  /** Wraps an already open channel; closing this source closes it. */
  public static ChannelSource of(String name, SeekableByteChannel channel) {
    return new ChannelSource(name, null, channel, false);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() throws IOException {
    return channel.size();
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    SeekableByteChannel ch = channel;
    try {
      return read(ch, dst, position);
    } catch (ClosedChannelException e) {
      if (closed || file == null || e instanceof ClosedByInterruptException) {
        throw e;
      }
      return read(reopen(ch), dst, position);
    }
  }

  private static int read(SeekableByteChannel ch, ByteBuffer dst, long position) throws IOException {
    if (ch instanceof FileChannel fc) {
      return fc.read(dst, position);
    }
    synchronized (ch) {
      ch.position(position);
      return ch.read(dst);
    }
  }

  /** Replaces {@code failed} with a fresh channel on the same file (once per failure). */
  private synchronized SeekableByteChannel reopen(SeekableByteChannel failed) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    if (channel == failed) {
      channel = openChannel(file);
    }
    return channel;
  }

  @Override
  public Mappable mappable(long position) throws IOException {
    SeekableByteChannel ch = channel;
    if (!ch.isOpen() && !closed && file != null) {
      ch = reopen(ch); // closed by another thread's interrupt
    }
    return ch instanceof FileChannel fc ? new Mappable(fc, position) : null;
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    try {
      channel.close();
    } finally {
      if (temporary) {
        java.nio.file.Files.deleteIfExists(file);
      }
    }
  }
}
