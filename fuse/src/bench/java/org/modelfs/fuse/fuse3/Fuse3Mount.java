package org.modelfs.fuse.fuse3;

import static org.modelfs.fuse.fuse3.Fuse3Layout.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.provider.ClosureManager;

/**
 * One FUSE 3 mount through libfuse's high-level API: {@code struct fuse_operations} (3.14's
 * layout, {@link Fuse3Layout}) filled with jnr-ffi closures of a {@link Fuse3Fs}, then {@code
 * fuse_new} → {@code fuse_mount} → {@code fuse_loop_mt} (or {@code fuse_loop}) on a thread of its
 * own → {@code fuse_unmount} → {@code fuse_destroy} when the loop ends (the kernel unmounted: {@code
 * umount}, {@code fusermount -u}, or {@link #unmount} here). Root only: without {@code fusermount3}
 * (Debian {@code fuse3}, which replaces FUSE 2's {@code fuse} package) a user cannot mount.
 */
final class Fuse3Mount {
  private final Fuse3Lib.Lib lib = Fuse3Lib.load();
  private final Runtime runtime = Runtime.getSystemRuntime();
  /** Native memory and closures libfuse points at: kept reachable for the mount's life. */
  private final List<Object> keep = new ArrayList<>();
  private final Path dir;
  private Pointer fuse;
  private Thread loop;
  private volatile int loopResult;

  Fuse3Mount(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
  }

  /** Mounts {@code fs} with {@code -o options}; returns once the kernel has the mount. */
  void mount(Fuse3Fs fs, String options, boolean multiThreaded) throws IOException {
    String version = lib.fuse_pkgversion();
    if (!version.startsWith("3.")) {
      throw new IOException("libfuse3.so.3 says it is version " + version + ", not 3.x");
    }
    System.err.println("fuse3 libfuse " + version);
    Pointer ops = Memory.allocateDirect(runtime, OPS_SIZE, true);
    keep.add(ops);
    put(ops, OP_GETATTR, Fuse3Lib.Getattr.class, fs::getattr);
    put(ops, OP_OPEN, Fuse3Lib.PathFi.class, fs::open);
    put(ops, OP_RELEASE, Fuse3Lib.PathFi.class, fs::release);
    if (fs.readBuf()) {
      put(ops, OP_READ_BUF, Fuse3Lib.ReadBuf.class, fs::readBuf);
    } else {
      put(ops, OP_READ, Fuse3Lib.Read.class, fs::read);
    }
    put(ops, OP_STATFS, Fuse3Lib.Statfs.class, fs::statfs);
    put(ops, OP_GETXATTR, Fuse3Lib.Getxattr.class, fs::getxattr);
    put(ops, OP_LISTXATTR, Fuse3Lib.Listxattr.class, fs::listxattr);
    put(ops, OP_OPENDIR, Fuse3Lib.PathFi.class, fs::opendir);
    put(ops, OP_READDIR, Fuse3Lib.Readdir.class, fs::readdir);
    put(ops, OP_INIT, Fuse3Lib.Init.class, fs::init);
    fuse = lib.fuse_new_31(args("modelfs3", "-o", options), ops, OPS_SIZE, null);
    if (fuse == null) {
      throw new IOException("fuse_new refused the options " + options + " (libfuse3 printed why on stderr)");
    }
    if (lib.fuse_mount(fuse, dir.toString()) != 0) {
      lib.fuse_destroy(fuse);
      throw new IOException("fuse_mount of " + dir + " failed (root? /dev/fuse? already a mount point?)");
    }
    loop = new Thread(() -> {
      loopResult = multiThreaded ? lib.fuse_loop_mt_31(fuse, 0) : lib.fuse_loop(fuse);
      lib.fuse_unmount(fuse);
      lib.fuse_destroy(fuse);
    }, "fuse3-loop");
    loop.start();
  }

  /** Waits for the loop to end (the kernel's unmount); its result, 0 when it ended normally. */
  int await() throws InterruptedException {
    loop.join();
    return loopResult;
  }

  /** Ends the mount from this process (umount2: the loop sees the connection end) and waits for it. */
  void unmount() throws InterruptedException {
    if (loop != null && loop.isAlive()) {
      Fuse3Lib.libc().umount2(dir.toString(), 0);
      loop.join();
    }
  }

  private <T> void put(Pointer ops, int offset, Class<T> type, T callback) {
    ClosureManager closures = runtime.getClosureManager();
    keep.add(callback);
    ops.putPointer(offset, closures.getClosurePointer(type, callback));
  }

  /** A {@code struct fuse_args} of NUL-terminated strings, not allocated by libfuse. */
  private Pointer args(String... argv) {
    Pointer array = Memory.allocateDirect(runtime, 8L * (argv.length + 1), true);
    for (int i = 0; i < argv.length; i++) {
      byte[] b = argv[i].getBytes(StandardCharsets.UTF_8);
      Pointer s = Memory.allocateDirect(runtime, b.length + 1, true);
      s.put(0, b, 0, b.length);
      keep.add(s);
      array.putPointer(8L * i, s);
    }
    Pointer args = Memory.allocateDirect(runtime, ARGS_SIZE, true);
    args.putInt(0, argv.length);
    args.putPointer(8, array);
    keep.add(array);
    keep.add(args);
    return args;
  }
}
