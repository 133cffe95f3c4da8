package org.modelfs.fuse;

import java.util.concurrent.atomic.AtomicInteger;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;
import jnr.ffi.types.size_t;
import ru.serce.jnrfuse.FuseException;
import ru.serce.jnrfuse.struct.FuseOperations;

/**
 * libfuse's request loop run on JVM threads (docs/MOUNT.md "Threads"). libfuse 2's own
 * multithreaded loop ({@code fuse_main}) serves each request on a thread it made itself, and jnr's
 * callback attaches that thread to the JVM on entry and detaches it on return: every request paid
 * for a new {@code java.lang.Thread} (its object, stack guard pages, the JVM's thread list twice),
 * about half of a 128 KiB read's cost, and more in a JVM that has not compiled that code yet.
 * Here the same library calls libfuse's loop makes — receive one request from the channel, process
 * it — run on threads the JVM made, which stay attached: a callback is a plain call.
 *
 * <p>Threads are added as libfuse adds them: when a request arrives and no other thread is waiting
 * for one, one more starts (so a slow request — a store's read — never holds up the next), up to
 * {@link #MAX_THREADS}; a thread that finds {@link #MAX_IDLE} others waiting ends. Every thread
 * ends when the kernel ends the session (unmounted: the channel answers ENODEV); then the mount is
 * torn down as {@code fuse_main} does.
 */
final class RequestLoop {
  /** As libfuse 2's loop: idle threads beyond this many end. */
  static final int MAX_IDLE = 10;
  /** Requests served at once at most (libfuse 2 has no bound; a mount's resources stay bounded). */
  static final int MAX_THREADS = 64;
  private static final int EINTR = 4;

  /** The libfuse 2 calls of {@code fuse_main} and its loop, each as libfuse.so.2 exports it. */
  public interface Lib {
    Pointer fuse_setup(int argc, String[] argv, FuseOperations op, @size_t long opSize, Pointer mountpoint,
        Pointer multithreaded, Pointer userData);

    void fuse_teardown(Pointer fuse, Pointer mountpoint);

    Pointer fuse_get_session(Pointer fuse);

    Pointer fuse_session_next_chan(Pointer se, Pointer ch);

    @size_t long fuse_chan_bufsize(Pointer ch);

    int fuse_chan_recv(Pointer chp, Pointer buf, @size_t long size);

    void fuse_session_process(Pointer se, Pointer buf, @size_t long len, Pointer ch);

    int fuse_session_exited(Pointer se);
  }

  private final Lib lib;
  private final Runtime runtime;
  private final Pointer se;
  private final Pointer ch;
  private final long bufsize;
  private final AtomicInteger idle = new AtomicInteger();
  private final AtomicInteger threads = new AtomicInteger();
  private final AtomicInteger started = new AtomicInteger();

  private RequestLoop(Lib lib, Runtime runtime, Pointer fuse) {
    this.lib = lib;
    this.runtime = runtime;
    this.se = lib.fuse_get_session(fuse);
    this.ch = lib.fuse_session_next_chan(se, null);
    this.bufsize = lib.fuse_chan_bufsize(ch);
  }

  /**
   * Mounts with {@code args} ({@code fuse_main}'s command line: name, {@code -f}, options, mount
   * point), serves requests until the kernel ends the session, then tears the mount down.
   *
   * @throws FuseException when libfuse cannot mount (its reason is on standard error, as
   *     {@code fuse_main}'s)
   */
  static void run(String[] args, FuseOperations ops) {
    Lib lib = LibraryLoader.create(Lib.class).failImmediately().load("fuse");
    Runtime runtime = Runtime.getRuntime(lib);
    Pointer mountpoint = Memory.allocateDirect(runtime, runtime.addressSize(), true);
    Pointer multithreaded = Memory.allocateDirect(runtime, 4, true);
    Pointer fuse = lib.fuse_setup(args.length, args, ops, Struct.size(ops), mountpoint, multithreaded, null);
    if (fuse == null) {
      throw new FuseException("Unable to mount FS: libfuse's fuse_setup failed");
    }
    try {
      new RequestLoop(lib, runtime, fuse).serve();
    } finally {
      lib.fuse_teardown(fuse, mountpoint.getPointer(0));
    }
  }

  /** Serves on this thread and the ones it adds, until every one has ended. */
  private void serve() {
    threads.incrementAndGet();
    work(true);
    synchronized (this) {
      while (threads.get() > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** One more thread, unless {@link #MAX_THREADS} serve already. */
  private void add() {
    int n;
    do {
      n = threads.get();
      if (n >= MAX_THREADS) {
        return;
      }
    } while (!threads.compareAndSet(n, n + 1));
    Thread t = new Thread(() -> work(false), "modelfs-fuse-" + started.incrementAndGet());
    t.setDaemon(true);
    t.start();
  }

  /** One thread's loop: the first serves until the session ends, the others also end when idle. */
  private void work(boolean first) {
    try {
      Pointer buf = Memory.allocateDirect(runtime, (int) bufsize);
      Pointer chp = Memory.allocateDirect(runtime, runtime.addressSize());
      idle.incrementAndGet();
      while (lib.fuse_session_exited(se) == 0) {
        chp.putPointer(0, ch);
        int n = lib.fuse_chan_recv(chp, buf, bufsize);
        if (n == -EINTR) {
          continue;
        }
        if (n <= 0) {
          break; // 0: the session ended (unmounted); < 0: the channel failed, said by libfuse
        }
        if (idle.decrementAndGet() == 0) {
          add();
        }
        lib.fuse_session_process(se, buf, n, chp.getPointer(0));
        if (idle.incrementAndGet() > MAX_IDLE && !first) {
          idle.decrementAndGet();
          return;
        }
      }
      idle.decrementAndGet();
    } finally {
      if (threads.decrementAndGet() == 0) {
        synchronized (this) {
          notifyAll();
        }
      }
    }
  }
}
