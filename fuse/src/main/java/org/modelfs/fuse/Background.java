package org.modelfs.fuse;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mount --background}: the same mount in a child JVM (same Java, class path and
 * arguments, without {@code --background}), its output in the log; returns once the kernel lists
 * the mount, or with the log's end when the child failed.
 */
final class Background {
  static final long READY_MILLIS = 60_000;

  private Background() {}

  static int start(List<String> args, Path dir, Path logFile, PrintStream out, PrintStream err) throws Exception {
    Path log = logFile != null ? logFile
        : Files.createTempFile("modelfs-mount-", ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    // the staging directory and a refused commit's copies go where this JVM's would (docs/MOUNT.md)
    cmd.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(FuseMain.class.getName());
    cmd.add("mount");
    for (String a : args) {
      if (!a.equals("--background")) {
        cmd.add(a);
      }
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process p = pb.start();
    if (MountPoints.await(dir, p, READY_MILLIS)) {
      out.println("mounted at " + dir + " (process " + p.pid() + ", log " + log + "); unmount with: fusermount -u " + dir);
      return 0;
    }
    err.println("modelfs mount: the mount at " + dir + " did not come up; its log " + log + ":");
    err.print(Files.readString(log));
    if (p.isAlive()) {
      p.destroy();
    }
    return 2;
  }
}
