package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.FileTime;
import java.util.List;
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

  /**
   * Accepted and ignored (docs/FILESYSTEM.md §4, "Times"): a model stores no time per file — every
   * file shows its container's — so that {@code Files.copy(…, COPY_ATTRIBUTES)}, {@code cp -p}-like
   * tools and jdk.zipfs's write-back work as on a file system that keeps coarser times. The path
   * must exist and the mount be writable, as on any file system.
   */
  @Override
  public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) throws IOException {
    ModelFileSystem fs = path.getFileSystem();
    fs.ensureOpen();
    if (fs.isReadOnly()) {
      throw new ReadOnlyFileSystemException();
    }
    fs.find(path);
  }

  /** The basic attributes {@link #setTimes} takes by name. */
  static final List<String> TIMES = List.of("lastModifiedTime", "lastAccessTime", "creationTime");

  /** Sets time {@code name} (one of {@link #TIMES}) as {@code Files.setAttribute} does: a {@link FileTime} or a {@link ClassCastException}. */
  void setTime(String name, Object value) throws IOException {
    FileTime t = (FileTime) value;
    switch (name) {
      case "lastModifiedTime" -> setTimes(t, null, null);
      case "lastAccessTime" -> setTimes(null, t, null);
      default -> setTimes(null, null, t);
    }
  }
}
