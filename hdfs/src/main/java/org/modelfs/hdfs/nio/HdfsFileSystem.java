package org.modelfs.hdfs.nio;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;

/**
 * One HDFS cluster ({@code hdfs://host:port}, or the configuration's default file system for
 * {@code hdfs:///…}) as a {@link FileSystem}: a client of its own ({@code FileSystem.newInstance},
 * not Hadoop's shared cache), closed with it. The configuration is Hadoop's own
 * ({@code core-site.xml} and {@code hdfs-site.xml} on the class path, else in
 * {@code $HADOOP_CONF_DIR}), with the string entries of the env given at
 * {@code FileSystems.newFileSystem} set over it.
 */
public final class HdfsFileSystem extends FileSystem {
  private final HdfsProvider provider;
  private final String authority;
  private final org.apache.hadoop.fs.FileSystem hadoop;
  private final FileContext context;
  private volatile boolean open = true;

  HdfsFileSystem(HdfsProvider provider, URI uri, Map<String, ?> env) throws IOException {
    this.provider = provider;
    this.authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
    Configuration conf = configuration(env);
    URI root = URI.create("hdfs://" + authority + "/");
    this.hadoop = org.apache.hadoop.fs.FileSystem.newInstance(root, conf);
    this.context = FileContext.getFileContext(hadoop.getUri(), conf);
  }

  /** Hadoop's configuration: its defaults and site files, {@code $HADOOP_CONF_DIR}'s, then {@code env}'s strings. */
  static Configuration configuration(Map<String, ?> env) {
    Configuration conf = new Configuration();
    String dir = System.getenv("HADOOP_CONF_DIR");
    if (dir != null && !dir.isEmpty()) {
      for (String site : List.of("core-site.xml", "hdfs-site.xml")) {
        java.nio.file.Path f = java.nio.file.Path.of(dir, site);
        if (Files.isRegularFile(f)) {
          conf.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
        }
      }
    }
    for (Map.Entry<String, ?> e : env.entrySet()) {
      if (e.getValue() instanceof String v) {
        conf.set(e.getKey(), v);
      }
    }
    return conf;
  }

  /** The URI's authority ({@code host:port}), empty for the configuration's default file system. */
  public String authority() {
    return authority;
  }

  /** The Hadoop client of this cluster. */
  public org.apache.hadoop.fs.FileSystem hadoop() {
    return hadoop;
  }

  /** The same cluster as a {@link FileContext} (its rename replaces a file atomically). */
  public FileContext context() {
    return context;
  }

  @Override
  public HdfsProvider provider() {
    return provider;
  }

  @Override
  public synchronized void close() throws IOException {
    if (open) {
      open = false;
      provider.closed(this);
      hadoop.close();
    }
  }

  @Override public boolean isOpen() { return open; }
  @Override public boolean isReadOnly() { return false; }
  @Override public String getSeparator() { return "/"; }
  @Override public Iterable<Path> getRootDirectories() { return List.of(getPath("/")); }
  @Override public Iterable<FileStore> getFileStores() { return List.of(); }
  @Override public Set<String> supportedFileAttributeViews() { return Set.of("basic"); }

  @Override
  public HdfsPath getPath(String first, String... more) {
    return new HdfsPath(this, java.nio.file.Path.of(first, more));
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher m = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
    return p -> m.matches(java.nio.file.Path.of(p.toString()));
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    throw new UnsupportedOperationException("hdfs:// paths have no user principal lookup");
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException("hdfs:// paths cannot be watched");
  }
}
