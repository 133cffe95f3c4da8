package org.modelfs.store;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongConsumer;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.Models;
import org.modelfs.io.StorageFullException;
import org.modelfs.io.WriteProgress;
import org.modelfs.model.Model;

/**
 * The two steps of a commit that make and check a model's new files before anything is replaced:
 * a planned file streamed by its codec into a temporary and forced, and the temporaries read back
 * with ModelFS's readers and compared with the plan. Shared by {@link CommitSteps} (every backing's commit) and
 * the write-into route of {@link ModelFiles} (a FIFO, a device, a file with several links).
 */
final class PlannedFiles {
  private PlannedFiles() {}

  /**
   * Streams {@code f} into {@code ch} (the new temporary {@code t}) and forces it; returns the
   * bytes written. {@code model} names the model in messages.
   */
  static long write(ContainerPlan plan, ContainerPlan.PlannedFile f, SeekableByteChannel ch, Path t, String model,
      long writtenBefore, LongConsumer progress) throws IOException {
    try {
      try {
        try (WriteProgress p = WriteProgress.start(ch, progress, writtenBefore)) {
          f.body().writeTo(ch, t.toString());
        }
        long size = ch.size();
        Durable.force(ch);
        return size;
      } catch (IOException e) {
        long size = sizeOrMinusOne(ch);
        throw StorageFullException.explain(e, t, "writing the new container " + f.name() + " of the model " + model
            + " (commit; nothing was replaced)", size, Math.max(0, plan.arrayBytes() - writtenBefore - Math.max(0, size)));
      }
    } catch (RuntimeException e) {
      FileSystemException refused = new FileSystemException(model, null, "commit refused: the "
          + plan.format().token() + " writer failed on " + f.name() + " (" + e + "); nothing was replaced");
      refused.initCause(e);
      throw refused;
    }
  }

  /** The new model's files (temporaries, and the files it keeps) read back and compared with the plan. */
  static void verify(ContainerPlan plan, List<Path> files, String model) throws IOException {
    verify(plan, model, () -> plan.sharded() ? Models.openShards(model, files) : Models.open(files.get(0)));
  }

  /** How the new model is opened for reading back. */
  @FunctionalInterface
  interface Reopen {
    Model open() throws IOException;
  }

  /** The model {@code reopen} opens compared with the plan; a refusal names {@code model}. */
  static void verify(ContainerPlan plan, String model, Reopen reopen) throws IOException {
    List<String> problems;
    try (Model m = reopen.open()) {
      problems = plan.verify(m);
    } catch (IOException e) {
      throw new FileSystemException(model, null, "commit refused: the new container does not read"
          + " back (" + e.getMessage() + "); nothing was replaced");
    }
    if (!problems.isEmpty()) {
      throw new FileSystemException(model, null, "commit refused: the new container does not read"
          + " back as written (" + String.join("; ", problems) + "); nothing was replaced");
    }
  }

  /** The channel's size, or -1 when it cannot be had (for a message). */
  private static long sizeOrMinusOne(SeekableByteChannel ch) {
    try {
      return ch.size();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
