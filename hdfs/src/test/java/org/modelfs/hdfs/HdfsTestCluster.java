package org.modelfs.hdfs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * One real HDFS for the whole test JVM: Hadoop's {@link MiniDFSCluster} (a NameNode and one
 * DataNode in-process on 127.0.0.1), started by the first test that asks (~5 s), stopped at exit.
 * Its data lives under {@code target/minidfs-<pid>}.
 */
final class HdfsTestCluster {
  private static MiniDFSCluster cluster;
  private static FileSystem admin;

  private HdfsTestCluster() {}

  static synchronized MiniDFSCluster get() throws IOException {
    if (cluster == null) {
      Path base = Path.of("target", "minidfs-" + ProcessHandle.current().pid()).toAbsolutePath();
      Configuration conf = new Configuration();
      conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
      conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
      conf.setBoolean("dfs.permissions.enabled", true);
      long t0 = System.nanoTime();
      cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
      System.err.println("cluster up in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
      cluster.waitActive();
      admin = cluster.getFileSystem();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> cluster.shutdown(true)));
    }
    return cluster;
  }

  /** The cluster's port. */
  static int port() throws IOException {
    return get().getNameNodePort();
  }

  /** {@code hdfs://localhost:PORT<path>}. */
  static URI uri(String path) throws IOException {
    return URI.create("hdfs://localhost:" + port() + path);
  }

  /** The model at {@code path} as the NIO path the CLI and library take. */
  static java.nio.file.Path path(String path) throws IOException {
    return java.nio.file.Path.of(uri(path));
  }

  /** A Hadoop client of the cluster of its own (not the NIO provider's). */
  static FileSystem admin() throws IOException {
    get();
    return admin;
  }

  /** Copies the local file into HDFS at {@code path} (its directory made), replacing what is there. */
  static void upload(Path local, String path) throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
    admin().mkdirs(p.getParent());
    try (InputStream in = Files.newInputStream(local); OutputStream out = admin().create(p, true)) {
      in.transferTo(out);
    }
  }

  /** The file's bytes. */
  static byte[] bytes(String path) throws IOException {
    try (InputStream in = admin().open(new org.apache.hadoop.fs.Path(path))) {
      return in.readAllBytes();
    }
  }

  /** The names in the directory, sorted. */
  static List<String> names(String dir) throws IOException {
    return Arrays.stream(admin().listStatus(new org.apache.hadoop.fs.Path(dir)))
        .map(s -> s.getPath().getName()).sorted().toList();
  }
}
