package org.modelfs.fuse.fuse3;

import static org.modelfs.fuse.fuse3.Fuse3Layout.*;

import com.kenai.jffi.MemoryIO;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import jnr.ffi.Pointer;
import org.modelfs.SamediffFileAttributeView;
import org.modelfs.SamediffFileAttributes;

/**
 * A read-only ModelFS mount through FUSE 3 (the prototype): {@code ModelFileSystems.open(model,
 * readOnly)} served by {@code Files.*} calls — stat and listings from {@link Listings3}, each
 * open file the model's own channel read positionally straight into libfuse's buffer, the
 * {@code samediff} view as {@code user.samediff.*} extended attributes. {@link #init} asks for
 * the kernel's page cache ({@code kernel_cache}), one-hour timeouts, and READDIRPLUS.
 */
class ModelFs3 implements Fuse3Fs {
  private static final MemoryIO MEM = MemoryIO.getInstance();
  private static final int O_ACCMODE = 3;
  final FileSystem fs;
  private final Path model;
  private final Listings3 listings;
  private final PrintStream log;
  private final Map<Long, SeekableByteChannel> open = new ConcurrentHashMap<>();
  private final AtomicLong nextHandle = new AtomicLong(1);
  final AtomicLong reads = new AtomicLong();
  final AtomicLong bytes = new AtomicLong();
  final LongAccumulator largest = new LongAccumulator(Math::max, 0);
  /** Capabilities asked beyond READDIRPLUS (e.g. FUSE_CAP_POSIX_ACL: the kernel caches ACL answers). */
  volatile int extraWant;
  /** Answer every getxattr ENOSYS, so the kernel stops asking (and user.samediff.* is gone): a floor for ls -l. */
  volatile boolean noXattrs;
  /** Answer getxattr of names outside user.* EOPNOTSUPP instead of ENODATA. */
  volatile boolean notSupported;

  ModelFs3(FileSystem fs, Path model, PrintStream log) throws IOException {
    this.fs = fs;
    this.model = model;
    this.listings = new Listings3(fs);
    this.log = log;
  }

  @Override
  public Pointer init(Pointer conn, Pointer cfg) {
    cfg.putInt(CFG_KERNEL_CACHE, 1);
    cfg.putDouble(CFG_ENTRY_TIMEOUT, 3600);
    cfg.putDouble(CFG_ATTR_TIMEOUT, 3600);
    cfg.putDouble(CFG_NEGATIVE_TIMEOUT, 3600);
    int capable = conn.getInt(CONN_CAPABLE);
    conn.putInt(CONN_WANT, conn.getInt(CONN_WANT) | (capable & (CAP_READDIRPLUS | wantSplice() | extraWant)));
    log.printf("fuse3 init: protocol 7.%d, max_write %d, max_read %d, max_readahead %d, capable %#x, want %#x%n",
        conn.getInt(CONN_PROTO_MINOR), conn.getInt(CONN_MAX_WRITE), conn.getInt(CONN_MAX_READ),
        conn.getInt(CONN_MAX_READAHEAD), capable, conn.getInt(CONN_WANT));
    return null;
  }

  /** The splice capabilities a read_buf variant asks for; none here. */
  int wantSplice() {
    return 0;
  }

  @Override
  public int getattr(String path, Pointer stat, Pointer fi) {
    try {
      Listings3.Attr a = listings.attr(path);
      if (a == null) {
        return -Errno.ENOENT;
      }
      listings.stat(stat.address(), a);
      return 0;
    } catch (IOException | RuntimeException e) {
      return failed("stat", path, e);
    }
  }

  @Override
  public int opendir(String path, Pointer fi) {
    // the tree cannot change: the kernel may keep each directory's entries (FUSE 3's cache_readdir)
    fi.putInt(FI_BITS, fi.getInt(FI_BITS) | FI_KEEP_CACHE | FI_CACHE_READDIR);
    return 0;
  }

  @Override
  public int readdir(String path, Pointer buf, Pointer filler, long offset, Pointer fi, int flags) {
    try {
      return listings.fill(path, buf.address(), filler.address()) ? 0 : -Errno.ENOTDIR;
    } catch (IOException | RuntimeException e) {
      return failed("readdir", path, e);
    }
  }

  @Override
  public int open(String path, Pointer fi) {
    if ((fi.getInt(FI_FLAGS) & O_ACCMODE) != 0) {
      return -Errno.EROFS;
    }
    try {
      long id = nextHandle.getAndIncrement();
      open.put(id, opened(path));
      fi.putLong(FI_FH, id);
      fi.putInt(FI_BITS, fi.getInt(FI_BITS) | FI_KEEP_CACHE);
      return 0;
    } catch (IOException | RuntimeException e) {
      return failed("open", path, e);
    }
  }

