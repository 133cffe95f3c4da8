package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.FileStore;
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

  private FileStore backing() throws IOException {
    fs.ensureOpen();
    return java.nio.file.Files.getFileStore(fs.containerFile());
  }

  @Override
  public long getTotalSpace() throws IOException {
    return backing().getTotalSpace();
  }

  @Override
  public long getUsableSpace() throws IOException {
    return backing().getUsableSpace();
  }

  @Override
  public long getUnallocatedSpace() throws IOException {
    return backing().getUnallocatedSpace();
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

  @Override
  public Object getAttribute(String attribute) throws IOException {
    return switch (attribute) {
      case "totalSpace" -> getTotalSpace();
      case "usableSpace" -> getUsableSpace();
      case "unallocatedSpace" -> getUnallocatedSpace();
      default -> throw new UnsupportedOperationException("file store attribute '" + attribute + "'");
    };
  }

  @Override
  public String toString() {
    return name() + " (samediff)";
  }
}
