package org.modelfs.hdfs;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.modelfs.testing.DelayProxy;
import org.modelfs.testing.StoreBenchRun;

/**
 * Issue 34's store benchmark ({@link StoreBenchRun}) on HDFS: Hadoop's {@link MiniDFSCluster} (a
 * NameNode and one DataNode in this JVM). Every byte a client exchanges with it goes through a
 * delaying, counting proxy: the benchmark's own in front of the NameNode's RPC port, and one of
 * this class's in front of the DataNode's data transfer port. The DataNode binds
 * {@code 127.0.0.1:P} ({@code dfs.datanode.address}) but registers as host {@code 127.0.0.2}
 * ({@code dfs.datanode.hostname}), where the proxy listens on port P (all of 127/8 is loopback);
 * clients connect to DataNodes by that host name ({@code dfs.client.use.datanode.hostname}), both
 * ModelFS's mount and B's plain Hadoop client. B is Hadoop's own download:
 * {@code FileSystem.copyToLocalFile} into a local file.
 *
 * <p>{@code mvn -B -o -Pbench -DskipTests test-compile exec:exec -pl core,hdfs -Dhdfsbench.args="--rounds 3"}
 * from the repository root (the reactor builds core's test jar first); its cluster and 1 GiB of
 * temporary files live under {@code hdfs/target/} and are removed.
 */
public final class HdfsStoreBench implements StoreBenchRun.Store {
  /** The client setting that makes both ModelFS's client and B's reach the DataNode through its proxy. */
  static final Map<String, String> CLIENT = Map.of("dfs.client.use.datanode.hostname", "true");
  /** {@link #CLIENT} through {@link TracingDfs}: each mount's requests and reads printed with their times. */
  static final Map<String, String> TRACED = Map.of("dfs.client.use.datanode.hostname", "true", "fs.hdfs.impl",
      TracingDfs.class.getName());

  private final MiniDFSCluster cluster;
  private final FileSystem admin;
  private final DelayProxy dataNode;
  private final Path base; // removed by the cluster's shutdown
  private FileSystem sdk;
  private int sdkPort;

  private HdfsStoreBench(MiniDFSCluster cluster, DelayProxy dataNode, Path base) throws IOException {
    this.cluster = cluster;
    this.admin = cluster.getFileSystem();
    this.dataNode = dataNode;
    this.base = base;
  }

  public static void main(String[] args) throws Exception {
    StoreBenchRun.run(HdfsStoreBench.class, HdfsStoreBench::start, args);
  }

  private static HdfsStoreBench start() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path base = Path.of("target", "storebench-minidfs-" + ProcessHandle.current().pid()).toAbsolutePath();
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
    conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
    conf.set("dfs.datanode.address", "127.0.0.1:" + port);
    conf.set("dfs.datanode.hostname", "127.0.0.2");
    conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).checkDataNodeAddrConfig(true)
        .checkDataNodeHostConfig(true).build();
    cluster.waitActive();
    DelayProxy dn = DelayProxy.between(new InetSocketAddress("127.0.0.2", port),
        new InetSocketAddress("127.0.0.1", port));
    return new HdfsStoreBench(cluster, dn, base);
  }

  @Override
  public String name() {
    return "HDFS (MiniDFSCluster)";
  }

  @Override
  public int port() {
    return cluster.getNameNodePort();
  }

  @Override
  public List<DelayProxy> sideProxies() {
    return List.of(dataNode);
  }

  @Override
  public Path path(int port, String key) throws IOException {
    URI root = URI.create("hdfs://127.0.0.1:" + port + "/");
    try {
      // the mount's Hadoop client, with CLIENT's setting (and -Dhdfsbench.trace=true: a timeline of each mount)
      FileSystems.newFileSystem(root, Boolean.getBoolean("hdfsbench.trace") ? TRACED : CLIENT);
    } catch (FileSystemAlreadyExistsException e) {
      // made by an earlier row
    }
    return Path.of(root.resolve("/" + key));
  }

  @Override
  public void put(Path local, String key) throws IOException {
    admin.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.toUri()),
        new org.apache.hadoop.fs.Path("/" + key));
  }

  @Override
  public void get(int port, String key, Path to) throws Exception {
    if (sdk == null || sdkPort != port) {
      Configuration conf = new Configuration();
      CLIENT.forEach(conf::set);
      sdk = FileSystem.newInstance(URI.create("hdfs://127.0.0.1:" + port + "/"), conf);
      sdkPort = port;
    }
    sdk.copyToLocalFile(false, new org.apache.hadoop.fs.Path("/" + key), new org.apache.hadoop.fs.Path(to.toUri()),
        true);
  }

  @Override
  public void close() throws Exception {
    if (sdk != null) {
      sdk.close();
    }
    dataNode.close();
    cluster.shutdown(true);
  }
}
