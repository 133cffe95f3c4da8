package org.modelfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.struct.FileStat;

/**
 * {@code stat} and directory listings of the mount (docs/MOUNT.md "Reads", "Directories"): from
 * the model's index (never its array bytes), a staged file's own size while it is open for
 * writing, the area directories every tag shows, and the scratch files beside a tag's files.
 * Listings carry each entry's type; a read-only mount keeps them (docs/PERFORMANCE.md "FUSE").
 */
final class Listing {
  private final FileSystem fs;
  private final Writes writes;
  private final Stats stats;
  private final Types types = new Types();
  /** Each directory's entries, on a read-only mount only (else null). */
  private final Map<String, Entry[]> cache;

  Listing(FileSystem fs, Writes writes, Stats stats, boolean readOnly) {
    this.fs = fs;
    this.writes = writes;
    this.stats = stats;
    this.cache = readOnly ? new ConcurrentHashMap<>() : null;
  }

  int getattr(String p, FileStat st) throws Exception {
    Staged s = writes.staged(p);
    long stagedSize = s == null ? -1 : s.size();
    if (stagedSize >= 0) {
      stats.file(st, stagedSize, System.currentTimeMillis());
      return 0;
    }
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(fs.getPath(p), BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      if (writes.areas.shows(p)) {
        stats.dir(st, System.currentTimeMillis());
        return 0;
      }
      ModelNames.checkNew(p); // a missing name over NAME_MAX: ENAMETOOLONG, as ext4's lookup says
      throw e;
    }
    if (a.isDirectory()) {
      stats.dir(st, a.lastModifiedTime().toMillis());
    } else {
      stats.file(st, a.size(), a.lastModifiedTime().toMillis());
    }
    return 0;
  }

  /**
   * Fills the directory's entries, each with its type (the {@code d_type} of readdir(3): find and
   * fts descend without a stat per entry). A read-only mount's tree never changes, so each
   * directory is listed once and its entries kept (names encoded for the filler, types known).
   */
  int readdir(String p, Pointer buf, FuseFillDir filler) throws Exception {
    Entry[] entries = cache == null ? list(p) : cache.get(p);
    if (entries == null) {
      entries = list(p);
      cache.put(p, entries);
    }
    if (entries.length == 0) {
      return -ErrorCodes.ENOENT();
    }
    for (Entry e : entries) {
      if (filler.apply(buf, ByteBuffer.wrap(e.name), e.dir ? types.dir : types.file, 0) != 0) {
        break;
      }
    }
    return 0;
  }

  /** The entries of directory {@code p} with "." and ".." first; none when it is no directory. */
  private Entry[] list(String p) throws IOException {
    Path dir = fs.getPath(p);
    if (!Files.isDirectory(dir)) {
      return writes.areas.shows(p) ? areaOnly(p) : new Entry[0];
    }
    Map<String, Boolean> names = new LinkedHashMap<>();
    names.put(".", true);
    names.put("..", true);
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path e : ds) {
        names.put(e.getFileName().toString(), Files.isDirectory(e));
      }
    }
    if (Areas.isTag(p)) {
      ModelNames.AREAS.stream().filter(a -> writes.areas.shows(p + "/" + a)).forEach(a -> names.put(a, true));
    }
    writes.stagedIn(p).forEach(n -> names.putIfAbsent(n, false));
    return entries(names);
  }

  /** An area directory the model does not hold yet: ".", ".." and the files staged in it. */
  private Entry[] areaOnly(String p) {
    Map<String, Boolean> names = new LinkedHashMap<>();
    names.put(".", true);
    names.put("..", true);
    writes.stagedIn(p).forEach(n -> names.putIfAbsent(n, false));
    return entries(names);
  }

  private static Entry[] entries(Map<String, Boolean> names) {
    List<Entry> out = new ArrayList<>(names.size());
    names.forEach((n, d) -> out.add(new Entry((n + "\0").getBytes(StandardCharsets.UTF_8), d)));
    return out.toArray(new Entry[0]);
  }

  /** A directory entry as fill_dir takes it: the name NUL-terminated, and whether it is a directory. */
  private record Entry(byte[] name, boolean dir) {}

  /**
   * Two stat buffers for fill_dir, one per type, only {@code st_mode} set (libfuse copies them
   * and takes the entry's type from it); written once, then only read by native code.
   */
  private static final class Types {
    final Pointer file = of(FileStat.S_IFREG);
    final Pointer dir = of(FileStat.S_IFDIR);

    private static Pointer of(int mode) {
      Runtime r = Runtime.getSystemRuntime();
      Pointer p = Memory.allocateDirect(r, Struct.size(new FileStat(r)), true);
      FileStat.of(p).st_mode.set(mode);
      return p;
    }
  }
}
