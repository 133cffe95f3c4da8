package org.modelfs.fuse.fuse3;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The byte offsets of libfuse 3.14's structs (x86-64 Linux) that the prototype writes and reads,
 * and {@link #check}, which compiles {@code src/bench/c/fuse3_layout.c} against the installed
 * headers ({@code /usr/include/fuse3}, Debian {@code libfuse3-dev}) and compares every line.
 */
final class Fuse3Layout {
  static final int OPS_SIZE = 336;
  static final int OP_GETATTR = 0;
  static final int OP_OPEN = 96;
  static final int OP_READ = 104;
  static final int OP_STATFS = 120;
  static final int OP_RELEASE = 136;
  static final int OP_GETXATTR = 160;
  static final int OP_LISTXATTR = 168;
  static final int OP_OPENDIR = 184;
  static final int OP_READDIR = 192;
  static final int OP_RELEASEDIR = 200;
  static final int OP_INIT = 216;
  static final int OP_READ_BUF = 296;

  static final int FI_FLAGS = 0;
  /** The word of fuse_file_info's bit fields (writepage, direct_io, keep_cache, …). */
  static final int FI_BITS = 4;
  static final int FI_KEEP_CACHE = 4;
  static final int FI_CACHE_READDIR = 64;
  static final int FI_FH = 16;

  static final int CONN_PROTO_MINOR = 4;
  static final int CONN_MAX_WRITE = 8;
  static final int CONN_MAX_READ = 12;
  static final int CONN_MAX_READAHEAD = 16;
  static final int CONN_CAPABLE = 20;
  static final int CONN_WANT = 24;
  static final int CAP_SPLICE_WRITE = 128;
  static final int CAP_SPLICE_MOVE = 256;
  static final int CAP_READDIRPLUS = 8192;
  static final int CAP_POSIX_ACL = 1 << 19;

  static final int CFG_ENTRY_TIMEOUT = 24;
  static final int CFG_NEGATIVE_TIMEOUT = 32;
  static final int CFG_ATTR_TIMEOUT = 40;
  static final int CFG_KERNEL_CACHE = 76;

  static final int BUF_SIZE = 40;
  static final int BUF_FLAGS = 8;
  static final int BUF_MEM = 16;
  static final int BUF_FD = 24;
  static final int BUF_POS = 32;
  static final int BUFVEC_SIZE = 64;
  static final int BUFVEC_BUF = 24;
  static final int BUF_IS_FD = 2;
  static final int BUF_FD_SEEK = 4;

  static final int ARGS_SIZE = 24;
  static final int READDIR_PLUS = 1;
  static final int FILL_DIR_PLUS = 2;

  static final int STAT_SIZE = 144;
  static final int ST_INO = 8;
  static final int ST_NLINK = 16;
  static final int ST_MODE = 24;
  static final int ST_UID = 28;
  static final int ST_GID = 32;
  static final int ST_SIZE = 48;
  static final int ST_BLKSIZE = 56;
  static final int ST_BLOCKS = 64;
  static final int ST_ATIM = 72;
  static final int ST_MTIM = 88;
  static final int ST_CTIM = 104;

  static final int STATVFS_SIZE = 112;
  static final int F_BSIZE = 0;
  static final int F_FRSIZE = 8;
  static final int F_BLOCKS = 16;
  static final int F_BFREE = 24;
  static final int F_BAVAIL = 32;
  static final int F_NAMEMAX = 80;

  private Fuse3Layout() {}

  /** What fuse3_layout.c prints, line by line, if the table above is right. */
  static Map<String, Integer> expected() {
    Object[] table = {
      "fuse_operations", OPS_SIZE, "fuse_operations.getattr", OP_GETATTR, "fuse_operations.open", OP_OPEN,
      "fuse_operations.read", OP_READ, "fuse_operations.statfs", OP_STATFS, "fuse_operations.release", OP_RELEASE,
      "fuse_operations.getxattr", OP_GETXATTR, "fuse_operations.listxattr", OP_LISTXATTR,
      "fuse_operations.opendir", OP_OPENDIR, "fuse_operations.readdir", OP_READDIR,
      "fuse_operations.releasedir", OP_RELEASEDIR, "fuse_operations.init", OP_INIT,
      "fuse_operations.read_buf", OP_READ_BUF,
      "fuse_file_info", 40, "fuse_file_info.flags", FI_FLAGS, "fuse_file_info.fh", FI_FH,
      "fuse_file_info.keep_cache.bit", FI_KEEP_CACHE, "fuse_file_info.cache_readdir.bit", FI_CACHE_READDIR,
      "fuse_conn_info", 128, "fuse_conn_info.proto_minor", CONN_PROTO_MINOR, "fuse_conn_info.max_write", CONN_MAX_WRITE,
      "fuse_conn_info.max_read", CONN_MAX_READ, "fuse_conn_info.max_readahead", CONN_MAX_READAHEAD,
      "fuse_conn_info.capable", CONN_CAPABLE, "fuse_conn_info.want", CONN_WANT,
      "fuse_config", 128, "fuse_config.entry_timeout", CFG_ENTRY_TIMEOUT,
      "fuse_config.negative_timeout", CFG_NEGATIVE_TIMEOUT, "fuse_config.attr_timeout", CFG_ATTR_TIMEOUT,
      "fuse_config.kernel_cache", CFG_KERNEL_CACHE,
      "fuse_buf", BUF_SIZE, "fuse_buf.size", 0, "fuse_buf.flags", BUF_FLAGS, "fuse_buf.mem", BUF_MEM,
      "fuse_buf.fd", BUF_FD, "fuse_buf.pos", BUF_POS,
      "fuse_bufvec", BUFVEC_SIZE, "fuse_bufvec.count", 0, "fuse_bufvec.idx", 8, "fuse_bufvec.off", 16,
      "fuse_bufvec.buf", BUFVEC_BUF, "fuse_args", ARGS_SIZE,
      "stat", STAT_SIZE, "stat.st_ino", ST_INO, "stat.st_nlink", ST_NLINK, "stat.st_mode", ST_MODE,
      "stat.st_uid", ST_UID, "stat.st_gid", ST_GID, "stat.st_size", ST_SIZE, "stat.st_blksize", ST_BLKSIZE,
      "stat.st_blocks", ST_BLOCKS, "stat.st_atim", ST_ATIM, "stat.st_mtim", ST_MTIM, "stat.st_ctim", ST_CTIM,
      "statvfs", STATVFS_SIZE, "statvfs.f_bsize", F_BSIZE, "statvfs.f_frsize", F_FRSIZE,
      "statvfs.f_blocks", F_BLOCKS, "statvfs.f_bfree", F_BFREE, "statvfs.f_bavail", F_BAVAIL,
      "statvfs.f_namemax", F_NAMEMAX,
      "FUSE_BUF_IS_FD", BUF_IS_FD, "FUSE_BUF_FD_SEEK", BUF_FD_SEEK, "FUSE_CAP_SPLICE_WRITE", CAP_SPLICE_WRITE,
      "FUSE_CAP_SPLICE_MOVE", CAP_SPLICE_MOVE, "FUSE_CAP_READDIRPLUS", CAP_READDIRPLUS,
      "FUSE_CAP_POSIX_ACL", CAP_POSIX_ACL,
      "FUSE_READDIR_PLUS", READDIR_PLUS, "FUSE_FILL_DIR_PLUS", FILL_DIR_PLUS,
    };
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < table.length; i += 2) {
      m.put((String) table[i], (Integer) table[i + 1]);
    }
    return m;
  }

  /**
   * Compiles and runs fuse3_layout.c ({@code cc}, the libfuse3 headers) and fails naming every
   * line that differs from {@link #expected}; returns how many lines it compared.
   */
  static int check(Path source, Path work) throws IOException, InterruptedException {
    Path exe = work.resolve("fuse3_layout");
    Process cc = new ProcessBuilder("cc", "-o", exe.toString(), source.toString()).inheritIO().start();
    if (cc.waitFor() != 0) {
      throw new IOException("cc " + source + " failed: are the libfuse3 headers installed (apt-get install libfuse3-dev)?");
    }
    Process run = new ProcessBuilder(exe.toString()).redirectErrorStream(true).start();
    List<String> lines = new String(run.getInputStream().readAllBytes()).lines().toList();
    run.waitFor();
    Map<String, Integer> want = expected();
    StringBuilder wrong = new StringBuilder();
    for (String l : lines) {
      String[] kv = l.split(" ");
      Integer w = want.remove(kv[0]);
      if (w == null || w != Integer.parseInt(kv[1])) {
        wrong.append("\n  ").append(kv[0]).append(": headers ").append(kv[1]).append(", Fuse3Layout ").append(w);
      }
    }
    want.keySet().forEach(k -> wrong.append("\n  ").append(k).append(": not printed by ").append(source.getFileName()));
    if (wrong.length() > 0) {
      throw new IOException("libfuse3's struct layout differs from Fuse3Layout's:" + wrong);
    }
    return lines.size();
  }

  public static void main(String[] args) throws Exception {
    Path work = Files.createTempDirectory("fuse3-layout");
    int n = check(Path.of(args.length > 0 ? args[0] : "src/bench/c/fuse3_layout.c"), work);
    System.out.println("fuse3 layout: " + n + " offsets, sizes and constants agree with /usr/include/fuse3");
  }
}
