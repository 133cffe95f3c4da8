package org.modelfs.fuse;

import com.kenai.jffi.MemoryIO;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * The mount's open files (docs/MOUNT.md "Reads", "Writes"), by the handle number the kernel
 * keeps: a file opened for reading is the model's own channel, read positionally straight into
 * the kernel's buffer; a file opened for writing (or a staged one) is a {@link Writes.Handle}.
 */
final class OpenFiles {
  private static final int O_ACCMODE = 3;
  private static final int O_TRUNC = 01000;
  private final FileSystem fs;
  private final Writes writes;
  private final Map<Long, Object> handles = new ConcurrentHashMap<>();
  private final AtomicLong nextHandle = new AtomicLong(1);

  OpenFiles(FileSystem fs, Writes writes) {
    this.fs = fs;
    this.writes = writes;
  }

  int open(String p, FuseFileInfo fi, boolean readOnly) throws IOException {
    int flags = fi.flags.get();
    Object h;
    if ((flags & O_ACCMODE) != 0) {
      if (readOnly) {
        return -ErrorCodes.EROFS();
      }
      h = writes.open(p, (flags & O_TRUNC) != 0);
    } else {
      h = writes.staged(p) != null ? writes.open(p, false) : StoredFile.of(Files.newByteChannel(fs.getPath(p)));
    }
    return keep(h, fi);
  }

  int create(String p, FuseFileInfo fi) throws IOException {
    return keep(writes.create(p), fi);
  }

  private int keep(Object h, FuseFileInfo fi) {
    long id = nextHandle.getAndIncrement();
    handles.put(id, h);
    fi.fh.set(id);
    return 0;
  }

  /**
   * Answers a read of {@code size} bytes at {@code offset} of open file {@code fh} in {@code
   * *bufp} ({@link ReadCall}): a stored file's range of the container's descriptor, else the bytes
   * read into a block of {@code malloc}'s, which libfuse frees.
   */
  int readBuf(Pointer bufp, long size, long offset, long fh) throws IOException {
    Object h = handles.get(fh);
    if (h == null) {
      return -ErrorCodes.EBADF();
    }
    if (h instanceof StoredFile f) {
      ReadCall.fromDescriptor(bufp, f.fd, f.offset + offset, Math.max(0, Math.min(size, f.size - offset)));
      return 0;
    }
    Pointer mem = size == 0 ? null : StoredFile.LIBC.malloc(size);
    if (size != 0 && mem == null) {
      return -ErrorCodes.ENOMEM();
    }
    try {
      int n = size == 0 ? 0 : read(h, MemoryIO.getInstance().newDirectByteBuffer(mem.address(), (int) size), offset);
      ReadCall.inMemory(bufp, mem, n);
      mem = null; // libfuse's now
      return 0;
    } finally {
      if (mem != null) {
        StoredFile.LIBC.free(mem);
      }
    }
  }

  private static int read(Object h, ByteBuffer dst, long offset) throws IOException {
    if (h instanceof Writes.Handle w) {
      return readFully(w.staged.channel, dst, offset);
    }
    if (h instanceof FileChannel fc) {
      return readFully(fc, dst, offset);
    }
    SeekableByteChannel ch = (SeekableByteChannel) h;
    synchronized (ch) {
      ch.position(offset);
      int n = 0;
      for (int r; dst.hasRemaining() && (r = ch.read(dst)) >= 0; ) {
        n += r;
      }
      return n;
    }
  }

  private static int readFully(FileChannel ch, ByteBuffer dst, long offset) throws IOException {
    int n = 0;
    for (int r; dst.hasRemaining() && (r = ch.read(dst, offset + n)) >= 0; ) {
      n += r;
    }
    return n;
  }

  int write(Pointer buf, long size, long offset, FuseFileInfo fi) throws IOException {
    if (!(handles.get(fi.fh.get()) instanceof Writes.Handle w)) {
      return -ErrorCodes.EBADF();
    }
    w.write(MemoryIO.getInstance().newDirectByteBuffer(buf.address(), (int) size), offset);
    return (int) size;
  }

  /** close(2) of one descriptor: a written file's bytes are installed (its errno is close's). */
  int flush(String p, FuseFileInfo fi) throws IOException {
    if (handles.get(fi.fh.get()) instanceof Writes.Handle w) {
      writes.flush(p, w);
    }
    return 0;
  }

  int release(String p, FuseFileInfo fi) throws IOException {
    Object h = handles.remove(fi.fh.get());
    if (h instanceof Writes.Handle w) {
      writes.release(p, w);
    } else if (h instanceof StoredFile f) {
      f.close();
    } else if (h instanceof SeekableByteChannel ch) {
      ch.close();
    }
    return 0;
  }

  int ftruncate(String p, long size, FuseFileInfo fi, boolean readOnly) throws IOException {
    if (!(handles.get(fi.fh.get()) instanceof Writes.Handle w)) {
      return readOnly ? -ErrorCodes.EROFS() : -ErrorCodes.EBADF();
    }
    writes.truncate(p, size, w);
    return 0;
  }
}
