package org.modelfs.fuse;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.Statvfs;

/**
 * What stat(2) and statfs(2) show (docs/MOUNT.md "Departures from POSIX"): the mounting user's
 * owner, fixed modes, the model file's times; the size of the device that holds the model and
 * its journal.
 */
final class Stats {
  private final Path model;
  private final boolean readOnly;
  private final int uid;
  private final int gid;

  Stats(Path model, boolean readOnly) throws IOException {
    this.model = model;
    this.readOnly = readOnly;
    this.uid = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue();
    this.gid = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:gid")).intValue();
  }

  void file(FileStat st, long size, long millis) {
    st.st_mode.set(FileStat.S_IFREG | (readOnly ? 0444 : 0644));
    st.st_nlink.set(1);
    st.st_size.set(size);
    st.st_blocks.set((size + 511) / 512);
    common(st, millis);
  }

  void dir(FileStat st, long millis) {
    st.st_mode.set(FileStat.S_IFDIR | (readOnly ? 0555 : 0755));
    st.st_nlink.set(2);
    common(st, millis);
  }

  void common(FileStat st, long millis) {
    st.st_uid.set(uid);
    st.st_gid.set(gid);
    st.st_mtim.tv_sec.set(millis / 1000);
    st.st_mtim.tv_nsec.set((millis % 1000) * 1_000_000);
    st.st_ctim.tv_sec.set(millis / 1000);
    st.st_atim.tv_sec.set(millis / 1000);
  }

  void statfs(Statvfs st) {
    long bs = 4096;
    st.f_bsize.set(bs);
    st.f_frsize.set(bs);
    st.f_namemax.set(ModelNames.NAME_MAX);
    FileStore store;
    try {
      store = Files.getFileStore(model.toAbsolutePath().getParent());
      st.f_blocks.set(store.getTotalSpace() / bs);
      long free = readOnly ? 0 : store.getUsableSpace() / bs;
      st.f_bfree.set(free);
      st.f_bavail.set(free);
    } catch (IOException | RuntimeException e) {
      // a model in an object store: no device to size; df shows 0 of 0
    }
  }
}
