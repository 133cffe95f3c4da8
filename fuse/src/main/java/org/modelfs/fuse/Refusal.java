package org.modelfs.fuse;

import java.nio.file.FileSystemException;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * A refusal of the mount's own, with the errno a POSIX file system gives for it (docs/MOUNT.md
 * "Errors → errno"): a new name longer than {@code NAME_MAX} ({@code ENAMETOOLONG}), a rename or a
 * directory the model has no place for ({@code EPERM}), the model's writer lock held by another
 * writer ({@code EBUSY}), a file's content the model refuses at close ({@code EINVAL}). {@link Errno} answers its errno; the message goes to the log.
 */
final class Refusal extends FileSystemException {
  private static final long serialVersionUID = 1L;
  /** The positive errno. */
  final int errno;

  private Refusal(String file, String reason, int errno) {
    super(file, null, reason);
    this.errno = errno;
  }

  static Refusal nameTooLong(String p, int bytes) {
    return new Refusal(p, "a name of " + bytes + " bytes; a name has at most " + ModelNames.NAME_MAX
        + " (NAME_MAX, as on ext4 and tmpfs)", ErrorCodes.ENAMETOOLONG());
  }

  static Refusal invalid(String file, String reason) {
    return new Refusal(file, reason, ErrorCodes.EINVAL());
  }

  static Refusal notPermitted(String file, String reason) {
    return new Refusal(file, reason, ErrorCodes.EPERM());
  }

  static Refusal busy(String file, String reason) {
    return new Refusal(file, reason, ErrorCodes.EBUSY());
  }
}
