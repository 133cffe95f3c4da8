package org.modelfs.fuse.fuse3;

import static org.modelfs.fuse.fuse3.Fuse3Layout.*;

import com.kenai.jffi.MemoryIO;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jnr.ffi.Pointer;

/**
 * The FUSE 3 prototype answering reads with {@code read_buf}: for a file whose bytes lie as they
 * are shown in one range of the container file (a raw little-endian array, FILESYSTEM.md §5 "map"),
 * the answer is a {@code fuse_buf} naming a descriptor of the container and the position
 * ({@code FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK}): libfuse splices those pages from the page cache
 * to {@code /dev/fuse} (FUSE_CAP_SPLICE_WRITE) — no byte passes through Java. Any other file is
 * read into a malloc'ed buffer as {@link ModelFs3#read} does.
 *
 * <p>Where the range is: the public API does not say, so the prototype maps the file
 * ({@code FileChannel.map}, which maps the container itself for such an array) and finds the
 * mapping's file and offset in {@code /proc/self/maps} — an experiment's shortcut; a product
 * would ask the core for the array's offset.
 */
final class ModelFs3Splice extends ModelFs3 {
  private static final MemoryIO MEM = MemoryIO.getInstance();
  private static final int O_RDONLY = 0;
  /** Where an open file's bytes lie in the container: its descriptor and the offset of byte 0. */
  private record Range(int fd, long base, long size) {}

  private final Fuse3Lib.LibC libc = Fuse3Lib.libc();
  private final Map<SeekableByteChannel, Range> ranges = new ConcurrentHashMap<>();
  private final Path container;

  ModelFs3Splice(FileSystem fs, Path model, PrintStream log) throws IOException {
    super(fs, model, log);
    this.container = model.toRealPath();
  }

  @Override
  public boolean readBuf() {
    return true;
  }

  @Override
  int wantSplice() {
    return CAP_SPLICE_WRITE | CAP_SPLICE_MOVE;
  }

  @Override
  SeekableByteChannel opened(String path) throws IOException {
    SeekableByteChannel ch = super.opened(path);
    if (ch instanceof FileChannel fc && fc.size() >= (1 << 20)) {
      Range r = range(fc);
      if (r != null) {
        ranges.put(ch, r);
      }
    }
    return ch;
  }

  /** The container range a raw array's mapping shows, checked against the channel's first bytes; null if none. */
  private Range range(FileChannel fc) throws IOException {
    MappedByteBuffer m = fc.map(FileChannel.MapMode.READ_ONLY, 0, fc.size());
    long addr = MEM.getDirectBufferAddress(m);
    for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
      String[] f = line.trim().split("\\s+", 6);
      String[] span = f[0].split("-");
      long start = Long.parseUnsignedLong(span[0], 16);
      long end = Long.parseUnsignedLong(span[1], 16);
      if (addr >= start && addr < end) {
        if (f.length < 6 || !f[5].equals(container.toString())) {
          return null; // a copy (big-endian, chunked, compressed): read through Java
        }
        int fd = libc.open(container.toString(), O_RDONLY);
        Range r = new Range(fd, Long.parseLong(f[2], 16) + (addr - start), fc.size());
        return fd >= 0 && same(fc, r) ? r : null;
      }
    }
    return null;
  }

  private static boolean same(FileChannel fc, Range r) throws IOException {
    ByteBuffer a = ByteBuffer.allocate(4096);
    ByteBuffer b = ByteBuffer.allocate(4096);
    fc.read(a, 0);
    try (FileChannel raw = FileChannel.open(Path.of("/proc/self/fd/" + r.fd))) {
      raw.read(b, r.base);
    }
    return a.flip().equals(b.flip());
  }

  @Override
  public int readBuf(String path, Pointer bufp, long size, long offset, Pointer fi) {
    SeekableByteChannel ch = channel(fi);
    if (ch == null) {
      return -Errno.EBADF;
    }
    Range r = ranges.get(ch);
    Pointer vec = libc.malloc(BUFVEC_SIZE);
    long v = vec.address();
    MEM.setMemory(v, BUFVEC_SIZE, (byte) 0);
    MEM.putLong(v, 1); // count
    long buf = v + BUFVEC_BUF;
    if (r != null) {
      long n = Math.max(0, Math.min(size, r.size - offset));
      counted(n);
      MEM.putLong(buf, n);
      MEM.putInt(buf + BUF_FLAGS, BUF_IS_FD | BUF_FD_SEEK);
      MEM.putInt(buf + BUF_FD, r.fd);
      MEM.putLong(buf + BUF_POS, r.base + offset);
    } else {
      Pointer mem = libc.malloc(Math.max(1, size));
      int n = read(path, mem, size, offset, fi);
      if (n < 0) {
        MEM.freeMemory(mem.address());
        MEM.freeMemory(v);
        return n;
      }
      MEM.putLong(buf, n);
      MEM.putAddress(buf + BUF_MEM, mem.address());
    }
    bufp.putPointer(0, vec);
    return 0;
  }

  @Override
  public int release(String path, Pointer fi) {
    SeekableByteChannel ch = channel(fi);
    Range r = ch == null ? null : ranges.remove(ch);
    if (r != null) {
      libc.close(r.fd);
    }
    return super.release(path, fi);
  }
}
