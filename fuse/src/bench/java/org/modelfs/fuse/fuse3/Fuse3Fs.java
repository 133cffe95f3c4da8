package org.modelfs.fuse.fuse3;

import jnr.ffi.Pointer;

/**
 * The calls of {@code struct fuse_operations} (libfuse 3.14) that a read-only prototype serves,
 * with FUSE 3's signatures; each answers 0 or a byte count, or a negated errno.
 */
interface Fuse3Fs {
  int getattr(String path, Pointer stat, Pointer fi);

  int open(String path, Pointer fi);

  int read(String path, Pointer buf, long size, long offset, Pointer fi);

  /** Whether reads are answered by {@link #readBuf} (a buffer naming a descriptor) instead of {@link #read}. */
  default boolean readBuf() {
    return false;
  }

  default int readBuf(String path, Pointer bufp, long size, long offset, Pointer fi) {
    return -Errno.ENOSYS;
  }

  int release(String path, Pointer fi);

  int statfs(String path, Pointer statvfs);

  int getxattr(String path, String name, Pointer value, long size);

  int listxattr(String path, Pointer list, long size);

  int opendir(String path, Pointer fi);

  int readdir(String path, Pointer buf, Pointer filler, long offset, Pointer fi, int flags);

  Pointer init(Pointer conn, Pointer cfg);

  /** The Linux errno values the prototype answers. */
  final class Errno {
    static final int ENOENT = 2;
    static final int EIO = 5;
    static final int EBADF = 9;
    static final int ENOTDIR = 20;
    static final int EROFS = 30;
    static final int ERANGE = 34;
    static final int ENOSYS = 38;
    static final int ENODATA = 61;
    static final int EOPNOTSUPP = 95;

    private Errno() {}
  }
}
