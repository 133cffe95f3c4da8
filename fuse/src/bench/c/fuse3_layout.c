/* The struct layouts the FUSE 3 prototype (org.modelfs.fuse.fuse3) writes and reads, as the
   installed headers define them: Fuse3Layout.check() compiles this with the system's compiler
   against /usr/include/fuse3 (Debian libfuse3-dev) and compares every line with its own table. */
#define FUSE_USE_VERSION 314
#define _FILE_OFFSET_BITS 64
#include <fuse3/fuse.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <stdio.h>
#include <stddef.h>
#define OFF(s, f) printf("%s.%s %zu\n", #s, #f, offsetof(struct s, f))
#define SIZE(s) printf("%s %zu\n", #s, sizeof(struct s))

int main(void) {
  SIZE(fuse_operations);
  OFF(fuse_operations, getattr); OFF(fuse_operations, open); OFF(fuse_operations, read);
  OFF(fuse_operations, statfs); OFF(fuse_operations, release); OFF(fuse_operations, getxattr);
  OFF(fuse_operations, listxattr); OFF(fuse_operations, opendir); OFF(fuse_operations, readdir);
  OFF(fuse_operations, releasedir); OFF(fuse_operations, init); OFF(fuse_operations, read_buf);
  SIZE(fuse_file_info);
  OFF(fuse_file_info, flags); OFF(fuse_file_info, fh);
  struct fuse_file_info fi = {0};
  fi.keep_cache = 1;
  printf("fuse_file_info.keep_cache.bit %u\n", ((unsigned *) &fi)[1]);
  struct fuse_file_info fj = {0};
  fj.cache_readdir = 1;
  printf("fuse_file_info.cache_readdir.bit %u\n", ((unsigned *) &fj)[1]);
  SIZE(fuse_conn_info);
  OFF(fuse_conn_info, proto_minor); OFF(fuse_conn_info, max_write); OFF(fuse_conn_info, max_read);
  OFF(fuse_conn_info, max_readahead); OFF(fuse_conn_info, capable); OFF(fuse_conn_info, want);
  SIZE(fuse_config);
  OFF(fuse_config, entry_timeout); OFF(fuse_config, negative_timeout); OFF(fuse_config, attr_timeout);
  OFF(fuse_config, kernel_cache);
  SIZE(fuse_buf);
  OFF(fuse_buf, size); OFF(fuse_buf, flags); OFF(fuse_buf, mem); OFF(fuse_buf, fd); OFF(fuse_buf, pos);
  SIZE(fuse_bufvec);
  OFF(fuse_bufvec, count); OFF(fuse_bufvec, idx); OFF(fuse_bufvec, off); OFF(fuse_bufvec, buf);
  SIZE(fuse_args);
  SIZE(stat);
  OFF(stat, st_ino); OFF(stat, st_nlink); OFF(stat, st_mode); OFF(stat, st_uid); OFF(stat, st_gid);
  OFF(stat, st_size); OFF(stat, st_blksize); OFF(stat, st_blocks); OFF(stat, st_atim); OFF(stat, st_mtim);
  OFF(stat, st_ctim);
  SIZE(statvfs);
  OFF(statvfs, f_bsize); OFF(statvfs, f_frsize); OFF(statvfs, f_blocks); OFF(statvfs, f_bfree);
  OFF(statvfs, f_bavail); OFF(statvfs, f_namemax);
  printf("FUSE_BUF_IS_FD %d\nFUSE_BUF_FD_SEEK %d\n", FUSE_BUF_IS_FD, FUSE_BUF_FD_SEEK);
  printf("FUSE_CAP_SPLICE_WRITE %d\nFUSE_CAP_SPLICE_MOVE %d\nFUSE_CAP_READDIRPLUS %d\nFUSE_CAP_POSIX_ACL %d\n",
         FUSE_CAP_SPLICE_WRITE, FUSE_CAP_SPLICE_MOVE, FUSE_CAP_READDIRPLUS, FUSE_CAP_POSIX_ACL);
  printf("FUSE_READDIR_PLUS %d\nFUSE_FILL_DIR_PLUS %d\n", FUSE_READDIR_PLUS, FUSE_FILL_DIR_PLUS);
  return 0;
}
