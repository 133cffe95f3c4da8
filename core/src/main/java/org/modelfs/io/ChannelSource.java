package org.modelfs.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.StandardOpenOption;

/**
 * A {@link ByteSource} over a {@link SeekableByteChannel}: positional {@link FileChannel} reads
 * when the channel is the JDK's own (the default file system), otherwise position-and-read with
 * each reader on a channel of its own. Another provider's positional read is never trusted to be
 * safe between threads (the S3 NIO provider's is a position-then-read without a lock: concurrent
 * readers get each other's bytes), nor its {@code map()} to work: a source on another provider
 * keeps up to {@value #CHANNELS} channels on its file, lends each to one read at a time, and
 * offers nothing to map (a {@code map()} of its bytes is a copy).
 *
 * <p>A thread interrupted in a {@code FileChannel} read closes the channel for every thread
 * (NIO's interruptible-channel rule). A source opened from a path therefore reopens its file
 * once for the other readers, who were not interrupted; the interrupted one gets its
 * {@link ClosedByInterruptException}. It reopens only the very file it indexed: the file's
 * identity (its file key — device and inode — or, where the provider has none, its size and
 * times) is taken when the source opens and checked again on reopening. If a commit replaced
 * the file meanwhile, the reader gets a {@link FileSystemException} saying so, never another
 * file's bytes.
 *
 * <p>A <em>pooled</em> source ({@link #pooled}) holds no descriptor of its own: each read borrows
 * one from a {@link DescriptorPool}, which opens the file by path (same identity check) and closes
 * the least recently used descriptors beyond its limit. A mount's journal files are read so.
 */
public final class ChannelSource implements ByteSource {
  private final String name;
  private final Path file;
  private final boolean temporary;
  private final Object identity;
  private final DescriptorPool pool;
  private volatile SeekableByteChannel channel;
  private volatile boolean closed;
  /** Mapped windows for converting reads ({@link #window}), made on first use. */
  private volatile MappedWindows windows;
  /** Whether {@link #channel} is the JDK's own {@code FileChannel}: positional reads, shared by all threads. */
  private final boolean positional;
  /** Channels of a non-JDK provider not lent to a read now (guarded by {@code this}). */
  private final ArrayDeque<SeekableByteChannel> idle = new ArrayDeque<>();
  /** Channels of a non-JDK provider open now, lent or idle (guarded by {@code this}). */
  private int lent;

  /** The most channels a source on a non-JDK provider keeps on its file (one per concurrent reader). */
  static final int CHANNELS = 4;

  private ChannelSource(String name, Path file, Opened opened, boolean temporary) {
    this.name = name;
    this.file = file;
    this.channel = opened.channel();
    this.identity = opened.identity();
    this.temporary = temporary;
    this.pool = null;
    this.positional = jdkChannel(channel);
    if (!positional && file != null) {
      idle.push(channel);
      lent = 1;
    }
  }

  /** Whether {@code ch} is the JDK's own {@code FileChannel} (whose positional reads are thread-safe). */
  private static boolean jdkChannel(SeekableByteChannel ch) {
    return ch instanceof FileChannel && ch.getClass().getModule() == Object.class.getModule();
  }

  private ChannelSource(String name, Path file, Object identity, DescriptorPool pool, boolean temporary) {
    this.name = name;
    this.file = file;
    this.identity = identity;
    this.pool = pool;
    this.temporary = temporary;
    this.positional = true; // the pool's descriptors are default-file-system FileChannels
  }

  /**
   * A source on {@code file} (on the default file system, or any with {@code FileChannel}s) that
   * holds no descriptor while idle: reads borrow one from {@code pool}. The file's identity is
   * taken now; closing the source gives its descriptor back and, when {@code deleteOnClose},
   * deletes the file.
   */
  public static ChannelSource pooled(String name, Path file, DescriptorPool pool, boolean deleteOnClose)
      throws IOException {
    return new ChannelSource(name, file, identity(file), pool, deleteOnClose);
  }

