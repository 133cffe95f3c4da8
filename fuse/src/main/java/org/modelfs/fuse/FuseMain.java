package org.modelfs.fuse;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.modelfs.cli.Main;

/**
 * The {@code modelfs} command line of the FUSE module's jar (target/modelfs-fuse.jar): the
 * core's commands plus {@code mount}, {@code commit} and {@code unmount} (docs/MOUNT.md). The core
 * stays free of FUSE; everything but these verbs goes to {@link Main}.
 */
public final class FuseMain {
  private FuseMain() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    if (args.length == 0 || args.length == 1 && (args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h"))) {
      PrintStream s = args.length == 0 ? err : out;
      int code = Main.run(args, s, s);
      s.println();
      s.println("this jar adds (modelfs help mount):");
      s.println("  mount     " + MOUNT_SUMMARY);
      s.println("  commit    " + COMMIT_SUMMARY);
      s.println("  unmount   " + UNMOUNT_SUMMARY);
      s.flush();
      System.exit(code);
    }
    if (!(VERBS.contains(args[0]) || args[0].equals("help") && args.length == 2 && VERBS.contains(args[1]))) {
      Main.main(args);
      return;
    }
    out.flush();
    System.exit(run(args, out, err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    boolean help = args[0].equals("help");
    String verb = help ? args[1] : args[0];
    List<String> rest = Arrays.asList(args).subList(help ? 2 : 1, args.length);
    if (help || rest.contains("--help") || rest.contains("-h")) {
      out.println("usage: modelfs " + usage(verb));
      out.println();
      out.println(verb.equals("mount") ? MountCommand.HELP : verb.equals("commit") ? COMMIT_HELP : UNMOUNT_HELP);
      return 0;
    }
    try {
      return verb.equals("mount") ? MountCommand.run(rest, out, err)
          : verb.equals("commit") ? commit(rest, out, err) : unmount(rest, out, err);
    } catch (IllegalArgumentException e) {
      err.println("modelfs " + verb + ": " + e.getMessage());
      err.println("usage: modelfs " + usage(verb));
      return 2;
    } catch (Exception e) {
      err.println("modelfs " + verb + ": " + e.getMessage());
      return 2;
    }
  }

  /** The verbs this jar adds; the core's docs.DocCliTest reads this declaration from the source, keep its form. */
  static final List<String> VERBS = List.of("mount", "commit", "unmount");
  static final String MOUNT_SUMMARY = "mount the model at a directory through FUSE, for every program (ls, cp, NumPy)";
  static final String COMMIT_SUMMARY = "commit what was written in a mount, keeping it mounted";
  static final String COMMIT_USAGE = "commit DIR";
  static final String UNMOUNT_SUMMARY = "commit, unmount and wait until the mount's process has ended";
  static final String UNMOUNT_HELP = String.join("\n",
      "Commits the ModelFS mount at DIR (as modelfs commit), unmounts it (fusermount -u) and returns",
      "once the mounting process has ended, so that a script's next command sees the committed model.",
      "fusermount -u alone returns at once, while the commit at unmount still runs. A refused commit",
      "keeps the mount (exit 1; the mount's log lists the problems).");

  private static String usage(String verb) {
    return verb.equals("mount") ? MountCommand.USAGE : verb.equals("commit") ? COMMIT_USAGE : "unmount DIR";
  }

  /** The one argument DIR, when a ModelFS mount is there; else null. */
  private static Path mountDir(List<String> rest) {
    if (rest.size() != 1) {
      throw new IllegalArgumentException("expected DIR");
    }
    Path dir = Path.of(rest.get(0)).toAbsolutePath().normalize();
    return MountPoints.isMounted(dir) ? dir : null;
  }

  static int unmount(List<String> rest, PrintStream out, PrintStream err) throws Exception {
    Path dir = mountDir(rest);
    if (dir == null) {
      err.println("modelfs unmount: " + rest.get(0) + " is not a ModelFS mount");
      return 2;
    }
    UserDefinedFileAttributeView v = Files.getFileAttributeView(dir, UserDefinedFileAttributeView.class);
    ByteBuffer pid = ByteBuffer.allocate(32);
    v.read(Control.PID.substring("user.".length()), pid);
    long id = Long.parseLong(new String(pid.array(), 0, pid.position(), StandardCharsets.US_ASCII).trim());
    int committed = commit(rest, new PrintStream(OutputStream.nullOutputStream()), err);
    if (committed != 0) {
      return committed;
    }
    Process p = new ProcessBuilder("fusermount", "-u", dir.toString()).inheritIO().start();
    if (p.waitFor() != 0) {
      err.println("modelfs unmount: fusermount -u " + dir + " failed (is it busy? lsof +D " + dir + ")");
      return 2;
    }
    Optional<ProcessHandle> h = ProcessHandle.of(id);
    if (h.isPresent()) {
      try {
        h.get().onExit().get(10, TimeUnit.MINUTES);
      } catch (TimeoutException e) {
        err.println("modelfs unmount: the mount's process " + id + " has not ended after 10 minutes");
        return 2;
      }
    }
    out.println("committed and unmounted " + dir);
    return 0;
  }
  static final String COMMIT_HELP = String.join("\n",
      "Commits what was written and closed in the ModelFS mount at DIR, as unmounting does, and keeps",
      "it mounted. The same as: setfattr -n user.modelfs.commit -v 1 DIR. A refused commit changes",
      "nothing and keeps the changes; the mount's log lists every problem.");

  static int commit(List<String> rest, PrintStream out, PrintStream err) throws Exception {
    Path dir = mountDir(rest);
    if (dir == null) {
      err.println("modelfs commit: " + rest.get(0) + " is not a ModelFS mount");
      return 2;
    }
    UserDefinedFileAttributeView v = Files.getFileAttributeView(dir, UserDefinedFileAttributeView.class);
    try {
      v.write(Control.COMMIT.substring("user.".length()), ByteBuffer.wrap("1".getBytes(StandardCharsets.US_ASCII)));
    } catch (FileSystemException e) {
      err.println("modelfs commit: the commit of " + dir + " was refused (" + e.getReason()
          + "); nothing changed; the mount's log lists the problems");
      return 1;
    }
    out.println("committed " + dir);
    return 0;
  }
}
