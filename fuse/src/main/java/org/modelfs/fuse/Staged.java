package org.modelfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.ModelFileSystems;

/**
 * The bytes of one file being written through the mount, held in a file of the mount's staging
 * directory until they are installed into the model (docs/MOUNT.md "Writes"): create-empty-then-
 * write, {@code O_TRUNC} then write, and scratch files beside a tag's files all see an ordinary
 * file meanwhile. Installing writes the bytes through one write channel of the model, so the
 * journal gets them exactly as an NIO write would, and the model's checks (graph.json, sizes)
 * run once, on the whole content.
 */
final class Staged {
  final Path file;
  final FileChannel channel;
  /** Attributes set with setfattr before the file reached the model: applied when it does. */
  final Map<String, String> attributes = new LinkedHashMap<>();
  /** Whether the model has not seen these bytes yet. */
  boolean dirty;
  /**
   * Whether bytes were written since the last install. A close before any write (bash's
   * {@code >} closes its first descriptor right after dup2) does not install: the bytes come.
   */
  boolean written;
  int opens;

  Staged(Path file, boolean dirty) throws IOException {
    this.file = file;
    this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    this.dirty = dirty;
  }

  /** The size, or -1 once installed and discarded (a stat racing the last close: ask the model). */
  long size() throws IOException {
    try {
      return channel.size();
    } catch (ClosedChannelException e) {
      return -1;
    }
  }

  /** Whether these bytes begin with {@code magic}. */
  boolean startsWith(byte[] magic) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(magic.length);
    while (b.hasRemaining() && channel.read(b, b.position()) > 0) {
      // read the first bytes
    }
    return !b.hasRemaining() && Arrays.equals(b.array(), magic);
  }

  /** Copies {@code from} (a model file) into this file, for a write that does not truncate. */
  void fill(Path from) throws IOException {
    try (SeekableByteChannel in = Files.newByteChannel(from)) {
      long pos = 0;
      ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
      while (in.read(b.clear()) > 0) {
        b.flip();
        while (b.hasRemaining()) {
          pos += channel.write(b, pos);
        }
      }
    }
  }

  /**
   * Writes these bytes as the content of the model file {@code target}: creation attributes from
   * setfattr for a new file, {@code samediff:} attributes set afterwards for an existing one.
   * The model's refusal (graph.json checked at close) is thrown; the bytes stay here.
   */
  void install(Path target) throws IOException {
    boolean exists = Files.exists(target);
    List<FileAttribute<?>> attrs = new ArrayList<>();
    if (!exists) {
      attributes.forEach((k, v) -> attrs.add(ModelFileSystems.attribute(k, v)));
    }
    try (SeekableByteChannel out = Files.newByteChannel(target, Set.of(StandardOpenOption.WRITE,
        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING), attrs.toArray(FileAttribute[]::new))) {
      ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
      long pos = 0;
      while (channel.read(b.clear(), pos) > 0) {
        b.flip();
        pos += b.remaining();
        while (b.hasRemaining()) {
          out.write(b);
        }
      }
    }
    if (exists) {
      for (Map.Entry<String, String> e : attributes.entrySet()) {
        Xattrs.set(target, e.getKey(), e.getValue());
      }
    }
    attributes.clear();
    dirty = false;
    written = false;
  }

  /** Closes and removes the staging file. */
  void discard() {
    try {
      channel.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // the staging directory is removed as a whole at unmount
    }
  }
}
