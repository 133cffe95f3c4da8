package org.modelfs.fuse.fuse3;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.modelfs.ModelFileSystems;

/**
 * Mounts a model read-only through the FUSE 3 prototype and serves it until the kernel unmounts
 * it ({@code umount DIR}, {@code fusermount -u DIR}) or the JVM is told to stop (SIGTERM, Ctrl-C).
 *
 * <pre>
 * java -cp … org.modelfs.fuse.fuse3.Fuse3Main [--single] [--read-buf] MODEL DIR
 * </pre>
 *
 * {@code --single}: libfuse's single-threaded loop instead of the multi-threaded one;
 * {@code --read-buf}: reads answered by read_buf with the container's descriptor ({@link ModelFs3Splice});
 * {@code --acl-cache}: asks FUSE_CAP_POSIX_ACL, so the kernel caches each file's "no ACL";
 * {@code --no-xattrs}: getxattr answers ENOSYS, which the kernel remembers (a floor for ls -l);
 * {@code --enotsup}: getxattr of a name outside user.* answers EOPNOTSUPP, not ENODATA;
 * {@code --readahead-kb N}: the mount's readahead window (sysfs), so requests can reach max_pages.
 * Prints libfuse's negotiated connection at mount and the read requests served at the end.
 */
public final class Fuse3Main {
  private Fuse3Main() {}

  public static void main(String[] args) throws Exception {
    boolean single = false;
    boolean readBuf = false;
    boolean aclCache = false;
    boolean noXattrs = false;
    boolean notSupported = false;
    int readaheadKb = 0;
    int i = 0;
    for (; i < args.length && args[i].startsWith("--"); i++) {
      switch (args[i]) {
        case "--single" -> single = true;
        case "--read-buf" -> readBuf = true;
        case "--acl-cache" -> aclCache = true;
        case "--no-xattrs" -> noXattrs = true;
        case "--enotsup" -> notSupported = true;
        case "--readahead-kb" -> readaheadKb = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (args.length - i != 2) {
      System.err.println("usage: Fuse3Main [--single] [--read-buf] [--acl-cache] [--no-xattrs] [--enotsup] [--readahead-kb N] MODEL DIR");
      System.exit(2);
    }
    Path model = Path.of(args[i]);
    Path dir = Path.of(args[i + 1]);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      ModelFs3 served = readBuf ? new ModelFs3Splice(fs, model, System.err) : new ModelFs3(fs, model, System.err);
      served.noXattrs = noXattrs;
      served.notSupported = notSupported;
      if (aclCache) {
        served.extraWant = Fuse3Layout.CAP_POSIX_ACL;
      }
      Fuse3Mount mount = new Fuse3Mount(dir);
      mount.mount(served, "ro,fsname=modelfs,subtype=modelfs3", !single);
      if (readaheadKb > 0) {
        readahead(dir, readaheadKb);
      }
      Thread hook = new Thread(() -> {
        try {
          mount.unmount();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "fuse3-unmount");
      Runtime.getRuntime().addShutdownHook(hook);
      System.err.println("fuse3 mounted " + model + " at " + dir + (single ? " (single-threaded)" : "")
          + (readBuf ? " (read_buf)" : ""));
      int r = mount.await();
      System.err.printf("fuse3 unmounted %s (loop %d): %d read requests, %d bytes, largest %d bytes%n", dir, r,
          served.reads.get(), served.bytes.get(), served.largest.get());
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down: the hook unmounted
      }
    }
  }

  /**
   * Sets the mount's readahead (its backing device's {@code read_ahead_kb} in sysfs): the kernel
   * offers FUSE 128 KiB at INIT and a file system cannot ask for more there, but max_pages (1 MiB
   * requests with libfuse 3) only pays when the readahead window is that large.
   */
  private static void readahead(Path dir, int kb) throws IOException {
    long dev = ((Number) Files.getAttribute(dir, "unix:dev")).longValue();
    long major = (dev >>> 8) & 0xfff;
    long minor = (dev & 0xff) | ((dev >>> 12) & 0xfff00);
    Path ra = Path.of("/sys/class/bdi/" + major + ":" + minor + "/read_ahead_kb");
    Files.writeString(ra, kb + "\n");
    System.err.println("fuse3 readahead: " + ra + " = " + Files.readString(ra).trim() + " KiB");
  }
}
