package org.modelfs.fuse.fuse3;

import static org.modelfs.fuse.fuse3.Fuse3Layout.*;

import com.kenai.jffi.CallContext;
import com.kenai.jffi.CallingConvention;
import com.kenai.jffi.Invoker;
import com.kenai.jffi.MemoryIO;
import com.kenai.jffi.Type;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Attributes and listings of a read-only mount, from the model's index (never its array bytes),
 * each computed once (the tree cannot change): a file's {@code struct stat}, and for a directory
 * one native block holding every entry's NUL-terminated name and full {@code struct stat}, which
 * readdir hands to libfuse's filler with {@code FUSE_FILL_DIR_PLUS} — so a READDIRPLUS answers the
 * kernel's lookups of the whole directory at once (FUSE 3; FUSE 2 has no readdirplus in libfuse).
 */
final class Listings3 {
  private static final MemoryIO MEM = MemoryIO.getInstance();
  /** fuse_fill_dir_t: int (*)(void *buf, const char *name, const struct stat *, off_t, enum fuse_fill_dir_flags). */
  private static final CallContext FILL = CallContext.getCallContext(Type.SINT32,
      new Type[] {Type.POINTER, Type.POINTER, Type.POINTER, Type.SINT64, Type.SINT32}, CallingConvention.DEFAULT, false);

  /** What stat shows of one path. */
  record Attr(boolean dir, long size, long millis) {}

  /** A directory's entries in native memory: names at {@code names[i]}, stats from {@code stats}. */
  private record Listing(long[] names, long stats) {}

  private final FileSystem fs;
  private final int uid;
  private final int gid;
  private final Map<String, Attr> attrs = new ConcurrentHashMap<>();
  private final Map<String, Listing> listings = new ConcurrentHashMap<>();

  Listings3(FileSystem fs) throws IOException {
    this.fs = fs;
    this.uid = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue();
    this.gid = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:gid")).intValue();
  }

  /** The path's attributes; null when the model has no such path. */
  Attr attr(String p) throws IOException {
    Attr a = attrs.get(p);
    if (a == null) {
      BasicFileAttributes b;
      try {
        b = Files.readAttributes(fs.getPath(p), BasicFileAttributes.class);
      } catch (NoSuchFileException e) {
        return null;
      }
      a = new Attr(b.isDirectory(), b.isDirectory() ? 0 : b.size(), b.lastModifiedTime().toMillis());
      attrs.put(p, a);
    }
    return a;
  }

  /** Writes {@code a} as a {@code struct stat} at {@code st} (zeroed by the caller). */
  void stat(long st, Attr a) {
    MEM.putInt(st + ST_MODE, a.dir ? 0040555 : 0100444);
    MEM.putLong(st + ST_NLINK, a.dir ? 2 : 1);
    MEM.putInt(st + ST_UID, uid);
    MEM.putInt(st + ST_GID, gid);
    MEM.putLong(st + ST_SIZE, a.size);
    MEM.putLong(st + ST_BLKSIZE, 4096);
    MEM.putLong(st + ST_BLOCKS, (a.size + 511) / 512);
    for (int t : new int[] {ST_ATIM, ST_MTIM, ST_CTIM}) {
      MEM.putLong(st + t, a.millis / 1000);
      MEM.putLong(st + t + 8, (a.millis % 1000) * 1_000_000);
    }
  }

  /** Fills the directory's entries through libfuse's filler; false when {@code p} is no directory. */
  boolean fill(String p, long buf, long filler) throws IOException {
    Listing l = listings.get(p);
    if (l == null) {
      l = list(p);
      if (l == null) {
        return false;
      }
      listings.put(p, l);
    }
    Invoker inv = Invoker.getInstance();
    for (int i = 0; i < l.names.length; i++) {
      if ((int) inv.invokeN5(FILL, filler, buf, l.names[i], l.stats + (long) i * STAT_SIZE, 0, FILL_DIR_PLUS) != 0) {
        break;
      }
    }
    return true;
  }

  private Listing list(String p) throws IOException {
    Path dir = fs.getPath(p);
    Attr self = attr(p);
    if (self == null || !self.dir) {
      return null;
    }
    List<String> names = new ArrayList<>(List.of(".", ".."));
    List<Attr> as = new ArrayList<>(List.of(self, self));
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path e : ds) {
        String child = e.toString();
        Attr a = attr(child);
        if (a != null) {
          names.add(e.getFileName().toString());
          as.add(a);
        }
      }
    }
    // one block, never freed: the listing lives as long as the mount, as the kernel's copy does
    byte[][] encoded = new byte[names.size()][];
    long nameBytes = 0;
    for (int i = 0; i < encoded.length; i++) {
      encoded[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
      nameBytes += encoded[i].length + 1;
    }
    long stats = MEM.allocateMemory((long) STAT_SIZE * encoded.length + nameBytes, true);
    long[] at = new long[encoded.length];
    long next = stats + (long) STAT_SIZE * encoded.length;
    for (int i = 0; i < encoded.length; i++) {
      stat(stats + (long) i * STAT_SIZE, as.get(i));
      MEM.putByteArray(next, encoded[i], 0, encoded[i].length);
      at[i] = next;
      next += encoded[i].length + 1;
    }
    return new Listing(at, stats);
  }
}
