package org.modelfs.store;

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
      java.util.function.LongConsumer progress) throws IOException {
    String nameProblem = out.getFileName() == null ? null : options.format().nameProblem(out.getFileName().toString());
    if (nameProblem != null) {
      throw new ModelFormatException(out.toString(), "model to write", -1, nameProblem);
    }
    Backing b = options.format().sharded() ? Backings.ofShardSet(out) : Backings.of(out);
    if (options.format() == ModelFormat.SHARDED_CONTAINER
        && !ModelWriter.canBeShardSet(b.fileName(), ModelFormat.SHARDED_CONTAINER)) {
      String base = String.valueOf(out.getFileName()).replaceFirst("\\.[^.]*$", "");
      throw new ModelFormatException(out.toString(), "model to write", -1, "a sharded container is named"
          + " <base>.sdmc, its shards <base>.shard<k>-of-<N>.sdmc: name it " + base + ".sdmc");
    }
    ContainerPlan plan = ModelWriter.plan(tags, b.fileName(), options);
    try (Backing.Lease lock = b.lock()) {
      b.recover(lock);
      b.commit(lock, b.current(), plan, progress);
    }
    return b.files();
  }

  /** The bytes of array data {@code tags} hold: about the size of the model they make, stored uncompressed. */
  public static long arrayBytes(List<Tag> tags) {
    return ContainerPlan.arrayBytes(tags);
  }
}
