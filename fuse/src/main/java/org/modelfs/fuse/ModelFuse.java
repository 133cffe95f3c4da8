package org.modelfs.fuse;

import com.kenai.jffi.MemoryIO;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Statvfs;

/**
 * The mounted model under the kernel (docs/MOUNT.md): each FUSE call answered from the model's
 * NIO file system. Reads are positional reads on the model's own channels straight into the
 * kernel's buffer; every write goes through {@link Writes}, which holds the bytes until the file
 * is closed and then installs them as one NIO write. Errors become errnos ({@link Errno}) and are
 * logged with their message.
 */
final class ModelFuse extends FuseStubFS {
  private final FileSystem fs;
  private final boolean readOnly;
  private final Writes writes;
  private final MountLog log;
  private final Map<Long, Object> handles = new ConcurrentHashMap<>();
  private final AtomicLong nextHandle = new AtomicLong(1);
  private final Stats stats;
  /** "/tags/T" when only tag T is mounted (--tag T), else null. */
  private final String tagRoot;

  ModelFuse(FileSystem fs, Path model, String tag, boolean readOnly, Writes writes, MountLog log) throws IOException {
    this.tagRoot = tag == null ? null : "/tags/" + tag;
    this.fs = fs;
    this.readOnly = readOnly;
    this.writes = writes;
    this.log = log;
    this.stats = new Stats(model, readOnly);
  }

  Path path(String p) {
    return fs.getPath(p);
  }

  /** The model's path of a path in the mount: itself, or below the mounted tag's directory (--tag). */
  private String m(String fp) {
    return tagRoot == null ? fp : fp.equals("/") ? tagRoot : tagRoot + fp;
  }

  private int fail(String op, String p, Throwable e) {
    int errno = Errno.of(e);
    if (!(e instanceof NoSuchFileException) && !(e instanceof UnsupportedOperationException)) {
      log.error(op + " " + p, e);
    }
    return errno;
  }

  @Override
  public Pointer init(Pointer conn) {
    // fuse_conn_info (libfuse 2.9): capable at byte 20, want at 24. FUSE_CAP_ATOMIC_O_TRUNC: an
    // open(O_TRUNC) arrives as one open with the flag instead of truncate(0) then open, so a
    // file's bytes are replaced once, at close (graph.json is never seen empty)
    if (conn != null && (conn.getInt(20) & (1 << 3)) != 0) {
      conn.putInt(24, conn.getInt(24) | (1 << 3));
    }
    return null;
  }

