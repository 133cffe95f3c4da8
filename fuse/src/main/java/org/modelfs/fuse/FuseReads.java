package org.modelfs.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import jnr.ffi.Pointer;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Statvfs;

/**
 * The FUSE calls that read the mounted model (docs/MOUNT.md "Reads"): each call's path turned
 * into the model's ({@code --tag}) and handed to the class that does that job — {@link Listing}
 * (stat, readdir), {@link OpenFiles} (open, read, close), {@link XattrCalls} — through {@link
 * Calls}, which turns an exception into its errno. {@link ModelFuse} adds the calls that change it.
 */
abstract class FuseReads extends FuseStubFS {
  final FileSystem fs;
  final Writes writes;
  final Calls calls;
  final Stats stats;
  final Listing listing;
  final OpenFiles files;
  final XattrCalls xattrs;
  /** "/tags/T" when only tag T is mounted (--tag T), else null. */
  final String tagRoot;
  /** The read call as libfuse makes it; kept here, the closure libfuse calls lives as long as it. */
  private final ReadCall.ReadBuf readCall = this::readBuf;

  FuseReads(FileSystem fs, Path model, String tag, boolean readOnly, Writes writes, MountLog log) throws IOException {
    this.tagRoot = tag == null ? null : "/tags/" + tag;
    this.fs = fs;
    this.writes = writes;
    this.calls = new Calls(log, readOnly);
    this.stats = new Stats(model, readOnly);
    this.listing = new Listing(fs, writes, stats, readOnly);
    this.files = new OpenFiles(fs, writes);
    this.xattrs = new XattrCalls(writes);
    ReadCall.install(fuseOperations, readCall);
  }

  /**
   * The model's path of a path in the mount: itself, or below the mounted tag's directory
   * (--tag); null for a file removed while open (libfuse gives no path then: {@code hard_remove}).
   */
  String m(String fp) {
    return tagRoot == null || fp == null ? fp : fp.equals("/") ? tagRoot : tagRoot + fp;
  }

  /** A call's body, given the model's path. */
  interface OnPath {
    int run(String p) throws Exception;
  }

  /** A change's body, given the model's path. */
  interface ChangeOnPath {
    void run(String p) throws Exception;
  }

  /** Runs {@code op} on the model's path of {@code fp} through {@link Calls#run}. */
  int on(String op, String fp, OnPath call) {
    String p = m(fp);
    return calls.run(op, p, () -> call.run(p));
  }

  /** Runs {@code op}, a change of the model, on the model's path of {@code fp} through {@link Calls#change}. */
  int change(String op, String fp, ChangeOnPath action) {
    String p = m(fp);
    return calls.change(op, p, () -> action.run(p));
  }

  @Override
  public Pointer init(Pointer conn) {
    // fuse_conn_info (libfuse 2.9): capable at byte 20, want at 24. FUSE_CAP_ATOMIC_O_TRUNC: an
    // open(O_TRUNC) arrives as one open with the flag instead of truncate(0) then open, so a
    // file's bytes are replaced once, at close (graph.json is never seen empty)
    if (conn != null && (conn.getInt(20) & (1 << 3)) != 0) {
      conn.putInt(24, conn.getInt(24) | (1 << 3));
    }
    return null;
  }

  @Override
  public int getattr(String fp, FileStat st) {
    return on("stat", fp, p -> listing.getattr(p, st));
  }

  @Override
  public int readdir(String fp, Pointer buf, FuseFillDir filler, long offset, FuseFileInfo fi) {
    return on("readdir", fp, p -> listing.readdir(p, buf, filler));
  }

  @Override
  public int open(String fp, FuseFileInfo fi) {
    return on("open", fp, p -> files.open(p, fi, calls.readOnly()));
  }

  /** read(2) of an open file, as {@link ReadCall} takes it: the path is decoded only to log an error. */
  private int readBuf(Pointer path, Pointer bufp, long size, long offset, Pointer fi) {
    // the path is null for a file removed while open (hard_remove with flag_nullpath_ok: ModelFuse)
    return calls.run("read",
        () -> path == null ? "(a file removed while open)" : m(path.getString(0, 4096, StandardCharsets.UTF_8)),
        () -> files.readBuf(bufp, size, offset, fi.getLong(ReadCall.FH)));
  }

  @Override
  public int release(String fp, FuseFileInfo fi) {
    return on("release", fp, p -> files.release(p, fi));
  }

  @Override
  public int fsync(String p, int isdatasync, FuseFileInfo fi) {
    return 0; // the model's unit of durability is the commit
  }

  @Override
  public int access(String p, int mask) {
    return 0;
  }

  @Override
  public int statfs(String p, Statvfs st) {
    stats.statfs(st);
    return 0;
  }

  @Override
  public int getxattr(String fp, String name, Pointer value, long size) {
    if (!name.startsWith("user.")) {
      // ls -l asks security.selinux and system.posix_acl_access of every file. The mount has no
      // such namespace, and says so as the kernel does for a namespace a file system lacks:
      // EOPNOTSUPP, which ls (and gnulib's file_has_acl) remember for the whole device and stop
      // asking; ENODATA would be asked again for every file (docs/MOUNT.md "Extended attributes")
      return -ErrorCodes.EOPNOTSUPP();
    }
    return on("getxattr " + name, fp, p -> xattrs.get(p, fp.equals("/"), name, value, size));
  }

  @Override
  public int listxattr(String fp, Pointer list, long size) {
    return on("listxattr", fp, p -> xattrs.list(p, list, size));
  }
}
