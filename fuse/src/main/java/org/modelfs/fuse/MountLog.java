package org.modelfs.fuse;

import java.io.PrintStream;
import java.time.Instant;

/** The mount's log: every refused operation with its message, every warning, the commit's outcome. */
final class MountLog {
  private final PrintStream out;

  MountLog(PrintStream out) {
    this.out = out;
  }

  void info(String msg) {
    out.println(Instant.now() + " modelfs mount: " + msg);
  }

  void warn(String msg) {
    out.println(Instant.now() + " modelfs mount: warning: " + msg);
  }

  void error(String what, Throwable e) {
    out.println(Instant.now() + " modelfs mount: " + what + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
  }
}
