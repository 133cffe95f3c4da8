package org.modelfs.fuse;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.CommitRefusedException;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;

/**
 * One mount from start to end (docs/MOUNT.md "Unmount and commit"): opens the model, mounts it,
 * and — whichever comes first: the kernel unmounting it, Ctrl-C, SIGTERM — unmounts, commits and
 * closes exactly once. A refused commit is said on the terminal and in the log, and the files it
 * would have changed are copied out ({@link Recovery}) before the model is closed unchanged.
 */
final class Session {
  private final Path model;
  /** The model as messages name it ({@link MountCommand#shown}). */
  private final String shown;
  private final Path dir;
  private final boolean readOnly;
  private final String tag;
  private final Map<String, Object> env;
  private final MountLog log;
  private final PrintStream err;
  private FileSystem fs;
  private Path staging;
  private ModelFuse fuse;
  private Writes writes;
  private boolean finished;
  private int exit;

  Session(Path model, Path dir, String tag, boolean readOnly, Map<String, Object> env, MountLog log, PrintStream err) {
    this.tag = tag;
    this.model = model;
    this.shown = MountCommand.shown(model);
    this.dir = dir;
    this.readOnly = readOnly;
    this.env = env;
    this.log = log;
    this.err = err;
  }

  int runForeground() throws IOException {
    fs = ModelFileSystems.open(model, env);
    if (tag != null && !Files.isDirectory(fs.getPath("/tags", tag))) {
      fs.close();
      throw new NoSuchFileException(shown + "!/tags/" + tag, null, "the model has no tag " + tag);
    }
    if (!readOnly) {
      WriterLock.take(fs, shown);
    }
    // made only now: a mount refused above leaves no staging directory behind
    staging = Files.createTempDirectory("modelfs-mount-");
    writes = new Writes(fs, staging, log);
    fuse = new ModelFuse(fs, model, tag, readOnly, writes, log);
    Thread hook = new Thread(this::finish, "modelfs-unmount");
    Runtime.getRuntime().addShutdownHook(hook);
    log.info("mounting " + shown + " at " + dir + (readOnly ? " (read-only)" : ""));
    try {
      fuse.mount(dir, true, false, options());
    } catch (LinkageError e) {
      err.println("modelfs mount: the FUSE library libfuse.so.2 cannot be loaded (" + e.getMessage()
          + "); install it: apt-get install libfuse2 fuse");
      exit = 2;
    } catch (RuntimeException e) {
      err.println("modelfs mount: cannot mount " + dir + ": " + e.getMessage()
          + " (is libfuse2 installed — apt-get install libfuse2 fuse — and " + dir + " not already a mount?)");
      exit = 2;
    }
    finish();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook ran finish() already
    }
    return exit;
  }

  private String[] options() {
    List<String> o = new ArrayList<>();
    o.add("fsname=modelfs");
    o.add("subtype=modelfs");
    o.add("big_writes");
    o.add("max_read=131072");
    o.add("max_readahead=1048576");
    // a stored file's reads are a range of the container's descriptor (StoredFile): splice it
    o.add("splice_write");
    if (readOnly) {
      // the generation cannot change under a read-only mount: pages and attributes stay valid
      o.add("ro");
      o.add("kernel_cache");
      o.add("attr_timeout=3600");
      o.add("entry_timeout=3600");
      o.add("negative_timeout=3600");
    } else {
      // a closed graph.json shows its canonical rendering, whose size differs from what was written
      o.add("attr_timeout=0");
      // rm of an open file removes it, as on POSIX: without this, libfuse renames it to
      // .fuse_hiddenNNNN instead — a rename inside the model, the array and its graph variable
      // under that name until the last close (docs/MOUNT.md "Writes")
      o.add("hard_remove");
      o.add("entry_timeout=1");
    }
    return new String[] {"-o", String.join(",", o)};
  }

  /** Unmounts (if still mounted), commits and closes; runs once, from whichever thread comes first. */
  synchronized void finish() {
    if (finished) {
      return;
    }
    finished = true;
    try {
      fuse.umount();
    } catch (RuntimeException e) {
      log.warn("unmount of " + dir + ": " + e.getMessage());
    }
    writes.discardAll();
    try {
      if (!readOnly && ((JournaledFileSystem) fs).hasPendingChanges()) {
        try {
          ((JournaledFileSystem) fs).commit();
          log.info("committed the changes to " + shown);
        } catch (IOException e) {
          refused(e);
        }
      }
      fs.close();
    } catch (IOException | RuntimeException e) {
      log.error("closing " + shown, e);
      err.println("modelfs mount: closing " + shown + ": " + e.getMessage());
      exit = 2;
    }
    try (Stream<Path> s = Files.walk(staging)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.warn("staging directory " + staging + " not removed: " + e.getMessage());
    }
    log.info("unmounted " + dir);
  }

  private void refused(IOException e) {
    exit = 1;
    String where;
    try {
      Path saved = Recovery.save(fs, model);
      where = "the changed files were copied to " + saved + (Files.exists(saved.resolve("NOT-COPIED.txt"))
          ? " (except those its NOT-COPIED.txt names, with the reason)" : "");
    } catch (IOException r) {
      where = "copying the changed files out failed too: " + r.getMessage();
    }
    String msg = "the commit at unmount was refused; the model " + shown + " is unchanged; " + where;
    log.error("commit", e);
    if (e instanceof CommitRefusedException c) {
      c.problems().forEach(pr -> log.warn("refused: " + pr));
    }
    log.warn(msg);
    err.println("modelfs mount: " + e.getMessage());
    err.println("modelfs mount: " + msg);
  }
}