  /** The channel an open file reads; a read_buf variant may open more. */
  SeekableByteChannel opened(String path) throws IOException {
    return Files.newByteChannel(fs.getPath(path));
  }

  SeekableByteChannel channel(Pointer fi) {
    return open.get(fi.getLong(FI_FH));
  }

  void counted(long size) {
    reads.incrementAndGet();
    bytes.addAndGet(size);
    largest.accumulate(size);
  }

  @Override
  public int read(String path, Pointer buf, long size, long offset, Pointer fi) {
    SeekableByteChannel ch = channel(fi);
    if (ch == null) {
      return -Errno.EBADF;
    }
    counted(size);
    ByteBuffer dst = MEM.newDirectByteBuffer(buf.address(), (int) size);
    try {
      int n = 0;
      if (ch instanceof FileChannel fc) {
        for (int r; dst.hasRemaining() && (r = fc.read(dst, offset + n)) >= 0; ) {
          n += r;
        }
        return n;
      }
      synchronized (ch) {
        ch.position(offset);
        for (int r; dst.hasRemaining() && (r = ch.read(dst)) >= 0; ) {
          n += r;
        }
      }
      return n;
    } catch (IOException | RuntimeException e) {
      return failed("read", path, e);
    }
  }

  @Override
  public int release(String path, Pointer fi) {
    SeekableByteChannel ch = open.remove(fi.getLong(FI_FH));
    try {
      if (ch != null) {
        ch.close();
      }
      return 0;
    } catch (IOException e) {
      return failed("release", path, e);
    }
  }

  @Override
  public int statfs(String path, Pointer st) {
    long bs = 4096;
    st.putLong(F_BSIZE, bs);
    st.putLong(F_FRSIZE, bs);
    st.putLong(F_NAMEMAX, 255);
    try {
      FileStore store = Files.getFileStore(model.toAbsolutePath().getParent());
      st.putLong(F_BLOCKS, store.getTotalSpace() / bs);
    } catch (IOException e) {
      // no device to size: df shows 0 of 0
    }
    return 0;
  }

  @Override
  public int getxattr(String path, String name, Pointer value, long size) {
    if (noXattrs) {
      return -Errno.ENOSYS;
    }
    if (!name.startsWith("user.")) {
      // ls -l's security.selinux and system.posix_acl_access: no lookup. "Not supported" (what
      // the product answers too) makes ls stop asking for the rest of the mount (coreutils keeps
      // the answer per device); ENODATA ("none on this file") makes it ask for every file.
      return notSupported ? -Errno.EOPNOTSUPP : -Errno.ENODATA;
    }
    try {
      String v = xattrs(path).get(name);
      return v == null ? -Errno.ENODATA : answer(v.getBytes(StandardCharsets.UTF_8), value, size);
    } catch (IOException | RuntimeException e) {
      return failed("getxattr", path, e);
    }
  }

  @Override
  public int listxattr(String path, Pointer list, long size) {
    try {
      StringBuilder sb = new StringBuilder();
      xattrs(path).keySet().forEach(n -> sb.append(n).append('\0'));
      return answer(sb.toString().getBytes(StandardCharsets.UTF_8), list, size);
    } catch (IOException | RuntimeException e) {
      return failed("listxattr", path, e);
    }
  }

  /** getxattr(2)'s protocol: the length when size is 0, ERANGE when it does not fit. */
  private static int answer(byte[] b, Pointer to, long size) {
    if (size == 0) {
      return b.length;
    }
    if (size < b.length) {
      return -Errno.ERANGE;
    }
    to.put(0, b, 0, b.length);
    return b.length;
  }

  private Map<String, String> xattrs(String path) throws IOException {
    SamediffFileAttributes a = Files.getFileAttributeView(fs.getPath(path), SamediffFileAttributeView.class).readAttributes();
    Map<String, String> m = new LinkedHashMap<>();
    long[] shape = a.shape();
    String[][] kv = {{"dtype", a.dtype()}, {"shape", shape == null ? null : Arrays.toString(shape)}, {"order", a.order()},
        {"kind", a.kind()}, {"byteOrder", a.byteOrder()}, {"stored", a.stored()}, {"tag", a.tag()}};
    for (String[] e : kv) {
      if (e[1] != null) {
        m.put("user.samediff." + e[0], e[1]);
      }
    }
    return m;
  }

  int failed(String op, String path, Exception e) {
    log.println("fuse3 " + op + " " + path + ": " + e);
    return e instanceof java.nio.file.NoSuchFileException ? -Errno.ENOENT : -Errno.EIO;
  }
}
