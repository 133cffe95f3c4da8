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
 * The FUSE read call as libfuse makes it (docs/MOUNT.md "Threads"): the path as the C string it is
 * and the open file's handle read straight from its {@code fuse_file_info}. jnr-fuse's own read
 * decodes the path into a {@code String} and wraps {@code fuse_file_info} in a new struct object on
 * every call; a 256 MiB file is 2,048 calls, each paid again in a JVM that has not compiled that
 * code yet. The path is decoded only to name it in a logged error.
 */
final class ReadCall {
  /** libfuse 2's {@code read} slot of {@code struct fuse_operations}. */
  public interface Read {
    @Delegate
    int read(Pointer path, Pointer buf, @size_t long size, @off_t long offset, Pointer fi);
  }

  /** Where {@code fh}, the handle {@link OpenFiles} gave at open, lies in {@code fuse_file_info}. */
  static final long FH = FuseFileInfo.of(Memory.allocateDirect(Runtime.getSystemRuntime(), 64)).fh.offset();

  private ReadCall() {}

  /** Puts {@code read} in {@code ops}' read slot; the caller keeps {@code read} reachable while mounted. */
  static void install(FuseOperations ops, Read read) {
    Pointer code = ops.getRuntime().getClosureManager().getClosurePointer(Read.class, read);
    ops.read.getMemory().putPointer(ops.read.offset(), code);
  }
}
