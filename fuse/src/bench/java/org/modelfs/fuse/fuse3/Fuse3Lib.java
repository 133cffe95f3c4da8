package org.modelfs.fuse.fuse3;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Pointer;
import jnr.ffi.annotations.Delegate;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;

/**
 * libfuse 3's high-level mount calls through jnr-ffi, bound to the versioned names that every
 * libfuse 3.2+ exports (Debian libfuse3-3): {@code fuse_new_31} (the 3.1 signature, which {@code
 * fuse_new} means in 3.1–3.16) and {@code fuse_loop_mt_31} (clone_fd as an int: no {@code
 * fuse_loop_config} to allocate), plus libc's {@code umount2} to end a mount from Java; and the
 * callback signatures of 3.14's {@code struct fuse_operations} that the prototype fills.
 */
public final class Fuse3Lib {
  private Fuse3Lib() {}

  /** The library's calls. */
  public interface Lib {
    Pointer fuse_new_31(Pointer args, Pointer ops, @size_t long opsSize, Pointer userData);

    int fuse_mount(Pointer fuse, String mountpoint);

    int fuse_loop(Pointer fuse);

    int fuse_loop_mt_31(Pointer fuse, int cloneFd);

    void fuse_unmount(Pointer fuse);

    void fuse_destroy(Pointer fuse);

    /** The library's version, "3.14.0": the layout table is checked against 3.14's headers. */
    String fuse_pkgversion();
  }

  /** libc's umount2(2); open(2), close(2) and malloc(3) for read_buf's descriptors and buffers. */
  public interface LibC {
    int umount2(String target, int flags);

    int open(String path, int flags);

    int close(int fd);

    /** libfuse frees a read_buf's bufvec (and its memory buffers) with free(3). */
    Pointer malloc(@size_t long size);
  }

  static Lib load() {
    return LibraryLoader.create(Lib.class).failImmediately().load("libfuse3.so.3");
  }

  static LibC libc() {
    return LibraryLoader.create(LibC.class).failImmediately().load("c");
  }

  /** {@code int (*getattr)(const char *, struct stat *, struct fuse_file_info *)}. */
  public interface Getattr {
    @Delegate
    int call(String path, Pointer stat, Pointer fi);
  }

  /** open, release, opendir, releasedir: {@code int (*)(const char *, struct fuse_file_info *)}. */
  public interface PathFi {
    @Delegate
    int call(String path, Pointer fi);
  }

  /** {@code int (*read)(const char *, char *, size_t, off_t, struct fuse_file_info *)}. */
  public interface Read {
    @Delegate
    int call(String path, Pointer buf, @size_t long size, @off_t long offset, Pointer fi);
  }

  /** {@code int (*read_buf)(const char *, struct fuse_bufvec **, size_t, off_t, struct fuse_file_info *)}. */
  public interface ReadBuf {
    @Delegate
    int call(String path, Pointer bufp, @size_t long size, @off_t long offset, Pointer fi);
  }

  /** {@code int (*statfs)(const char *, struct statvfs *)}. */
  public interface Statfs {
    @Delegate
    int call(String path, Pointer statvfs);
  }

  /** {@code int (*getxattr)(const char *, const char *, char *, size_t)}. */
  public interface Getxattr {
    @Delegate
    int call(String path, String name, Pointer value, @size_t long size);
  }

  /** {@code int (*listxattr)(const char *, char *, size_t)}. */
  public interface Listxattr {
    @Delegate
    int call(String path, Pointer list, @size_t long size);
  }

  /**
   * {@code int (*readdir)(const char *, void *, fuse_fill_dir_t, off_t, struct fuse_file_info *,
   * enum fuse_readdir_flags)}: FUSE 3 adds the flags (FUSE_READDIR_PLUS).
   */
  public interface Readdir {
    @Delegate
    int call(String path, Pointer buf, Pointer filler, @off_t long offset, Pointer fi, int flags);
  }

  /** {@code void *(*init)(struct fuse_conn_info *, struct fuse_config *)}. */
  public interface Init {
    @Delegate
    Pointer call(Pointer conn, Pointer cfg);
  }
}
