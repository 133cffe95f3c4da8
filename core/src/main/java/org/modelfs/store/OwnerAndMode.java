package org.modelfs.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a file that replaces another keeps of it (docs/CLI.md, "Output files"): owner, group and
 * mode, setuid/setgid/sticky included — for {@link OutputFile} and every commit
 * ({@link LocalBacking#commit}, {@link ModelFiles}).
 */
final class OwnerAndMode {
  private OwnerAndMode() {}

  /**
   * Narrows the permissions of {@code made} (a temporary just created, still empty) to those of
   * {@code old}, the file it will replace, keeping the owner's read and write: while it is written
   * a temporary is never readable by more than the file it replaces (a 0600 model's new bytes
   * are not world-readable for a moment). {@link #keep} sets the final mode.
   */
  static void restrictLike(Path made, Path old) throws IOException {
    PosixFileAttributeView ov = Files.getFileAttributeView(old,
        PosixFileAttributeView.class);
    PosixFileAttributeView mv = Files.getFileAttributeView(made,
        PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (ov == null || mv == null) {
      return;
    }
    Set<PosixFilePermission> p = EnumSet.noneOf(
        PosixFilePermission.class);
    p.addAll(mv.readAttributes().permissions());
    p.retainAll(ov.readAttributes().permissions());
    p.add(PosixFilePermission.OWNER_READ);
    p.add(PosixFilePermission.OWNER_WRITE);
    mv.setPermissions(p);
  }

  /**
   * Gives {@code made} (a file this process made) the owner, group and mode — setuid, setgid and
   * sticky bits included — of {@code old}; owner and group only where they differ.
   */
  static void keep(Path made, Path old) throws IOException {
    try {
      Object uid = Files.getAttribute(old, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      Object gid = Files.getAttribute(old, "unix:gid", LinkOption.NOFOLLOW_LINKS);
      Object mode = Files.getAttribute(old, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      if (!uid.equals(Files.getAttribute(made, "unix:uid", LinkOption.NOFOLLOW_LINKS))) {
        Files.setAttribute(made, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
      }
      if (!gid.equals(Files.getAttribute(made, "unix:gid", LinkOption.NOFOLLOW_LINKS))) {
        Files.setAttribute(made, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
      }
      Files.setAttribute(made, "unix:mode", (Integer) mode & 07777, LinkOption.NOFOLLOW_LINKS);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      keepPosixAttributes(made, old);
    } catch (IOException e) {
      throw new OutputFile.AttributesNotKept(old, e);
    }
  }

  /** {@link #keep} where only the POSIX view exists (no setuid bits there). */
  private static void keepPosixAttributes(Path made, Path old) throws IOException {
    PosixFileAttributeView ov = Files.getFileAttributeView(old,
        PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    PosixFileAttributeView mv = Files.getFileAttributeView(made,
        PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (ov == null || mv == null) {
      return; // a file system without owners or modes: nothing to keep
    }
    try {
      PosixFileAttributes o = ov.readAttributes();
      PosixFileAttributes m = mv.readAttributes();
      if (!o.owner().equals(m.owner())) {
        mv.setOwner(o.owner());
      }
      if (!o.group().equals(m.group())) {
        mv.setGroup(o.group());
      }
      mv.setPermissions(o.permissions());
    } catch (IOException | UnsupportedOperationException e) {
      throw new OutputFile.AttributesNotKept(old, e instanceof IOException io ? io : new IOException(e.getMessage()));
    }
  }
}