  /** Opens this pooled source's file for its pool: only the very file it was made on. */
  FileChannel openForPool() throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    Opened fresh = openIdentified(file);
    if (!fresh.identity().equals(identity) || !(fresh.channel() instanceof FileChannel fc)) {
      fresh.channel().close();
      throw new FileSystemException(file.toString(), null, "is no longer the file this mount wrote (it was"
          + " replaced or is on a file system without file channels); its bytes are no longer reachable");
    }
    return fc;
  }

  /** A channel and the identity of the file it was opened on. */
  private record Opened(SeekableByteChannel channel, Object identity) {}

  /** Opens {@code file} for reading on whatever file system it lives on. */
  public static ChannelSource open(Path file) throws IOException {
    Path fileName = file.getFileName();
    return new ChannelSource(fileName == null ? file.toString() : fileName.toString(), file, openIdentified(file), false);
  }

  /**
   * Opens the temporary file {@code file} (an inflated zip entry) for reading under the name
   * {@code name}; closing the source deletes the file.
   */
  public static ChannelSource temporary(String name, Path file) throws IOException {
    return new ChannelSource(name, file, openIdentified(file), true);
  }

  private static SeekableByteChannel openChannel(Path file) throws IOException {
    try {
      return FileChannel.open(file, StandardOpenOption.READ);
    } catch (UnsupportedOperationException e) {
      return Files.newByteChannel(file, StandardOpenOption.READ);
    }
  }

  /**
   * Opens {@code file} and tells which file it opened: its identity before and after the open
   * must agree (else it was being replaced: try again).
   */
  private static Opened openIdentified(Path file) throws IOException {
    for (int i = 0; ; i++) {
      Object before = identity(file);
      SeekableByteChannel ch = openChannel(file);
      Object after;
      try {
        after = identity(file);
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
      if (before.equals(after)) {
        return new Opened(ch, after);
      }
      ch.close();
      if (i == 20) {
        throw new FileSystemException(file.toString(), null, "kept being replaced while it was opened");
      }
    }
  }

  private static Object identity(Path file) throws IOException {
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    return a.fileKey() != null ? a.fileKey() : List.of(a.size(), a.lastModifiedTime(), a.creationTime());
  }

  /** Wraps an already open channel; closing this source closes it. */
  public static ChannelSource of(String name, SeekableByteChannel channel) {
    return new ChannelSource(name, null, new Opened(channel, null), false);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() throws IOException {
    if (pool != null) {
      return pool.size(this);
    }
    if (!positional && file != null) {
      SeekableByteChannel ch = borrow(); // the first channel may have been closed by an interrupt
      try {
        return ch.size();
      } finally {
        giveBack(ch);
      }
    }
    return channel.size();
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (pool != null) {
      return pool.read(this, dst, position);
    }
    if (!positional && file != null) {
      return readLent(dst, position);
    }
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

  /** A read on a channel lent to this read alone (a non-JDK provider's file). */
  private int readLent(ByteBuffer dst, long position) throws IOException {
    SeekableByteChannel ch = borrow();
    try {
      ch.position(position);
      return ch.read(dst);
    } finally {
      giveBack(ch);
    }
  }

  private SeekableByteChannel borrow() throws IOException {
    synchronized (this) {
      while (true) {
        if (closed) {
          throw new ClosedChannelException();
        }
        if (!idle.isEmpty()) {
          return idle.pop();
        }
        if (lent < CHANNELS) {
          lent++;
          break;
        }
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException(name + ": interrupted while waiting for a channel to read with");
        }
      }
    }
    try {
      Opened fresh = openIdentified(file);
      if (!fresh.identity().equals(identity)) {
        fresh.channel().close();
        throw new FileSystemException(file.toString(), null, "was replaced since it was opened (another writer"
            + " committed); the bytes this mount indexed are no longer reachable — mount the model again");
      }
      return fresh.channel();
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        lent--;
        notifyAll();
      }
      throw e;
    }
  }

  private void giveBack(SeekableByteChannel ch) throws IOException {
    boolean close;
    synchronized (this) {
      close = closed || !ch.isOpen();
      if (close) {
        lent--;
      } else {
        idle.push(ch);
      }
      notifyAll();
    }
    if (close) {
      ch.close();
    }
  }

  private static int read(SeekableByteChannel ch, ByteBuffer dst, long position) throws IOException {
    if (ch instanceof FileChannel fc && jdkChannel(fc)) {
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
      Opened fresh = openIdentified(file);
      if (!fresh.identity().equals(identity)) {
        fresh.channel().close();
        throw new FileSystemException(file.toString(), null, "was replaced since it was opened (another writer"
            + " committed) and its channel was closed by an interrupted reader; the bytes this mount indexed are"
            + " no longer reachable — mount the model again");
      }
      channel = fresh.channel();
    }
    return channel;
  }

  @Override
  public Mappable mappable(long position) throws IOException {
    if (pool != null) {
      return new Mappable(pool.channelForMapping(this), position);
    }
    if (!positional) {
      return null; // another provider's map() is not trusted to work: the caller copies
    }
    SeekableByteChannel ch = channel;
    if (!ch.isOpen() && !closed && file != null) {
      ch = reopen(ch); // closed by another thread's interrupt
    }
    if (!(ch instanceof FileChannel fc)) {
      return null;
    }
    // a file that stays as it is while open: not a temporary, and its identity is its file key
    boolean stable = !temporary && file != null && identity != null && !(identity instanceof List);
    return stable ? new Mappable(fc, position, file, identity) : new Mappable(fc, position);
  }

  @Override
  public ByteBuffer window(long position, int length) throws IOException {
    if (closed) {
      return null;
    }
    MappedWindows cache = windows;
    ByteBuffer hit = cache == null ? null : cache.cached(position, length);
    if (hit != null) {
      return hit; // the common case: no size() or mappable() system call per read
    }
    try {
      Mappable m = mappable(position);
      if (m == null) {
        return null;
      }
      long size = size();
      if (position >= size) {
        return null;
      }
      MappedWindows w = windows;
      if (w == null) {
        synchronized (this) {
          if (windows == null) {
            windows = new MappedWindows();
          }
          w = windows;
        }
      }
      return w.view(m.channel(), size, position, length);
    } catch (ClosedByInterruptException e) {
      throw e;
    } catch (ClosedChannelException e) {
      // a pooled descriptor closed by another reader between lending and mapping: no window this
      // time; the caller reads instead (which reopens the file as every pooled read does)
      return null;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    if (windows != null) {
      windows.clear();
    }
    try {
      if (pool != null) {
        pool.discard(this);
      } else if (!positional && file != null) {
        List<SeekableByteChannel> all = new ArrayList<>(idle);
        idle.clear();
        notifyAll();
        Closer.closeAll(all); // lent ones are closed as they come back
      } else {
        channel.close();
      }
    } finally {
      if (temporary) {
        Files.deleteIfExists(file);
      }
    }
  }
}
