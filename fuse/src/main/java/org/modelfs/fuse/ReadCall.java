package org.modelfs.fuse;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.Delegate;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.FuseOperations;

/**
 * The FUSE read call as libfuse 2 makes it (docs/MOUNT.md "Reads"): {@code read_buf}, which
 * answers with a vector of buffers — a range of a descriptor (libfuse then splices it to the
 * kernel) or bytes in memory — instead of copying into libfuse's buffer. It takes the path as the
 * C string it is and the open file's handle straight from its {@code fuse_file_info}: jnr-fuse's
 * own callbacks decode the path into a {@code String} and wrap {@code fuse_file_info} in a new
 * struct object on every call, and a 256 MiB file is 2,048 calls, each paid again in a JVM that
 * has not compiled that code yet. The path is decoded only to name it in a logged error.
 */
final class ReadCall {
  /** libfuse 2's {@code read_buf} slot of {@code struct fuse_operations}. */
  public interface ReadBuf {
    @Delegate
    int readBuf(Pointer path, Pointer bufp, @size_t long size, @off_t long offset, Pointer fi);
  }

  /** Where {@code fh}, the handle {@link OpenFiles} gave at open, lies in {@code fuse_file_info}. */
  static final long FH = FuseFileInfo.of(Memory.allocateDirect(Runtime.getSystemRuntime(), 64)).fh.offset();

  // struct fuse_bufvec of libfuse 2.9 (LP64): size_t count, idx, off; then one struct fuse_buf:
  // size_t size; enum fuse_buf_flags flags; void *mem; int fd; off_t pos
  private static final int BUFVEC_BYTES = 64;
  private static final int COUNT = 0;
  private static final int SIZE = 24;
  private static final int FLAGS = 32;
  private static final int MEM = 40;
  private static final int FD = 48;
  private static final int POS = 56;
  /** FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK: a descriptor, read at {@code pos}. */
  private static final int IS_FD_AT_POS = (1 << 1) | (1 << 2);

  private ReadCall() {}

  /** Puts {@code read} in {@code ops}' read_buf slot; the caller keeps {@code read} reachable while mounted. */
  static void install(FuseOperations ops, ReadBuf read) {
    Pointer code = ops.getRuntime().getClosureManager().getClosurePointer(ReadBuf.class, read);
    ops.read_buf.getMemory().putPointer(ops.read_buf.offset(), code);
  }

  /** {@code *bufp}: {@code size} bytes of descriptor {@code fd} at {@code pos}. */
  static void fromDescriptor(Pointer bufp, int fd, long pos, long size) {
    Pointer v = vector(size);
    v.putInt(FLAGS, IS_FD_AT_POS);
    v.putInt(FD, fd);
    v.putLong(POS, pos);
    bufp.putPointer(0, v);
  }

  /** {@code *bufp}: {@code size} bytes at {@code mem}, a block of {@code malloc}'s that libfuse frees. */
  static void inMemory(Pointer bufp, Pointer mem, long size) {
    Pointer v = vector(size);
    v.putPointer(MEM, mem);
    bufp.putPointer(0, v);
  }

  private static Pointer vector(long size) {
    Pointer v = StoredFile.LIBC.malloc(BUFVEC_BYTES);
    if (v == null) {
      throw new OutOfMemoryError("malloc of a fuse_bufvec failed");
    }
    v.setMemory(0, BUFVEC_BYTES, (byte) 0); // idx, off, flags, mem, pos: 0
    v.putLong(COUNT, 1);
    v.putLong(SIZE, size);
    v.putInt(FD, -1);
    return v;
  }
}
