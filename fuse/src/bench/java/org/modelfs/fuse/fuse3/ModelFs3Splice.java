package org.modelfs.fuse.fuse3;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import jnr.ffi.Pointer;

/** Placeholder: read_buf with the container's descriptor is not written yet (see the report). */
final class ModelFs3Splice extends ModelFs3 {
  ModelFs3Splice(FileSystem fs, Path model, PrintStream log) throws IOException {
    super(fs, model, log);
  }

  @Override
  public boolean readBuf() {
    return false;
  }

  @Override
  public int readBuf(String path, Pointer bufp, long size, long offset, Pointer fi) {
    return -Errno.ENOSYS;
  }
}
