package org.modelfs.store;

import java.nio.file.FileSystemException;

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
}
