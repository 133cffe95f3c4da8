package org.modelfs.hdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.hdfs.nio.HdfsErrors;
import org.modelfs.hdfs.nio.HdfsPath;

/**
 * Where one model is in HDFS: its cluster, directory and file name (a shard's name stands for its
 * set: {@code m.shard0-of-2.sdnb} is the model {@code m.sdnb}), the names of every file this
 * module makes beside it, and what is stored there now.
 */
record HdfsModel(HdfsPath path, FileSystem fs, Path dir, String name, String uri) {
  static HdfsModel of(HdfsPath given) {
    HdfsPath p = given.toAbsolutePath().normalize();
    if (p.getFileName() == null) {
      throw new IllegalArgumentException(p.toUri() + ": the root of a cluster is no model");
    }
    ShardNames.Shard shard = ShardNames.parse(p.getFileName().toString());
    if (shard != null) {
      p = (HdfsPath) p.resolveSibling(shard.base() + "." + ShardNames.SDNB);
    }
    FileSystem fs = p.getFileSystem().hadoop();
    Path file = p.hadoop();
    return new HdfsModel(p, fs, file.getParent(), p.getFileName().toString(), p.toUri().toString());
  }

  /** The model file's Hadoop path. */
  Path file() {
    return new Path(dir, name);
  }

  /** A file beside the model. */
  Path beside(String fileName) {
    return new Path(dir, fileName);
  }

  /** The user's spelling of a file beside the model, for messages. */
  String shown(String fileName) {
    return path.getParent().resolve(fileName).toUri().toString();
  }

  /** What identifies this model in the JVM (its cluster's URI and path). */
  String identity() {
    return fs.getUri() + file().toUri().getPath();
  }

  /** The file's status, or {@code null} if there is none. */
  FileStatus status(Path f) throws IOException {
    try {
      return fs.getFileStatus(f);
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException e) {
      throw HdfsErrors.nio(e, uri, "reading the status of " + f.getName());
    }
  }

  /**
   * Every file in the model's directory (a missing directory: none). On HDFS the first page of the
   * listing (one {@code getListing}, up to {@code dfs.ls.limit} entries or block locations) carries
   * each file's blocks ({@link org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus}): what a
   * mount reads each file over, with no open of its own ({@link ListedBlocks}). Later pages, in a
   * directory of many large files, are listed without them (the same round trips as a plain
   * listing); their files are opened by inode.
   */
  List<FileStatus> siblings() throws IOException {
    try {
      return fs instanceof DistributedFileSystem d ? located(d) : List.of(fs.listStatus(dir));
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw HdfsErrors.nio(e, uri, "listing its directory");
    }
  }

  private List<FileStatus> located(DistributedFileSystem d) throws IOException {
    String src = Path.getPathWithoutSchemeAndAuthority(dir).toString();
    List<FileStatus> out = new ArrayList<>();
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    boolean first = true;
    DirectoryListing page;
    do {
      page = d.getClient().listPaths(src, after, first);
      first = false;
      if (page == null) {
        throw new FileNotFoundException(src); // no such directory (or removed between pages)
      }
      for (HdfsFileStatus s : page.getPartialListing()) {
        out.add(s.makeQualified(fs.getUri(), dir));
      }
      after = page.getLastName();
    } while (page.hasMore());
    return out;
  }

  /** HDFS's inode id of the file, or -1 off HDFS. */
  static long fileId(FileStatus s) {
    return s instanceof HdfsFileStatus h ? h.getFileId() : -1;
  }
}
