package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bounded set of open read descriptors shared by many files opened on demand
 * ({@link ChannelSource#pooled}): a file is opened when it is read and stays open until it is the
 * least recently used of more than {@code limit} idle ones; it is then closed and reopened by
 * its path on the next read, after checking that the path still names the very file that was
 * indexed (its file key). A descriptor in use by a read is never closed under it; while more
 * reads run at once than the limit allows, the pool holds one descriptor per running read.
 *
 * <p>Used for a mount's journal files, of which a session can make thousands (one per written
 * file): their descriptors stay at most {@code limit} whatever the number of files.
 */
public final class DescriptorPool {
  /** The number of idle descriptors a pool keeps open unless told otherwise. */
  public static final int DEFAULT_LIMIT = 32;

  private final int limit;
  /** Open descriptors by source, least recently used first (guarded by this). */
  private final LinkedHashMap<ChannelSource, Entry> open = new LinkedHashMap<>(16, 0.75f, true);

  /** A pool keeping at most {@code limit} (at least 1) idle descriptors open. */
  public DescriptorPool(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a descriptor pool needs room for at least one descriptor: " + limit);
    }
    this.limit = limit;
  }

  /** One open descriptor and the reads using it. */
  private static final class Entry {
    final FileChannel channel;
    int users; // guarded by the pool
    boolean dropped; // guarded by the pool: close when the last user is done

    Entry(FileChannel channel) {
      this.channel = channel;
    }
  }

  /** Reads at {@code position} of {@code source}'s file through a pooled descriptor. */
  int read(ChannelSource source, ByteBuffer dst, long position) throws IOException {
    for (int attempt = 0; ; attempt++) {
      Entry e = acquire(source);
      try {
        return e.channel.read(dst, position);
      } catch (ClosedChannelException x) {
        drop(source, e);
        if (x instanceof ClosedByInterruptException || attempt > 0) {
          throw x; // closed by this thread's interrupt, or twice in a row: not a pool eviction
        }
        // another thread's interrupt closed the shared descriptor: reopen once
      } finally {
        release(e);
      }
    }
  }

  /** The size of {@code source}'s file. */
  long size(ChannelSource source) throws IOException {
    Entry e = acquire(source);
    try {
      return e.channel.size();
    } finally {
      release(e);
    }
  }

  /**
   * An open channel on {@code source}'s file for mapping; the pool may close it once this
   * returns (a mapping outlives its channel; a caller that finds it closed asks again).
   */
  FileChannel channelForMapping(ChannelSource source) throws IOException {
    Entry e = acquire(source);
    release(e);
    return e.channel;
  }

  private Entry acquire(ChannelSource source) throws IOException {
    synchronized (this) {
      Entry e = open.get(source);
      if (e != null && e.channel.isOpen()) {
        e.users++;
        return e;
      }
      if (e != null) {
        open.remove(source);
      }
    }
    FileChannel ch = source.openForPool(); // outside the monitor: opening may block on a slow disk
    List<FileChannel> evicted = new ArrayList<>();
    Entry mine;
    synchronized (this) {
      Entry raced = open.get(source);
      if (raced != null && raced.channel.isOpen()) {
        evicted.add(ch);
        mine = raced;
      } else {
        mine = new Entry(ch);
        open.put(source, mine);
      }
      mine.users++;
      evict(evicted);
    }
    Closer.closeAll(evicted);
    return mine;
  }

  private void release(Entry e) throws IOException {
    List<FileChannel> closing = new ArrayList<>();
    synchronized (this) {
      e.users--;
      if (e.dropped && e.users == 0) {
        closing.add(e.channel);
      }
      evict(closing);
    }
    Closer.closeAll(closing);
  }

  /** Takes least recently used idle descriptors out while more than {@code limit} are open (hold the monitor). */
  private void evict(List<FileChannel> closing) {
    Iterator<Map.Entry<ChannelSource, Entry>> it = open.entrySet().iterator();
    int excess = open.size() - limit;
    while (excess > 0 && it.hasNext()) {
      Entry e = it.next().getValue();
      if (e.users == 0) {
        it.remove();
        closing.add(e.channel);
        excess--;
      }
    }
  }

  private void drop(ChannelSource source, Entry e) {
    synchronized (this) {
      open.remove(source, e);
      e.dropped = true;
    }
  }

  /** Closes {@code source}'s descriptor (now, or when the reads using it end): the source is closed. */
  void discard(ChannelSource source) throws IOException {
    FileChannel closing = null;
    synchronized (this) {
      Entry e = open.remove(source);
      if (e != null) {
        e.dropped = true;
        if (e.users == 0) {
          closing = e.channel;
        }
      }
    }
    if (closing != null) {
      closing.close();
    }
  }
}
