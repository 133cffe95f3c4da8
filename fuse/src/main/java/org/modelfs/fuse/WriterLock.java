package org.modelfs.fuse;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import org.modelfs.JournaledFileSystem;

/**
 * A writable mount takes the model's writer lock (FILESYSTEM.md §8) when it mounts, not at its
 * first change (docs/MOUNT.md "Lifecycle"): a second writable mount of the same model — or a
 * mount while another program writes it — is refused at once with the reason, instead of every
 * write of one of them failing at close, which a shell's {@code >} does not even report. The core
 * takes the lock before a session's first change and keeps it until close, also across a
 * rollback; so one change — a directory no listing ever shows — made and rolled back takes it.
 */
final class WriterLock {
  private static final String PROBE = ".modelfs-mount-lock";

  private WriterLock() {}

  /** Takes the lock; a {@link Refusal} (EBUSY) naming the model when another writer holds it. */
  static void take(FileSystem fs, String shown) throws IOException {
    Path tag;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(fs.getPath("/tags"))) {
      Iterator<Path> it = ds.iterator();
      if (!it.hasNext()) {
        return; // no tag: the first change takes it
      }
      tag = it.next();
    }
    try {
      Files.createDirectory(tag.resolve("params").resolve(PROBE));
      ((JournaledFileSystem) fs).rollback();
    } catch (IOException e) {
      fs.close();
      if (e instanceof FileSystemException f && String.valueOf(f.getReason()).contains("another writer")) {
        throw Refusal.busy(shown, "another writer is changing this model (a mount of it, or a program that has it"
            + " open for writing); unmount or close that first, or mount this one --read-only");
      }
      throw new IOException(shown + ": a writable mount cannot take the model's writer lock (" + e.getMessage()
          + "); mount it --read-only to read it", e);
    }
  }
}
