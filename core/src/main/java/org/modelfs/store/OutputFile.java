package org.modelfs.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one owner of "write the file the user named" (docs/CLI.md, "Output files"), with cp(1)'s
 * rule: a symbolic link is followed (a dangling one is refused, as GNU cp refuses it); a FIFO or
 * device gets the bytes streamed into it; an existing regular file keeps its mode, owner, group
 * and hard links. A new or singly linked regular file gets the bytes in a temporary beside it
 * ({@link SidecarNames#newTemp}), which — given the old file's mode, owner and group — is renamed
 * over it atomically; a file with several links (or one this process cannot give a new file's
 * owner to, or in a directory it cannot write) gets the complete bytes copied into it, not
 * atomically, as cp does. Models take the same steps through {@link ModelFiles}.
 */
public final class OutputFile {
  private OutputFile() {}

  /** What the user's name points at. */
  public enum Kind { ABSENT, REGULAR, STREAM }

  /**
   * A resolved destination: {@code path} is the file bytes go to (links followed; for a stream,
   * the user's spelling, which the kernel follows), {@code links} its hard-link count.
   */
  public record Target(Path spelling, Path path, Kind kind, int links) {
    /** Whether the bytes are copied into the existing file rather than renamed over it. */
    public boolean writeInto() {
      return kind == Kind.STREAM || links > 1;
    }
  }

  /** Writes an output's bytes, in order, into a channel. */
  @FunctionalInterface
  public interface Writer {
    void write(WritableByteChannel out) throws IOException;
  }

  /** The old file's owner, group or mode could not be given to the new one: nothing was replaced. */
  public static final class AttributesNotKept extends FileSystemException {
    private static final long serialVersionUID = 1L;

    AttributesNotKept(Path target, IOException cause) {
      super(target.toString(), null, "cannot give the new file the owner, group and mode of the old one ("
          + cause.getMessage() + "); nothing was replaced. A commit replaces the file with a new one: run it as"
          + " the file's owner, or work on a copy of your own");
      initCause(cause);
    }
  }

  /**
   * A plain file named on storage that takes models only (HDFS, Azure Blob Storage:
   * {@link BackingFactory#modelsOnly}): nothing was written.
   */
  public static final class ModelsOnly extends FileSystemException {
    private static final long serialVersionUID = 1L;

    ModelsOnly(Path out, String store) {
      super(Shown.path(out), null, "cannot write a plain file here: modelfs writes only models to " + store
          + " (convert, cp into a model, a mount's commit); write it to a local file and upload it with the"
          + " store's own tools");
    }
  }

  /**
   * What {@code out} names: refused when it is a directory, a dangling link, in no directory, or
   * on storage that takes models only ({@link ModelsOnly}).
   */
  public static Target resolve(Path out) throws IOException {
    String store = Backings.modelsOnly(out);
    if (store != null) {
      throw new ModelsOnly(out, store);
    }
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(out, BasicFileAttributes.class); // follows links, as open(2) would
    } catch (NoSuchFileException e) {
      if (Files.isSymbolicLink(out)) {
        throw new FileSystemException(out.toString(), null, "not writing through a dangling symbolic link (to "
            + Files.readSymbolicLink(out) + "), as GNU cp refuses it; create its target first or remove the link");
      }
      Path abs = out.toAbsolutePath();
      if (abs.getParent() == null || !Files.isDirectory(abs.getParent())) {
        throw new NoSuchFileException(Shown.path(out), null, "its directory does not exist");
      }
      return new Target(out, abs.getParent().toRealPath().resolve(abs.getFileName().toString()), Kind.ABSENT, 0);
    }
    if (a.isDirectory()) {
      throw new FileSystemException(Shown.path(out), null, "is a directory; name the file to write");
    }
    if (!a.isRegularFile()) {
      return new Target(out, out, Kind.STREAM, 1);
    }
    Path real = out.toRealPath();
    return new Target(out, real, Kind.REGULAR, links(real));
  }

  /** The hard-link count of {@code file} (1 where the file system does not say). */
  static int links(Path file) throws IOException {
    try {
      return (Integer) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return 1;
    }
  }

  /**
   * Writes {@code writer}'s bytes to the file the user named {@code out}, by the rule above. A
   * writer that fails before the end leaves a regular file as it was (its temporary is deleted);
   * a stream has got what was written until then.
   */
  public static void write(Path out, Writer writer) throws IOException {
    Target t = resolve(out);
    if (t.kind() == Kind.STREAM) {
      try (WritableByteChannel ch = Files.newByteChannel(t.path(), StandardOpenOption.WRITE)) {
        writer.write(ch);
      }
      return;
    }
    Path tmp = t.path().resolveSibling(SidecarNames.newTemp(t.path().getFileName().toString()));
    SeekableByteChannel ch;
    try {
      ch = Durable.createNew(tmp);
    } catch (AccessDeniedException e) {
      if (t.kind() == Kind.ABSENT) {
        throw new AccessDeniedException(Shown.path(out), null, "cannot create a file in its directory");
      }
      try (WritableByteChannel into = Files.newByteChannel(t.path(), StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)) {
        writer.write(into); // no temporary can be made beside it: written into, as cp does
      }
      return;
    }
    try {
      try (ch) {
        if (t.kind() == Kind.REGULAR) {
          OwnerAndMode.restrictLike(tmp, t.path());
        }
        writer.write(ch);
        Durable.force(ch);
      }
      try {
        install(tmp, t);
      } catch (AttributesNotKept e) {
        copyInto(tmp, t);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Puts the complete, checked temporary {@code tmp} (beside {@code t}, or anywhere for a
   * {@link Target#writeInto}) in place of {@code t}: renamed over a new or singly linked file
   * after it got the old one's owner, group and mode ({@link AttributesNotKept} when it cannot:
   * nothing replaced), else copied into the file.
   */
  private static void install(Path tmp, Target t) throws IOException {
    if (t.writeInto()) {
      copyInto(tmp, t);
      return;
    }
    if (t.kind() == Kind.REGULAR) {
      OwnerAndMode.keep(tmp, t.path());
    }
    Durable.rename(tmp, t.path());
    Durable.forceDirectory(t.path().getParent());
  }

  /**
   * Copies the complete file {@code from} into {@code t} as cp does: opened for writing (no
   * link followed for a regular file: {@link #resolve} followed them), truncated, written — the
   * same inode, so its mode, owner, group and other links stay. Not atomic.
   */
  static void copyInto(Path from, Target t) throws IOException {
    try (FileChannel in = FileChannel.open(from);
        WritableByteChannel out = t.kind() == Kind.STREAM ? Files.newByteChannel(t.path(), StandardOpenOption.WRITE)
            : Files.newByteChannel(t.path(), StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING,
                LinkOption.NOFOLLOW_LINKS)) {
      long n = in.size();
      for (long done = 0; done < n; ) {
        done += in.transferTo(done, n - done, out);
      }
      if (out instanceof FileChannel fc && t.kind() == Kind.REGULAR) {
        fc.force(true);
      }
    }
  }
}
