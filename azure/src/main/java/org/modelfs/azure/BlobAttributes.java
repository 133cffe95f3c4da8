package org.modelfs.azure;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/** A blob's (or a virtual directory's) basic attributes: its size and Last-Modified time. */
record BlobAttributes(String key, Instant modified, long size, boolean isDirectory) implements BasicFileAttributes {
  @Override
  public FileTime lastModifiedTime() {
    return FileTime.from(modified == null ? Instant.EPOCH : modified);
  }

  @Override
  public FileTime lastAccessTime() {
    return lastModifiedTime();
  }

  @Override
  public FileTime creationTime() {
    return lastModifiedTime();
  }

  @Override
  public boolean isRegularFile() {
    return !isDirectory;
  }

  @Override
  public boolean isSymbolicLink() {
    return false;
  }

  @Override
  public boolean isOther() {
    return false;
  }

  @Override
  public Object fileKey() {
    return null;
  }
}
