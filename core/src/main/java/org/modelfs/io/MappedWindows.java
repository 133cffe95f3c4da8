package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The mapped windows of one file that reads converting while they copy use (fb's big-endian
 * elements swapped straight from the page cache into the caller's buffer): {@value #WINDOW}-byte
 * windows at multiples of their size, at most {@value #MAX} kept, least recently used out. Java 17
 * cannot unmap: a window dropped from here (or at close) is unmapped when the garbage collector
 * frees it, so at most {@value #MAX} windows are held by this cache and older ones wait for the
 * collector (docs/FILESYSTEM.md §8).
 */
final class MappedWindows {
  /** Bytes per window. */
  static final long WINDOW = 64L << 20;
  /** Windows kept. */
  static final int MAX = 16;

  private final Map<Long, MappedByteBuffer> windows = new LinkedHashMap<>(MAX * 2, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, MappedByteBuffer> e) {
      return size() > MAX;
    }
  };

  /**
   * Bytes {@code [position, position + length)} of {@code ch} (of {@code size} bytes), or fewer:
   * the view ends at its window's edge or the file's end; a read-only big-endian slice.
   */
  ByteBuffer view(FileChannel ch, long size, long position, int length) throws IOException {
    long w = position / WINDOW;
    long start = w * WINDOW;
    MappedByteBuffer m;
    synchronized (this) {
      m = windows.get(w);
    }
    long want = Math.min(WINDOW, size - start);
    if (m == null || m.capacity() < want) {
      // not mapped yet, or mapped when the file was shorter (a journal file that grew since)
      if (position >= size) {
        return null;
      }
      m = ch.map(FileChannel.MapMode.READ_ONLY, start, want);
      synchronized (this) {
        windows.put(w, m);
      }
    }
    int from = (int) (position - start);
    if (from >= m.capacity()) {
      return null;
    }
    return m.slice(from, (int) Math.min(length, m.capacity() - from));
  }

  /**
   * {@link #view} from a window already mapped, or {@code null} when its window is not (or the
   * position lies past the mapped bytes): no system call, no mapping — what a small random read
   * costs once its window is here.
   */
  ByteBuffer cached(long position, int length) {
    long w = position / WINDOW;
    MappedByteBuffer m;
    synchronized (this) {
      m = windows.get(w);
    }
    int from = (int) (position - w * WINDOW);
    if (m == null || from >= m.capacity()) {
      return null;
    }
    return m.slice(from, (int) Math.min(length, m.capacity() - from));
  }

  /** Drops every window (each is unmapped when the collector frees it). */
  synchronized void clear() {
    windows.clear();
  }
}
