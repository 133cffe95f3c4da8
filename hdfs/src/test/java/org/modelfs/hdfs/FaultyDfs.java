package org.modelfs.hdfs;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.Progressable;

/** Hadoop's HDFS client ({@code fs.hdfs.impl}) whose creates and deletes fail as {@link HdfsFaults} says. */
public class FaultyDfs extends DistributedFileSystem {
  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, EnumSet<CreateFlag> flags, int bufferSize,
      short replication, long blockSize, Progressable progress, Options.ChecksumOpt checksumOpt) throws IOException {
    HdfsFaults.before("create " + f.getName());
    FSDataOutputStream out = super.create(f, permission, flags, bufferSize, replication, blockSize, progress,
        checksumOpt);
    HdfsFaults.after("create " + f.getName());
    return out;
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    HdfsFaults.before("create " + f.getName());
    FSDataOutputStream out = super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    HdfsFaults.after("create " + f.getName());
    return out;
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    HdfsFaults.before("create " + f.getName());
    FSDataOutputStream out = super.createNonRecursive(f, permission, flags, bufferSize, replication, blockSize,
        progress);
    HdfsFaults.after("create " + f.getName());
    return out;
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    HdfsFaults.before("delete " + f.getName());
    boolean done = super.delete(f, recursive);
    HdfsFaults.after("delete " + f.getName());
    return done;
  }
}
