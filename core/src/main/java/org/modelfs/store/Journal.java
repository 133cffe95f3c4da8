package org.modelfs.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicLong;
import org.modelfs.io.StorageFullException;

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
  /** The model file the journal belongs to, for messages. */
  private final Path model;
  private final AtomicLong next = new AtomicLong();

  private Journal(Path parent, String name, Path model) {
    this.parent = parent;
    this.name = name;
    this.dir = parent.resolve(name);
    this.model = model;
  }

  /** Creates a new, empty journal for the model {@code id}. Hold its {@link ModelLock}. */
  static Journal create(ModelId id) throws IOException {
    Journal j = new Journal(id.dir(), SidecarNames.newJournal(id.key()), id.dir().resolve(id.key()));
    try {
      Files.createDirectory(j.dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      Files.createDirectory(j.dir);
    }
    return j;
  }

  /**
   * Creates a new, empty journal in the local temporary directory ({@code java.io.tmpdir}) for a
   * model kept where no directory beside it can hold one (an object store): a directory
   * {@code modelfs-journal-<random>} made exclusively, mode 0700. Closing deletes it; a crashed
   * writer's is left to the system's temporary-file cleaning (it holds pending bytes only, never
   * the model). {@code model} names the model in messages.
   */
  public static Journal createLocal(Path model) throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Journal j = new Journal(tmp, SidecarNames.newLocalJournal(), model);
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
    return newFile(kind, "a " + kind + " file");
  }

  /**
   * A new, empty data file in the journal ({@code kind}: lower-case letters).
   *
   * @param kind what the file holds
   * @param what what it is for, for messages ("/params/w")
   * @throws IOException a {@link StorageFullException} or {@link JournalException} naming the
   *     file, its use and the model
   */
  public Path newFile(String kind, String what) throws IOException {
    Path file = dir.resolve(SidecarNames.journalData(kind, next.incrementAndGet()));
    try {
      return Files.createFile(file);
    } catch (IOException e) {
      throw failure(e, file, "creating the journal file of " + what, -1, -1);
    }
  }

  /**
   * {@code e}, thrown by a step on the journal file {@code file}, as the exception to report:
   * a full device, quota or file size limit as a {@link StorageFullException}; a file or
   * directory of the journal that is gone or was replaced as a {@link JournalException} naming
   * the journal file, the step and the model; an interrupt as it is.
   *
   * @param doing the step, for the message ("writing the journal file of /params/w")
   * @param written the file's size when it failed, or -1
   * @param needed bytes still to write, or -1
   */
  public IOException failure(IOException e, Path file, String doing, long written, long needed) {
    String what = doing + " of the model " + model;
    IOException full = StorageFullException.explain(e, file, what, written, needed);
    if (full != e || e instanceof JournalException || e instanceof ClosedChannelException
        || e instanceof InterruptedIOException) {
      return full;
    }
    String reason = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason()
        : e instanceof NoSuchFileException ? "no such file or directory"
        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new JournalException(file.toString(), what + " failed: " + reason
        + (e instanceof NoSuchFileException ? " (the journal directory was removed or replaced while"
            + " the model was open for writing; the changes of this mount cannot be committed)" : ""), e);
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
      throw new DirectoryNotEmptyException(dir + ": the journal of the model " + model + " holds files ModelFS did"
          + " not make; they and the journal directory were left (remove them once nothing uses them)");
    }
  }

  @Override
  public String toString() {
    return "journal " + name + " of the model " + model;
  }
}
