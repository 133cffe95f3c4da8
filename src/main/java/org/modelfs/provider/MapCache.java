package org.modelfs.provider;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.modelfs.tree.Content;

/**
 * Little-endian copies of file contents that cannot be mapped where they are stored (big-endian
 * legacy arrays, containers on a provider without mappable channels), written once to a
 * delete-on-close temporary file of the default file system and mapped from there.
 */
final class MapCache {
  private static final int CHUNK = 1 << 20;

  /** By array (the tree is rebuilt on every change, its contents with it) or by content. */
  private final Map<Object, FileChannel> files = new ConcurrentHashMap<>();
  private final OpenResources resources;
  private final String container;

  MapCache(OpenResources resources, String container) {
    this.resources = resources;
    this.container = container;
  }

  /** A read-only channel over a little-endian copy of {@code content}, made on first use. */
  FileChannel channel(Content content, String path) throws IOException {
    Object key = content instanceof org.modelfs.tree.ArrayContent a ? a.array() : content;
    FileChannel ch = files.get(key);
    if (ch != null && ch.isOpen()) {
      return ch;
    }
    synchronized (this) {
      ch = files.get(key);
      if (ch == null || !ch.isOpen()) {
        ch = copy(content, path);
        files.put(key, ch);
      }
    }
    return ch;
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
          throw new java.io.EOFException(container + "!" + path + ": content ended at byte " + pos
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
