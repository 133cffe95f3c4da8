package org.modelfs.provider;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.io.Closer;
import org.modelfs.tree.ArrayContent;
import org.modelfs.tree.Content;

/**
 * Copies of file contents, as the files show them, that cannot be mapped where they are stored
 * (big-endian arrays shown little-endian, containers on a provider without mappable channels;
 * a big-endian array shown as stored, {@code byteOrder=stored}, maps its container instead and
 * comes here only from such a provider), written once to a
 * delete-on-close temporary file of the default file system and mapped from there.
 *
 * <p>Bounded (docs/FILESYSTEM.md §8): at most {@link #MAX_COPIES} copies are kept (least recently
 * used closed first), and all are closed when a commit swaps in a new generation. Closing a copy
 * unlinks its file (the JDK unlinks a delete-on-close file when it opens it, so a copy is never
 * seen by {@code ls}) and frees its descriptor; the pages of a {@code MappedByteBuffer} already
 * made from it stay valid and keep their disk space until the buffer is garbage collected — Java
 * cannot unmap safely. A caller that finds a copy closed under it ({@link #channel} raced a
 * commit) asks again and gets a fresh one.
 */
final class MapCache {
  private static final int CHUNK = 1 << 20;
  /** Copies kept open at most. */
  static final int MAX_COPIES = 8;

  /** By array (the tree is rebuilt on every change, its contents with it) or by content; least recently used first. */
  private final Map<Object, FileChannel> files = new LinkedHashMap<>(16, 0.75f, true); // guarded by this
  /** Counts {@link #clear}s, so that a copy made across one is not kept for keys that are gone. Guarded by this. */
  private long clears;
  private final OpenResources resources;
  private final String container;

  MapCache(OpenResources resources, String container) {
    this.resources = resources;
    this.container = container;
  }

  /**
   * A read-only channel over a little-endian copy of {@code content}, made on first use. The copy
   * is made outside this monitor (it reads the content, and registers the copy with {@link
   * OpenResources}: this monitor takes no other lock): two threads asking for the same new copy may both make
   * one, and the one that comes second keeps the first's and closes its own.
   */
  FileChannel channel(Content content, String path) throws IOException {
    Object key = content instanceof ArrayContent a ? a.array() : content;
    long seen;
    synchronized (this) {
      FileChannel ch = files.get(key);
      if (ch != null && ch.isOpen()) {
        return ch;
      }
      seen = clears;
    }
    FileChannel made = copy(content, path);
    List<FileChannel> released = new ArrayList<>();
    FileChannel kept = made;
    synchronized (this) {
      FileChannel there = files.get(key);
      if (there != null && there.isOpen()) {
        kept = there; // another thread's copy came first
        released.add(made);
      } else if (clears != seen) {
        released.add(made); // a commit cleared the cache meanwhile: closed, so the caller asks again
      } else {
        files.put(key, made);
        for (Iterator<FileChannel> it = files.values().iterator(); files.size() > MAX_COPIES && it.hasNext(); ) {
          FileChannel old = it.next();
          if (old != made) {
            released.add(old);
            it.remove();
          }
        }
      }
    }
    release(released);
    return kept;
  }

  /** Closes every copy (a commit swapped in a new generation: the keys are gone from the tree). */
  void clear() throws IOException {
    List<FileChannel> all;
    synchronized (this) {
      all = new ArrayList<>(files.values());
      files.clear();
      clears++;
    }
    release(all);
  }

  private void release(List<FileChannel> copies) throws IOException {
    for (FileChannel c : copies) {
      resources.remove(c);
    }
    Closer.closeAll(copies);
  }

  private FileChannel copy(Content content, String path) throws IOException {
    Path tmp = Files.createTempFile("modelfs-map-", ".bin");
    FileChannel ch = null;
    try {
      ch = FileChannel.open(tmp, StandardOpenOption.READ, StandardOpenOption.WRITE,
          StandardOpenOption.DELETE_ON_CLOSE);
      // a direct buffer: with a heap one the JDK copies every chunk once more on each side
      ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(CHUNK, Math.max(1, content.size())));
      long pos = 0;
      long size = content.size();
      while (pos < size) {
        buf.clear();
        int n = content.read(buf, pos);
        if (n < 0) {
          throw new EOFException(container + "!" + path + ": content ended at byte " + pos
              + " of " + size + " while making a mappable copy");
        }
        buf.flip();
        while (buf.hasRemaining()) {
          ch.write(buf, pos + buf.position());
        }
        pos += n;
      }
      return resources.add(ch);
    } catch (IOException | RuntimeException e) {
      if (ch != null) {
        ch.close();
      }
      Files.deleteIfExists(tmp);
      throw e;
    }
  }
}
