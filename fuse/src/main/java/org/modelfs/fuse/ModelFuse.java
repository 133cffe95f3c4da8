package org.modelfs.fuse;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.Pointer;
import jnr.ffi.Struct;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseException;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Timespec;

/**
 * The mounted model under the kernel (docs/MOUNT.md): the reading calls of {@link FuseReads} and
 * the calls that change the model — every one through {@link Calls#change} ({@code EROFS} on a
 * read-only mount) to {@link Writes}, which stages a file's bytes until close and then installs
 * them as one NIO write.
 */
final class ModelFuse extends FuseReads {
  ModelFuse(FileSystem fs, Path model, String tag, boolean readOnly, Writes writes, MountLog log) throws IOException {
    super(fs, model, tag, readOnly, writes, log);
    // flag_nullpath_ok (struct fuse_operations of libfuse 2.9: bit 0 of the unsigned int after
    // bmap; jnr-fuse declares it as padding): a file removed while open (hard_remove, Session)
    // keeps being read and written through its handle, with a null path, as on POSIX; without it
    // libfuse answers its reads and writes ENOENT
    Pointer ops = Struct.getMemory(fuseOperations);
    long flags = fuseOperations.bmap.offset() + ops.getRuntime().addressSize();
    ops.putInt(flags, ops.getInt(flags) | 1);
  }

  /**
   * Mounts at {@code dir} and serves until unmounted, as jnr-fuse's own {@code mount} with
   * {@code blocking} does, but on JVM threads ({@link RequestLoop}). Only the blocking form is
   * used ({@link Session}); {@link #umount} is jnr-fuse's.
   */
  @Override
  public void mount(Path dir, boolean blocking, boolean debug, String[] options) {
    if (!blocking) {
      throw new UnsupportedOperationException("a mount runs in the calling thread");
    }
    if (!mounted.compareAndSet(false, true)) {
      throw new FuseException("already mounted at " + mountPoint);
    }
    mountPoint = dir;
    List<String> args = new ArrayList<>(List.of(getFSName(), "-f"));
    if (debug) {
      args.add("-d");
    }
    args.add(dir.toAbsolutePath().toString());
    args.addAll(List.of(options));
    try {
      RequestLoop.run(args.toArray(String[]::new), fuseOperations);
    } catch (RuntimeException e) {
      mounted.set(false);
      throw e;
    }
  }

  @Override
  public int create(String fp, long mode, FuseFileInfo fi) {
    return calls.readOnly() ? -ErrorCodes.EROFS() : on("create", fp, p -> files.create(p, fi));
  }

  @Override
  public int write(String fp, Pointer buf, long size, long offset, FuseFileInfo fi) {
    return on("write", fp, p -> files.write(buf, size, offset, fi));
  }

  @Override
  public int flush(String fp, FuseFileInfo fi) {
    return on("close", fp, p -> files.flush(p, fi));
  }

  @Override
  public int truncate(String fp, long size) {
    return change("truncate", fp, p -> writes.truncate(p, size, null));
  }

  @Override
  public int ftruncate(String fp, long size, FuseFileInfo fi) {
    return on("truncate", fp, p -> files.ftruncate(p, size, fi, calls.readOnly()));
  }

  @Override
  public int fallocate(String fp, int mode, long off, long length, FuseFileInfo fi) {
    return change("fallocate", fp, p -> writes.allocate(p, mode, off + length));
  }

  @Override
  public int unlink(String fp) {
    return change("rm", fp, p -> writes.unlink(p));
  }

  @Override
  public int rmdir(String fp) {
    return change("rmdir", fp, p -> writes.rmdir(p));
  }

  @Override
  public int mkdir(String fp, long mode) {
    return change("mkdir", fp, p -> writes.mkdir(p));
  }

  @Override
  public int rename(String fromPath, String toPath) {
    String from = m(fromPath);
    String to = m(toPath);
    return calls.change("rename", from + " -> " + to, () -> writes.rename(from, to));
  }

  @Override
  public int link(String fromPath, String toPath) {
    String from = m(fromPath);
    String to = m(toPath);
    return calls.change("link", to, () -> {
      ModelNames.checkNew(to);
      Files.createLink(fs.getPath(to), fs.getPath(from));
    });
  }

  /** Modes, owners and times are not stored (docs/MOUNT.md "Departures from POSIX"). */
  @Override
  public int chmod(String p, long mode) {
    return calls.change("chmod", p, () -> { });
  }

  @Override
  public int chown(String p, long uid, long gid) {
    return calls.change("chown", p, () -> { });
  }

  @Override
  public int utimens(String p, Timespec[] timespec) {
    return calls.change("utimens", p, () -> { });
  }

  @Override
  public int setxattr(String fp, String name, Pointer value, long size, int flags) {
    return change("setxattr " + name, fp, p -> xattrs.set(p, fp.equals("/"), name, value, size));
  }

  @Override
  public int removexattr(String p, String name) {
    return -ErrorCodes.EOPNOTSUPP();
  }

  @Override
  public int symlink(String oldpath, String newpath) {
    return -ErrorCodes.EPERM();
  }

  /**
   * mknod(2): a regular file is made empty, as {@code touch} makes one; FIFOs, sockets and
   * devices have no place in a model: EPERM, mknod(2)'s errno for a type the file system lacks
   * (not ENOSYS, "Function not implemented").
   */
  @Override
  public int mknod(String fp, long mode, long rdev) {
    if ((mode & FileStat.S_IFMT) != FileStat.S_IFREG) {
      return calls.readOnly() ? -ErrorCodes.EROFS() : -ErrorCodes.EPERM();
    }
    return change("mknod", fp, p -> {
      Writes.Handle h = writes.create(p);
      try {
        writes.flush(p, h);
      } finally {
        writes.release(p, h);
      }
    });
  }

}
