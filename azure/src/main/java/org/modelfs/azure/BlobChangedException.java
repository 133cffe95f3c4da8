package org.modelfs.azure;

import java.nio.file.FileSystemException;

/**
 * A read of a blob that is no longer the version the model was opened at: a commit replaced or
 * removed it. The reader gets this instead of another version's bytes.
 */
public final class BlobChangedException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  BlobChangedException(String blob, String what) {
    super(blob, null, "the model changed since it was mounted: the blob " + what + "; this mount's bytes are no"
        + " longer in the store — mount the model again");
  }
}
