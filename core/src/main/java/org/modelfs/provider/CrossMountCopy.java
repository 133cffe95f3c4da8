package org.modelfs.provider;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayStreams;
import org.modelfs.tree.TreePath;
import org.modelfs.tree.ArrayContent;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.Node;

/**
 * {@code Files.copy} and {@code Files.move} between paths of mounted models (the same mount or
 * two). The target mount's change lock is held for the whole copy, so the existence checks and
 * the write are one step; the source is read without a lock, as every read is.
 */
final class CrossMountCopy {
  private CrossMountCopy() {}

  /**
   * Whether {@code a} is a flat (1-D) array of {@code old}'s dtype and byte size — a file of raw
   * bytes, the "write a temporary file, move it over" idiom — copied onto the array
   * {@code old}: then it is written as its bytes would be written into {@code old}, which keeps
   * its shape and order (docs/FILESYSTEM.md §7.2).
   */
  private static boolean flatOnto(ArrayData a, ArrayData old) {
    return old != null && a.shape().length == 1 && old.shape().length != 1 && a.dtype() == old.dtype()
        && a.length() == old.length();
  }

  /**
   * Whether {@code a} is a flat (1-D) array written in this session — a temporary file, as in
   * jdk.zipfs's write-back (write a temporary, delete the file, move the temporary over it) —
   * copied onto a parameter whose file was deleted ({@link Target#fileless}): then its bytes
   * are taken as a write into that path would take them, with the parameter's declared dtype
   * (and shape when the size fits; else 1-D), so the variable keeps its type and its place in
   * the graph (docs/FILESYSTEM.md §7.3).
   */
  private static boolean flatIntoFileless(ArrayData a, ModelPath target) {
    if (a.storage() != ArrayData.Storage.JOURNAL || a.shape().length != 1) {
      return false;
    }
    try {
      Target t = target.getFileSystem().changes().target(target);
      return t.area() == TreePath.Area.PARAM && Target.fileless(t.tag().variable(t.name()));
    } catch (FileSystemException e) {
      return false; // not a path a file can be written to: the write says why
    }
  }

  /** Copies a file of a mounted model to another path of a mounted model, with its array attributes. */
  static void copy(ModelPath source, ModelPath target, boolean replace) throws IOException {
    ModelChanges changes = target.getFileSystem().changes();
    changes.lock();
    try {
      copyLocked(source, target, replace);
    } finally {
      changes.unlock();
    }
  }

  private static void copyLocked(ModelPath source, ModelPath target, boolean replace) throws IOException {
    ModelTree.Found src = source.getFileSystem().find(source);
    ModelTree.Found dst = src.node() instanceof Dir ? target.getFileSystem().lookup(target)
        : target.getFileSystem().inTheWayOfFile(target);
    if (dst != null && source.getFileSystem() == target.getFileSystem()
        && dst.node().fileKey().equals(src.node().fileKey())) {
      return; // the same file (an alias, or a shared array): nothing to copy
    }
    if (dst != null && !replace) {
      throw new FileAlreadyExistsException(target.toString());
    }
    if (src.node() instanceof Dir) {
      // Files.copy of a directory makes an empty directory (its entries are not copied)
      if (dst != null) {
        if (dst.node() instanceof Dir d && !d.isEmpty()) {
          throw new DirectoryNotEmptyException(target.toString());
        }
        target.getFileSystem().edits().delete(target);
      }
      target.getFileSystem().provider().createDirectory(target);
      return;
    }
    if (dst != null && dst.node() instanceof Dir d) {
      if (!d.isEmpty()) {
        throw new DirectoryNotEmptyException(target.toString());
      }
      target.getFileSystem().edits().delete(target);
    }
    copyFile(source, target);
  }

  /**
   * Copies the file {@code source} to {@code target}: its bytes, their attributes and their byte
   * order all from one tree of the source mount (the read channel's), so a commit of that mount
   * meanwhile — which may change the order a file shows — cannot mix two.
   */
  private static void copyFile(ModelPath source, ModelPath target) throws IOException {
    ModelFileSystem.OpenRead r = source.getFileSystem().openForRead(source);
    try (FileChannel in = r.channel()) {
      ModelTree.Found dst = target.getFileSystem().inTheWayOfFile(target);
      FileNode file = r.file();
      List<FileAttribute<?>> attrs = new ArrayList<>();
      ArrayData a = file.array();
      ArrayData old = dst != null && dst.node() instanceof FileNode f ? f.array() : null;
      if (a != null && !flatOnto(a, old) && !(dst == null && flatIntoFileless(a, target))) {
        attrs.add(ModelFileSystems.attribute("dtype", a.dtype().nd4jName()));
        attrs.add(ModelFileSystems.attribute("shape", a.shape()));
        attrs.add(ModelFileSystems.attribute("order", String.valueOf(a.order())));
        String kind = file.kind();
        if (kind != null && !kind.equals(ModelTree.UPDATER_KIND) && target.toAbsolutePath().normalize().names()
            .contains(ModelTree.PARAMS)) {
          attrs.add(ModelFileSystems.attribute("kind", kind));
        }
      }
      // the bytes are taken in the order the target file shows: swapped when it differs from the source's
      boolean swap = a != null && a.dtype().width() > 1 && showsBigEndian(file) != showsBigEndian(
          dst != null ? dst.node() : null);
      try (FileChannel out = target.getFileSystem().newFileChannel(target,
          Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING),
          ArrayAttributes.of(attrs.toArray(new FileAttribute<?>[0])))) {
        if (swap) {
          copySwapped(in, out, a.dtype().width());
        } else {
          Channels.newInputStream(in).transferTo(Channels.newOutputStream(out));
        }
      }
    }
  }

  /** Whether {@code node} is an array file showing big-endian bytes ({@code samediff:byteOrder} big). */
  private static boolean showsBigEndian(Node node) {
    return node instanceof FileNode f && f.content() instanceof ArrayContent c && c.showsBigEndian();
  }

  /**
   * Copies {@code in} to {@code out} reversing the bytes of each whole {@code width}-byte element
   * (a trailing partial element, which a commit refuses anyway, is copied as it is).
   */
  private static void copySwapped(SeekableByteChannel in, WritableByteChannel out, int width) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(1 << 20);
    boolean end = false;
    while (!end || buf.position() > 0) {
      end = end || in.read(buf) < 0;
      buf.flip();
      int read = buf.limit();
      int whole = read - read % width;
      ArrayStreams.swap(buf, 0, whole, width);
      buf.limit(end ? read : whole);
      while (buf.hasRemaining()) {
        out.write(buf);
      }
      buf.limit(read).compact(); // the partial element waits for the rest of its bytes
    }
  }

}
