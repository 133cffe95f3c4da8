package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.FileTime;
import org.modelfs.SamediffFileAttributeView;
import org.modelfs.SamediffFileAttributes;

/**
 * The {@code basic} and {@code samediff} views of one path; attributes are read when asked
 * (the path may not exist when the view is made, as the NIO contract allows).
 */
final class ModelAttributeView implements SamediffFileAttributeView {
  private final ModelPath path;
  private final String name;

  ModelAttributeView(ModelPath path, String name) {
    this.path = path;
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public SamediffFileAttributes readAttributes() throws IOException {
    return path.getFileSystem().attributes(path);
  }

  /** The times are the container file's; they cannot be set per file. */
  @Override
  public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) {
    path.getFileSystem().ensureOpen();
    if (path.getFileSystem().isReadOnly()) {
      throw new ReadOnlyFileSystemException();
    }
    throw new UnsupportedOperationException("file times of a model are its container's; they cannot be set");
  }
}
