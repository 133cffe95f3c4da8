package org.modelfs.hdfs;

import java.nio.file.FileSystemException;

/**
 * A file of a mounted model was replaced or removed in HDFS since the mount read it (a commit by
 * another writer): its bytes are no longer the ones the mount read, so none are returned.
 */
public final class HdfsChangedException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  HdfsChangedException(String file, String what) {
    super(file, null, what + " since the model was mounted: the model changed (mount it again to read the new one)");
  }
}
