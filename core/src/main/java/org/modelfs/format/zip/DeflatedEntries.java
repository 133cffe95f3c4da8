package org.modelfs.format.zip;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.io.ByteSource;

/**
 * The DEFLATED entries of one open zip, inflated on demand and never written anywhere
 * (docs/FORMATS.md §9.1): a read needs the {@value #BLOCK}-byte block holding its position;
 * a block is taken from a small cache, else produced by the {@link InflateCursor} furthest along
 * the entry but not past the block, else by a new cursor from the entry's start. Memory is
 * bounded whatever the zip holds: at most {@value #MAX_CURSORS} cursors (an Inflater and a
 * 64 KiB input buffer each) and {@value #MAX_BLOCKS} cached blocks (16 MiB), least recently used
 * first out. Reads of one zip are serialized.
 */
public final class DeflatedEntries implements Closeable {
  /**
   * Uncompressed bytes per block: the unit of caching and of a cursor's progress; a FlatBuffer
   * page, so reading an array file's header inflates no more than that.
   */
  static final int BLOCK = 4 << 10;
  /** Cursors kept alive at once (sequential readers of different entries or positions). */
  static final int MAX_CURSORS = 4;
  /** Blocks kept in memory: 16 MiB. */
  static final int MAX_BLOCKS = 4096;

  private final ByteSource zip;
  private final String file;
  private final List<InflateCursor> cursors = new ArrayList<>();
  private final Map<Long, byte[]> blocks = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> e) {
      return size() > MAX_BLOCKS;
    }
  };
  private final List<ZipIo.Entry> entries = new ArrayList<>();
  private boolean closed;

  /**
   * @param zip the zip's bytes
   * @param file the zip's name for messages
   */
  public DeflatedEntries(ByteSource zip, String file) {
    this.zip = zip;
    this.file = file;
  }

  /** A source of the uncompressed bytes of the DEFLATED {@code entry} (checked by {@link ZipIo#bounds}). */
  public synchronized ByteSource source(ZipIo.Entry entry) {
    entries.add(entry);
    return new DeflatedSource(this, entries.size() - 1, entry, file + "!" + entry.name());
  }

  /** Copies bytes of entry number {@code id} at {@code position} into {@code dst}; -1 past its end. */
  synchronized int read(int id, ByteBuffer dst, long position) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    ZipIo.Entry e = entries.get(id);
    if (position >= e.size()) {
      return -1;
    }
    long index = position / BLOCK;
    byte[] block = block(id, e, index);
    int at = (int) (position - index * BLOCK);
    int n = Math.min(dst.remaining(), block.length - at);
    dst.put(block, at, n);
    return n;
  }

  private byte[] block(int id, ZipIo.Entry e, long index) throws IOException {
    Long key = ((long) id << 32) | index;
    byte[] b = blocks.get(key);
    if (b != null) {
      return b;
    }
    InflateCursor c = cursor(e, index * BLOCK);
    while (true) {
      long at = c.position();
      byte[] next = new byte[(int) Math.min(BLOCK, e.size() - at)];
      try {
        c.next(next);
      } catch (IOException | RuntimeException ex) {
        cursors.remove(c);
        c.close();
        throw ex;
      }
      blocks.put(((long) id << 32) | (at / BLOCK), next);
      if (at / BLOCK == index) {
        return next;
      }
    }
  }

  /** The cursor in {@code e} furthest along but not past {@code position}, or a new one; most recent last. */
  private InflateCursor cursor(ZipIo.Entry e, long position) {
    InflateCursor best = null;
    for (InflateCursor c : cursors) {
      if (c.entry() == e && c.position() <= position && (best == null || c.position() > best.position())) {
        best = c;
      }
    }
    if (best == null) {
      best = new InflateCursor(zip, e, file);
      if (cursors.size() >= MAX_CURSORS) {
        cursors.remove(0).close();
      }
    } else {
      cursors.remove(best);
    }
    cursors.add(best);
    return best;
  }

  /** Ends every Inflater and drops the cache; later reads fail. */
  @Override
  public synchronized void close() {
    closed = true;
    for (InflateCursor c : cursors) {
      c.close();
    }
    cursors.clear();
    blocks.clear();
  }
}
