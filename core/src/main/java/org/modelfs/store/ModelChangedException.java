package org.modelfs.store;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.List;

/**
 * A commit refused because the model's stored files are no longer the ones its writer mounted:
 * another writer (another mount, another process, a CLI command) committed in between. Nothing
 * was written; committing would have silently dropped the other writer's change.
 */
public final class ModelChangedException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  public ModelChangedException(String model, Generation mounted, Generation now) {
    super(model, null, "the model changed since it was mounted (another writer committed: mounted "
        + mounted + ", now " + now + "); nothing was written — mount it again and redo the change");
  }

  /** What the store holds now, asked after a conditional commit was refused. */
  @FunctionalInterface
  public interface Now {
    Generation generation() throws IOException;
  }

  /**
   * A store's conditional commit refused (a 412: another writer's commit landed first), as the
   * user reads it: the generation {@code expected}, and what {@code now} says is stored (or why
   * that could not be read), {@code refused} as the cause.
   */
  public static ModelChangedException refused(String model, Generation expected, Now now, IOException refused) {
    Generation g;
    try {
      g = now.generation();
    } catch (IOException again) {
      refused.addSuppressed(again);
      g = new Generation(List.of("(unknown: " + again.getMessage() + ")"));
    }
    ModelChangedException changed = new ModelChangedException(model, expected, g);
    changed.initCause(refused);
    return changed;
  }
}
