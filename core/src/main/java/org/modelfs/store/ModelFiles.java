package org.modelfs.store;

import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.function.LongConsumer;
import org.modelfs.format.Codecs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.ModelWriter;
import org.modelfs.container.Models;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/**
 * Whole-model reads and writes outside a mount (the CLI's convert, extract and read-only
 * commands): the same transaction as a mount's commit — lock, recovery, write, read back,
 * install — on the model's {@link Backing} ({@link Backings}).
 */
public final class ModelFiles {
  private ModelFiles() {}

  /** Opens the model at {@code path} consistently (never two generations of a shard set). */
  public static Model open(Path path) throws IOException {
    Backing b = Backings.of(path);
    b.recoverIfIdle();
    return b.open().model();
  }

  /**
   * Writes {@code tag} as the one tag (named {@code default}, whatever its name was) of the model
   * at {@code out}, replacing what is there. Returns its files.
   */
  public static List<Path> write(Tag tag, Path out, WriteOptions options) throws IOException {
    Tag alone = new Tag(Models.DEFAULT_TAG, tag.graph(), tag.variables(), tag.updater(), tag.trainingConfig(),
        tag.metadata());
    return writeTags(List.of(alone), out, options);
  }

  /**
   * Writes {@code tags} (oldest first) as the model at {@code out} — for
   * {@link ModelFormat#SHARDED_SDNB}, {@code out} names the base ({@code dir/model.sdnb}) —
   * replacing what is there, including another representation of the same model (a single SDNB
   * file and a shard set of its base replace each other). Returns the files of the new model.
   */
  public static List<Path> writeTags(List<Tag> tags, Path out, WriteOptions options) throws IOException {
    return writeTags(tags, out, options, null);
  }

  /**
   * {@link #writeTags(List, Path, WriteOptions)}, telling {@code progress} (may be {@code null})
   * now and then how many bytes are written; {@link #arrayBytes} is about where it ends.
   */
  public static List<Path> writeTags(List<Tag> tags, Path out, WriteOptions options,
      LongConsumer progress) throws IOException {
    String nameProblem = out.getFileName() == null ? null : Codecs.nameProblem(options.format(), out.getFileName().toString());
    if (nameProblem != null) {
      throw new ModelFormatException(out.toString(), "model to write", -1, nameProblem);
    }
    if (options.format().sharded()) {
      BasicFileAttributes a = existing(out);
      if (a != null && a.isOther()) {
        throw new FileSystemException(out.toString(), null, "is a FIFO or device; a " + options.format().token()
            + " model is several files, named after OUT in its directory: name a file there, or write one file");
      }
      Backing set = Backings.ofShardSet(out);
      String badName = Codecs.of(options.format()).fileNameProblem(set.fileName());
      if (badName != null) {
        String base = String.valueOf(out.getFileName()).replaceFirst("\\.[^.]*$", "");
        throw new ModelFormatException(out.toString(), "model to write", -1,
            badName + ": name it " + base + options.format().extension());
      }
      return commit(set, tags, options, progress); // its own transaction, links refused there
    }
    if (out.getFileSystem() != FileSystems.getDefault()) {
      return commit(Backings.of(out), tags, options, progress);
    }
    // the user's output file (OutputFile): a link followed, a FIFO or device fed, a file with
    // several links written into; else the transaction, which keeps an old file's owner and mode
    OutputFile.Target t = OutputFile.resolve(out);
    if (!t.writeInto()) {
      try {
        return commit(Backings.of(t.path()), tags, options, progress);
      } catch (OutputFile.AttributesNotKept e) {
        // a file this process cannot give a new file's owner to: written into, as cp does
      }
    }
    return writeInto(tags, t, options, progress);
  }

  /** The attributes of what {@code out} names (links followed), or {@code null} if nothing is there. */
  private static BasicFileAttributes existing(Path out) throws IOException {
    try {
      return Files.readAttributes(out, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private static List<Path> commit(Backing b, List<Tag> tags, WriteOptions options,
      LongConsumer progress) throws IOException {
    ContainerPlan plan = ModelWriter.plan(tags, b.fileName(), options);
    try (Backing.Lease lock = b.lock()) {
      b.recover(lock);
      b.commit(lock, b.current(), plan, progress);
    }
    return b.files();
  }

  /**
   * The model written, verified by the readers, then copied into {@code t} (a FIFO, a device, or
   * a file whose inode must stay): not atomic. The temporary is beside a regular file (under the
   * model's lock, so {@link Recovery} removes it after a crash), and a private file of the
   * system's temporary directory for a stream.
   */
  private static List<Path> writeInto(List<Tag> tags, OutputFile.Target t, WriteOptions options,
      LongConsumer progress) throws IOException {
    boolean stream = t.kind() == OutputFile.Kind.STREAM;
    LocalBacking b = stream ? null : LocalBacking.of(t.path());
    ContainerPlan plan = ModelWriter.plan(tags, stream ? String.valueOf(t.path().getFileName()) : b.fileName(), options);
    if (plan.files().size() != 1) {
      throw new FileSystemException(t.spelling().toString(), null, "a " + options.format().token()
          + " model of " + plan.files().size() + " files cannot be written into one " + (stream ? "FIFO or device"
          : "file with several hard links"));
    }
    try (Backing.Lease lock = stream ? null : b.lock()) {
      if (!stream) {
        b.recover(lock);
      }
      Path tmp;
      SeekableByteChannel ch;
      if (stream) {
        tmp = Files.createTempFile("modelfs-", ".tmp"); // private (0600) where POSIX
        ch = Files.newByteChannel(tmp, StandardOpenOption.WRITE,
            StandardOpenOption.READ);
      } else {
        tmp = t.path().resolveSibling(SidecarNames.newTemp(b.fileName()));
        ch = Durable.createNew(tmp); // only a file made here is ever deleted below
      }
      try {
        try (ch) {
          if (!stream) {
            OwnerAndMode.restrictLike(tmp, t.path());
          }
          PlannedFiles.write(plan, plan.files().get(0), ch, tmp, t.spelling().toString(), 0, progress);
        }
        PlannedFiles.verify(plan, List.of(tmp), t.spelling().toString());
        OutputFile.copyInto(tmp, t);
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
    return List.of(t.spelling());
  }

  /** The bytes of array data {@code tags} hold: about the size of the model they make, stored uncompressed. */
  public static long arrayBytes(List<Tag> tags) {
    return ContainerPlan.arrayBytes(tags);
  }
}
