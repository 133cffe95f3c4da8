package org.modelfs.fuse;

import org.modelfs.store.Backings;
import org.modelfs.store.Shown;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code modelfs mount MODEL DIR [options]} (docs/MOUNT.md). */
final class MountCommand {
  static final String USAGE = "mount MODEL DIR [--read-only] [--tag TAG] [--background] [--log FILE] [-o KEY=VALUE,…]";

  static final String HELP = String.join("\n",
      "Mounts the model's tree (docs/FILESYSTEM.md) at the directory DIR through FUSE, so that every",
      "program reads it: ls, find, du, cp, rsync, diff -r, tar, NumPy's fromfile and memmap. Runs until",
      "unmounted (fusermount -u DIR, umount DIR, Ctrl-C or SIGTERM); the changes are committed then.",
      "",
      "Needs: /dev/fuse, the FUSE 2 library (Debian/Ubuntu: apt-get install libfuse2 fuse) and root or",
      "membership of the fuse group. getfattr/setfattr come with the attr package.",
      "",
      "options:",
      "  --read-only     no writes (EROFS); the kernel keeps pages across opens (kernel_cache)",
      "  --tag TAG       mount only the tag TAG: DIR shows its graph, graph.json, params/, …",
      "  --background    return once the mount is ready; the mount process logs to --log",
      "  --log FILE      the log (default: standard error; with --background a file in $TMPDIR)",
      "  -o KEY=VALUE    a mount env option of docs/FILESYSTEM.md §6.1 (format, compression,",
      "                  maxShardBytes, byteOrder), repeatable or comma-separated",
      "",
      "Writes: cp, echo >, an editor's save (sed -i), mv, rm, rm -r, mkdir go to the model's journal when",
      "each file is closed; the commit happens at unmount or with 'modelfs commit DIR'",
      "(setfattr -n user.modelfs.commit -v 1 DIR). In scripts unmount with 'modelfs unmount DIR': it",
      "commits, unmounts and waits for this process to end (fusermount -u returns before the commit).",
      "A file's bytes are checked when it is closed:",
      "a refused graph.json is close's EINVAL ('Invalid argument'), the problems are in the log.",
      "Array attributes: getfattr -d FILE shows user.samediff.dtype, .shape, .order, .kind, .byteOrder;",
      "setfattr -n user.samediff.dtype -v DOUBLE FILE sets dtype, shape, order or kind.",
      "",
      "Departures from POSIX (docs/MOUNT.md): modes, owners and times are not stored (chmod, chown,",
      "touch succeed and change nothing; rsync into the mount with -I); fsync does not commit; no",
      "symbolic links, FIFOs or devices (EPERM); ln shares an array, not a POSIX hard link; '%' in a",
      "name starts an escape (%41 is A; write a literal % as %25); a writable mount holds the model's",
      "writer lock (a second writable mount is refused); a file's bytes reach the model at close, not",
      "at each write; a file created where the model has no place for it (an editor's temporary",
      "beside graph.json) lives only in the mount until renamed onto a model name, and is dropped",
      "at unmount; a refused write loses",
      "its bytes (close fails) instead of leaving them half-written; the area directories params/,",
      "updater/, metadata/ of every tag always exist; a commit refused at unmount copies the changed",
      "files to a directory it names and leaves the model unchanged.",
      "",
      "example:",
      "  modelfs mount --background model.sdz /mnt/m && ls -l /mnt/m/params && fusermount -u /mnt/m");

  private MountCommand() {}

  static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
    List<String> pos = new ArrayList<>();
    boolean readOnly = false;
    boolean background = false;
    String tag = null;
    Path logFile = null;
    Map<String, Object> env = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      switch (a) {
        case "--read-only" -> readOnly = true;
        case "--background" -> background = true;
        case "--tag" -> tag = value(args, ++i, a);
        case "--log" -> logFile = Path.of(value(args, ++i, a));
        case "-o" -> {
          for (String kv : value(args, ++i, a).split(",")) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException("-o " + kv + ": expected KEY=VALUE");
            }
            env.put(kv.substring(0, eq), kv.substring(eq + 1));
          }
        }
        default -> {
          if (a.startsWith("-")) {
            throw new IllegalArgumentException("unknown option " + a);
          }
          pos.add(a);
        }
      }
    }
    if (pos.size() != 2) {
      throw new IllegalArgumentException("expected MODEL and DIR");
    }
    Path model = modelPath(pos.get(0));
    Path dir = Path.of(pos.get(1)).toAbsolutePath().normalize();
    if (!Files.exists(Path.of("/dev/fuse"))) {
      err.println("modelfs mount: /dev/fuse is missing: this machine (or container) offers no FUSE");
      return 2;
    }
    if (MountPoints.isMounted(dir)) {
      err.println("modelfs mount: " + dir + " is already a ModelFS mount (if its process has ended — \"Transport"
          + " endpoint is not connected\" — remove it with: fusermount -u " + dir + ")");
      return 2;
    }
    if (!Files.isDirectory(dir)) {
      err.println("modelfs mount: " + dir + ": not a directory (the mount point must exist)");
      return 2;
    }
    if (background) {
      return Background.start(args, dir, logFile, out, err);
    }
    PrintStream logOut = logFile == null ? err : new PrintStream(Files.newOutputStream(logFile,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND), true, "UTF-8");
    if (readOnly) {
      env.put("readOnly", "true");
    }
    env.put("commitOnClose", "false");
    Session s = new Session(model, dir, tag, readOnly, env, new MountLog(logOut), err);
    return s.runForeground();
  }

  /**
   * MODEL as the core's CLI reads it: a URI of an installed provider ({@code s3x://host/bucket/key}
   * with the s3 module on the class path), else a local path.
   */
  static Path modelPath(String arg) {
    int colon = arg.indexOf("://");
    if (colon > 1) {
      String scheme = arg.substring(0, colon);
      for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
        if (p.getScheme().equalsIgnoreCase(scheme)) {
          return Backings.path(URI.create(arg));
        }
      }
    }
    return Path.of(arg);
  }

  /**
   * MODEL as the mount's messages name it: a local path as is; a provider's path as its URI
   * ({@code s3x://host:port/bucket/key} — its own {@code toString()} is the key alone), without
   * the credentials a user may have written into it.
   */
  static String shown(Path model) {
    return Shown.path(model);
  }

  private static String value(List<String> args, int i, String opt) {
    if (i >= args.size()) {
      throw new IllegalArgumentException(opt + " needs a value");
    }
    return args.get(i);
  }
}
