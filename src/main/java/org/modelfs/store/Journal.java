package org.modelfs.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a writer's pending changes live until they are committed: a directory of its own beside
 * the model, {@code .<key>.modelfs-journal-<random>} (mode 0700 where the file system has POSIX
 * permissions), one file per written array or value. Bytes written through the file system
 * stream into these files (the heap never holds them); the container itself is never written.
 * Closing deletes the files and the directory.
 *
 * <p>The name is new for every writer and the directory is created exclusively, so nothing
 * planted at a fixed name is ever used; stale journals of crashed writers are removed by
 * {@link Recovery}, which deletes only journal files in them.
 */
public final class Journal implements Closeable {
  private final Path parent;
  private final String name;
  private final Path dir;
  private final AtomicLong next = new AtomicLong();

  private Journal(Path parent, String name) {
    this.parent = parent;
    this.name = name;
    this.dir = parent.resolve(name);
  }

  /** Creates a new, empty journal for the model {@code id}. Hold its {@link ModelLock}. */
  static Journal create(ModelId id) throws IOException {
    Journal j = new Journal(id.dir(), SidecarNames.newJournal(id.key()));
    try {
      Files.createDirectory(j.dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      Files.createDirectory(j.dir);
    }
    return j;
  }

  /** The journal's directory. */
  public Path dir() {
    return dir;
  }

  /** A new, empty data file in the journal ({@code kind}: lower-case letters). */
  public Path newFile(String kind) throws IOException {
    return Files.createFile(dir.resolve(SidecarNames.journalData(kind, next.incrementAndGet())));
  }

  /**
   * Deletes the data file {@code file} of this journal (its content was replaced, committed or
   * read into memory); anything else is refused.
   */
  public void delete(Path file) throws IOException {
    Path name = file.getFileName();
    if (!dir.equals(file.getParent()) || name == null || !SidecarNames.isJournalData(name.toString())) {
      throw new IllegalArgumentException(file + " is not a data file of the journal " + dir);
    }
    Files.deleteIfExists(file);
  }

  @Override
  public void close() throws IOException {
    if (Files.exists(dir) && !SafeDir.deleteJournal(parent, name)) {
      throw new DirectoryNotEmptyException(dir + ": the journal holds files ModelFS did not make; they were left");
    }
  }
}
