package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import org.modelfs.SamediffFileAttributeView;

/**
 * The one file store of a mounted model: named after the container, type {@code samediff},
 * with the space figures of the store the container lives on (0 when that store has none).
 */
final class ModelFileStore extends FileStore {
  private final ModelFileSystem fs;

  ModelFileStore(ModelFileSystem fs) {
    this.fs = fs;
  }

  @Override
  public String name() {
    return fs.container();
  }

  @Override
  public String type() {
    return "samediff";
  }

  @Override
  public boolean isReadOnly() {
    return fs.isReadOnly();
  }

  /**
   * The store the container lives on: its file's, or for a model not yet written ({@code create=true})
   * its directory's; {@code null} when that provider has no stores (an object store's provider may not).
   */
  private FileStore backing() throws IOException {
    fs.ensureOpen();
    Path at;
    try {
      at = fs.containerFile();
    } catch (NoSuchFileException e) {
      at = fs.containerPath().toAbsolutePath().getParent();
      if (at == null) {
        return null;
      }
    }
    try {
      return Files.getFileStore(at);
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }

  /** A space figure of the backing store; 0 when it has none (docs/FILESYSTEM.md §4). */
  private long space(SpaceFigure figure) throws IOException {
    FileStore b = backing();
    if (b == null) {
      return 0;
    }
    try {
      return figure.of(b);
    } catch (UnsupportedOperationException e) {
      return 0;
    }
  }

  @FunctionalInterface
  private interface SpaceFigure {
    long of(FileStore store) throws IOException;
  }

  @Override
  public long getTotalSpace() throws IOException {
    return space(FileStore::getTotalSpace);
  }

  @Override
  public long getUsableSpace() throws IOException {
    return space(FileStore::getUsableSpace);
  }

  @Override
  public long getUnallocatedSpace() throws IOException {
    return space(FileStore::getUnallocatedSpace);
  }

  /** The backing store's block size; {@link UnsupportedOperationException}, saying so, when it has none. */
  @Override
  public long getBlockSize() throws IOException {
    FileStore b = backing();
    try {
      if (b != null) {
        return b.getBlockSize();
      }
    } catch (UnsupportedOperationException e) {
      // said below
    }
    throw new UnsupportedOperationException("the store of " + fs.container() + " has no block size");
  }

  @Override
  public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
    return type == BasicFileAttributeView.class || type == SamediffFileAttributeView.class;
  }

  @Override
  public boolean supportsFileAttributeView(String name) {
    return name.equals("basic") || name.equals(SamediffFileAttributeView.NAME);
  }

  @Override
  public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
    return null;
  }

  /** {@code totalSpace}, {@code usableSpace}, {@code unallocatedSpace}, {@code blockSize}; others are unknown. */
  @Override
  public Object getAttribute(String attribute) throws IOException {
    return switch (attribute) {
      case "totalSpace" -> getTotalSpace();
      case "usableSpace" -> getUsableSpace();
      case "unallocatedSpace" -> getUnallocatedSpace();
      case "blockSize" -> getBlockSize();
      default -> throw new UnsupportedOperationException("file store attribute '" + attribute + "' of " + name()
          + " (it has totalSpace, usableSpace, unallocatedSpace, blockSize)");
    };
  }

  @Override
  public String toString() {
    return name() + " (samediff)";
  }
}
