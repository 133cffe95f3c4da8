package org.modelfs.hdfs.nio;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * A file's basic attributes from its Hadoop {@link FileStatus}; the file key is HDFS's inode id
 * (the same file across renames, a new one when a file is replaced), or {@code null} off HDFS.
 */
record HdfsAttributes(FileStatus status) implements BasicFileAttributes {
  @Override public FileTime lastModifiedTime() { return FileTime.fromMillis(status.getModificationTime()); }
  @Override public FileTime lastAccessTime() { return FileTime.fromMillis(status.getAccessTime()); }
  @Override public FileTime creationTime() { return lastModifiedTime(); }
  @Override public boolean isRegularFile() { return status.isFile(); }
  @Override public boolean isDirectory() { return status.isDirectory(); }
  @Override public boolean isSymbolicLink() { return status.isSymlink(); }
  @Override public boolean isOther() { return false; }
  @Override public long size() { return status.isFile() ? status.getLen() : 0; }
  @Override public Object fileKey() { return status instanceof HdfsFileStatus h ? h.getFileId() : null; }

  /** The attributes {@code names} ({@code *} or a comma list) of the {@code basic} view. */
  Map<String, Object> map(String names) {
    Map<String, Object> all = new LinkedHashMap<>();
    all.put("lastModifiedTime", lastModifiedTime());
    all.put("lastAccessTime", lastAccessTime());
    all.put("creationTime", creationTime());
    all.put("size", size());
    all.put("isRegularFile", isRegularFile());
    all.put("isDirectory", isDirectory());
    all.put("isSymbolicLink", isSymbolicLink());
    all.put("isOther", isOther());
    all.put("fileKey", fileKey());
    if (names.equals("*")) {
      return all;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (String n : names.split(",")) {
      if (!all.containsKey(n)) {
        throw new IllegalArgumentException("'" + n + "' is no attribute of the basic view");
      }
      out.put(n, all.get(n));
    }
    return out;
  }
}