  @Override
  public int getattr(String fp, FileStat st) {
    String p = m(fp);
    try {
      Staged s = writes.staged(p);
      long stagedSize = s == null ? -1 : s.size();
      if (stagedSize >= 0) {
        stats.file(st, stagedSize, System.currentTimeMillis());
        return 0;
      }
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(path(p), BasicFileAttributes.class);
      } catch (NoSuchFileException e) {
        if (ModelNames.isArea(p) && Files.isDirectory(path(ModelNames.parent(p)))) {
          stats.dir(st, System.currentTimeMillis());
          return 0;
        }
        throw e;
      }
      if (a.isDirectory()) {
        stats.dir(st, a.lastModifiedTime().toMillis());
      } else {
        stats.file(st, a.size(), a.lastModifiedTime().toMillis());
      }
      return 0;
    } catch (Exception e) {
      return fail("stat", p, e);
    }
  }

  @Override
  public int readdir(String fp, Pointer buf, FuseFillDir filter, long offset, FuseFileInfo fi) {
    String p = m(fp);
    try {
      Set<String> names = new LinkedHashSet<>();
      Path dir = path(p);
      if (Files.isDirectory(dir)) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
          for (Path e : ds) {
            names.add(e.getFileName().toString());
          }
        }
      } else if (!ModelNames.isArea(p)) {
        return -ErrorCodes.ENOENT();
      }
      if (p.startsWith("/tags/") && p.indexOf('/', 6) < 0) {
        names.addAll(ModelNames.AREAS);
      }
      names.addAll(writes.stagedIn(p));
      filter.apply(buf, ".", null, 0);
      filter.apply(buf, "..", null, 0);
      for (String n : names) {
        if (filter.apply(buf, n, null, 0) != 0) {
          break;
        }
      }
      return 0;
    } catch (Exception e) {
      return fail("readdir", p, e);
    }
  }

  @Override
  public int open(String fp, FuseFileInfo fi) {
    String p = m(fp);
    int flags = fi.flags.get();
    boolean write = (flags & 3) != 0;
    try {
      Object h;
      if (write) {
        if (readOnly) {
          return -ErrorCodes.EROFS();
        }
        h = writes.open(p, (flags & 01000) != 0);
      } else {
        Staged s = writes.staged(p);
        h = s != null ? writes.open(p, false) : Files.newByteChannel(path(p));
      }
      long id = nextHandle.getAndIncrement();
      handles.put(id, h);
      fi.fh.set(id);
      return 0;
    } catch (Exception e) {
      return fail("open", p, e);
    }
  }

  @Override
  public int create(String fp, long mode, FuseFileInfo fi) {
    String p = m(fp);
    if (readOnly) {
      return -ErrorCodes.EROFS();
    }
    try {
      Writes.Handle h = writes.create(p);
      long id = nextHandle.getAndIncrement();
      handles.put(id, h);
      fi.fh.set(id);
      return 0;
    } catch (Exception e) {
      return fail("create", p, e);
    }
  }

  @Override
  public int read(String fp, Pointer buf, long size, long offset, FuseFileInfo fi) {
    String p = m(fp);
    Object h = handles.get(fi.fh.get());
    if (h == null) {
      return -ErrorCodes.EBADF();
    }
    try {
      ByteBuffer dst = MemoryIO.getInstance().newDirectByteBuffer(buf.address(), (int) size);
      if (h instanceof Writes.Handle w) {
        return readFully(w.staged.channel, dst, offset);
      }
      SeekableByteChannel ch = (SeekableByteChannel) h;
      if (ch instanceof FileChannel fc) {
        return readFully(fc, dst, offset);
      }
      synchronized (ch) {
        ch.position(offset);
        int n = 0;
        while (dst.hasRemaining()) {
          int r = ch.read(dst);
          if (r < 0) {
            break;
          }
          n += r;
        }
        return n;
      }
    } catch (Exception e) {
      return fail("read", p, e);
    }
  }

  private static int readFully(FileChannel ch, ByteBuffer dst, long offset) throws IOException {
    int n = 0;
    while (dst.hasRemaining()) {
      int r = ch.read(dst, offset + n);
      if (r < 0) {
        break;
      }
      n += r;
    }
    return n;
  }

  @Override
  public int write(String fp, Pointer buf, long size, long offset, FuseFileInfo fi) {
    String p = m(fp);
    Object h = handles.get(fi.fh.get());
    if (!(h instanceof Writes.Handle w)) {
      return -ErrorCodes.EBADF();
    }
    try {
      ByteBuffer src = MemoryIO.getInstance().newDirectByteBuffer(buf.address(), (int) size);
      w.write(src, offset);
      return (int) size;
    } catch (Exception e) {
      return fail("write", p, e);
    }
  }

  @Override
  public int flush(String fp, FuseFileInfo fi) {
    String p = m(fp);
    Object h = handles.get(fi.fh.get());
    if (h instanceof Writes.Handle w) {
      try {
        writes.flush(p, w);
      } catch (Exception e) {
        return fail("close", p, e);
      }
    }
    return 0;
  }

  @Override
  public int release(String fp, FuseFileInfo fi) {
    String p = m(fp);
    Object h = handles.remove(fi.fh.get());
    try {
      if (h instanceof Writes.Handle w) {
        writes.release(p, w);
      } else if (h instanceof SeekableByteChannel ch) {
        ch.close();
      }
      return 0;
    } catch (Exception e) {
      return fail("release", p, e);
    }
  }

  @Override
  public int fsync(String p, int isdatasync, FuseFileInfo fi) {
    return 0;
  }

  @Override
  public int truncate(String fp, long size) {
    String p = m(fp);
    if (readOnly) {
      return -ErrorCodes.EROFS();
    }
    try {
      writes.truncate(p, size, null);
      return 0;
    } catch (Exception e) {
      return fail("truncate", p, e);
    }
  }

  @Override
  public int ftruncate(String fp, long size, FuseFileInfo fi) {
    String p = m(fp);
    Object h = handles.get(fi.fh.get());
    if (!(h instanceof Writes.Handle w)) {
      return readOnly ? -ErrorCodes.EROFS() : -ErrorCodes.EBADF();
    }
    try {
      writes.truncate(p, size, w);
      return 0;
    } catch (Exception e) {
      return fail("truncate", p, e);
    }
  }

  @Override
  public int unlink(String fp) {
    String p = m(fp);
    return readOnly ? -ErrorCodes.EROFS() : run("rm", p, () -> writes.unlink(p));
  }

  @Override
  public int rmdir(String fp) {
    String p = m(fp);
    return readOnly ? -ErrorCodes.EROFS() : run("rmdir", p, () -> writes.rmdir(p));
  }

  @Override
  public int mkdir(String fp, long mode) {
    String p = m(fp);
    return readOnly ? -ErrorCodes.EROFS() : run("mkdir", p, () -> writes.mkdir(p));
  }

  @Override
  public int rename(String fromPath, String toPath) {
    String from = m(fromPath);
    String to = m(toPath);
    return readOnly ? -ErrorCodes.EROFS() : run("rename", from + " -> " + to, () -> writes.rename(from, to));
  }

  @Override
  public int link(String fromPath, String toPath) {
    String from = m(fromPath);
    String to = m(toPath);
    return readOnly ? -ErrorCodes.EROFS() : run("link", to, () -> Files.createLink(path(to), path(from)));
  }

  interface Action {
    void run() throws Exception;
  }

  private int run(String op, String p, Action a) {
    try {
      a.run();
      return 0;
    } catch (Exception e) {
      return fail(op, p, e);
    }
  }

  @Override
  public int chmod(String p, long mode) {
    return readOnly ? -ErrorCodes.EROFS() : 0;
  }

  @Override
  public int chown(String p, long uid, long gid) {
    return readOnly ? -ErrorCodes.EROFS() : 0;
  }

  @Override
  public int utimens(String p, ru.serce.jnrfuse.struct.Timespec[] timespec) {
    return readOnly ? -ErrorCodes.EROFS() : 0;
  }

  @Override
  public int access(String p, int mask) {
    return 0;
  }

  @Override
  public int statfs(String p, Statvfs st) {
    stats.statfs(st);
    return 0;
  }

  @Override
  public int getxattr(String fp, String name, Pointer value, long size) {
    String p = m(fp);
    try {
      String v = fp.equals("/") && name.equals(Control.PID) ? String.valueOf(ProcessHandle.current().pid())
          : writes.getxattr(p, name);
      if (v == null) {
        return -ErrorCodes.ENODATA();
      }
      return answer(v.getBytes(java.nio.charset.StandardCharsets.UTF_8), value, size);
    } catch (Exception e) {
      return fail("getxattr " + name, p, e);
    }
  }

  @Override
  public int listxattr(String fp, Pointer list, long size) {
    String p = m(fp);
    try {
      return answer(Xattrs.list(writes.xattrNames(p)), list, size);
    } catch (Exception e) {
      return fail("listxattr", p, e);
    }
  }

  private static int answer(byte[] b, Pointer out, long size) {
    if (size == 0) {
      return b.length;
    }
    if (size < b.length) {
      return -ErrorCodes.ERANGE();
    }
    out.put(0, b, 0, b.length);
    return b.length;
  }

  @Override
  public int setxattr(String fp, String name, Pointer value, long size, int flags) {
    String p = m(fp);
    if (readOnly) {
      return -ErrorCodes.EROFS();
    }
    byte[] raw = new byte[(int) size];
    value.get(0, raw, 0, raw.length);
    try {
      if (fp.equals("/") && name.equals(Control.COMMIT)) {
        writes.commit();
        return 0;
      }
      writes.setxattr(p, name, Xattrs.value(raw));
      return 0;
    } catch (Exception e) {
      return fail("setxattr " + name, p, e);
    }
  }

  @Override
  public int removexattr(String p, String name) {
    return -ErrorCodes.EOPNOTSUPP();
  }

  @Override
  public int symlink(String oldpath, String newpath) {
    return -ErrorCodes.EPERM();
  }
}
