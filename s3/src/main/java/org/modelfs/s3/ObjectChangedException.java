package org.modelfs.s3;

import java.nio.file.FileSystemException;

/**
 * A read of an object that is no longer the version the model was opened at: a commit replaced
 * or removed it. The reader gets this instead of another version's bytes.
 */
public final class ObjectChangedException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  ObjectChangedException(String object, String what) {
    super(object, null, "the model changed since it was mounted: the object " + what + "; this mount's bytes are no"
        + " longer in the store — mount the model again");
  }
}
