package org.modelfs.fuse;

import java.nio.file.NoSuchFileException;
import java.util.function.Supplier;
import ru.serce.jnrfuse.ErrorCodes;

/**
 * How every FUSE call of the mount ends (docs/MOUNT.md "Errors → errno"), in one place: the
 * call's result, or — when it throws — the errno {@link Errno} gives its exception, with the
 * exception logged (the file, the structure and the reason). A lookup of a missing name and an
 * unsupported attribute are not logged: tools ask for those all the time. A change on a
 * read-only mount is {@code EROFS} before it runs.
 */
final class Calls {
  /** The body of a FUSE call: its result (≥ 0) or a negated errno. */
  interface Call {
    int run() throws Exception;
  }

  /** The body of a FUSE call that answers 0 when it returns. */
  interface Action {
    void run() throws Exception;
  }

  private final MountLog log;
  private final boolean readOnly;

  Calls(MountLog log, boolean readOnly) {
    this.log = log;
    this.readOnly = readOnly;
  }

  boolean readOnly() {
    return readOnly;
  }

  /** Runs {@code call} ({@code op} on {@code path}, as the log names it): its result or its exception's errno. */
  int run(String op, String path, Call call) {
    return run(op, () -> path, call);
  }

  /** Runs {@code call} as {@link #run(String, String, Call)}, the path made only when it is logged. */
  int run(String op, Supplier<String> path, Call call) {
    try {
      return call.run();
    } catch (Exception | Error e) {
      // an Error too (a class that failed to load, a stack overflow): EIO for this call, logged,
      // rather than whatever jnr-ffi makes of a throwable leaving a native callback
      if (!(e instanceof NoSuchFileException) && !(e instanceof UnsupportedOperationException)) {
        log.error(op + " " + path.get(), e);
      }
      return Errno.of(e);
    }
  }

  /** Runs {@code action}, a call that answers 0. */
  int done(String op, String path, Action action) {
    return run(op, path, () -> {
      action.run();
      return 0;
    });
  }

  /** Runs {@code action}, a change of the model: {@code EROFS} on a read-only mount. */
  int change(String op, String path, Action action) {
    return readOnly ? -ErrorCodes.EROFS() : done(op, path, action);
  }
}
