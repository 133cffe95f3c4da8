package org.modelfs.provider;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.modelfs.model.ArrayData;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.ModelTree;

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
    ModelTree.Found dst = target.getFileSystem().lookup(target);
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
    List<FileAttribute<?>> attrs = new ArrayList<>();
    ArrayData a = ((FileNode) src.node()).array();
    ArrayData old = dst != null && dst.node() instanceof FileNode f ? f.array() : null;
    if (a != null && !flatOnto(a, old)) {
      attrs.add(org.modelfs.ModelFileSystems.attribute("dtype", a.dtype().nd4jName()));
      attrs.add(org.modelfs.ModelFileSystems.attribute("shape", a.shape()));
      attrs.add(org.modelfs.ModelFileSystems.attribute("order", String.valueOf(a.order())));
      String kind = ((FileNode) src.node()).kind();
      if (kind != null && !kind.equals(ModelTree.UPDATER_KIND) && target.toAbsolutePath().normalize().names()
          .contains(ModelTree.PARAMS)) {
        attrs.add(org.modelfs.ModelFileSystems.attribute("kind", kind));
      }
    }
    try (InputStream in = Files.newInputStream(source);
        OutputStream out = java.nio.channels.Channels.newOutputStream(target.getFileSystem().newFileChannel(target,
            Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING),
            ArrayAttributes.of(attrs.toArray(new FileAttribute<?>[0]))))) {
      in.transferTo(out);
    }
  }

}
