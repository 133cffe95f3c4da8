package org.modelfs.fuse;

/**
 * The mount's one control (docs/MOUNT.md "Commit"): setting the extended attribute
 * {@code user.modelfs.commit} on the mount's root commits what was written and closed so far;
 * a refusal is the errno of setfattr (EINVAL) with every problem in the log. {@code modelfs
 * commit DIR} does exactly that.
 */
final class Control {
  static final String COMMIT = "user.modelfs.commit";
  /** Read on the mount's root: the id of the process that serves the mount ({@code modelfs unmount} waits for it). */
  static final String PID = "user.modelfs.pid";

  private Control() {}
}
