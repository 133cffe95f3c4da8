package org.modelfs.hdfs.nio;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/**
 * A path of an {@link HdfsFileSystem}: a POSIX path string ({@code /dir/m.fb}, or relative
 * {@code m.fb}), its syntax that of the JDK's own Unix paths (it is parsed and combined by one,
 * {@code unix}); an absolute path names a file in the cluster. {@link #toString()} is the bare
 * path, {@link #toUri()} the {@code hdfs://authority/path} URI. Relative paths resolve against
 * the root. Not supported: watching, links.
 */
public final class HdfsPath implements Path {
  private final HdfsFileSystem fs;
  /** The same path on the default file system, only for its syntax. */
  private final Path unix;

  HdfsPath(HdfsFileSystem fs, Path unix) {
    this.fs = fs;
    this.unix = unix;
  }

  private HdfsPath of(Path p) {
    return p == null ? null : new HdfsPath(fs, p);
  }

  private static Path unix(Path other) {
    if (!(other instanceof HdfsPath h)) {
      throw new ProviderMismatchException(other + " is not an hdfs:// path");
    }
    return h.unix;
  }

  /** Hadoop's name of this file (absolute). */
  public org.apache.hadoop.fs.Path hadoop() {
    return new org.apache.hadoop.fs.Path(toUri());
  }

  @Override public HdfsFileSystem getFileSystem() { return fs; }
  @Override public boolean isAbsolute() { return unix.isAbsolute(); }
  @Override public HdfsPath getRoot() { return of(unix.getRoot()); }
  @Override public HdfsPath getFileName() { return of(unix.getFileName()); }
  @Override public HdfsPath getParent() { return of(unix.getParent()); }
  @Override public int getNameCount() { return unix.getNameCount(); }
  @Override public HdfsPath getName(int index) { return of(unix.getName(index)); }
  @Override public HdfsPath subpath(int beginIndex, int endIndex) { return of(unix.subpath(beginIndex, endIndex)); }
  @Override public boolean startsWith(Path other) {
    return other instanceof HdfsPath h && h.fs == fs && unix.startsWith(h.unix);
  }
  @Override public boolean endsWith(Path other) {
    return other instanceof HdfsPath h && h.fs == fs && unix.endsWith(h.unix);
  }
  @Override public HdfsPath normalize() { return of(unix.normalize()); }
  @Override public HdfsPath resolve(Path other) { return of(unix.resolve(unix(other))); }
  @Override public HdfsPath resolve(String other) { return of(unix.resolve(other)); }
  @Override public HdfsPath relativize(Path other) { return of(unix.relativize(unix(other))); }
  @Override public HdfsPath toAbsolutePath() { return isAbsolute() ? this : of(Path.of("/").resolve(unix)); }
  @Override public HdfsPath toRealPath(LinkOption... options) throws IOException {
    fs.provider().checkAccess(this);
    return toAbsolutePath().normalize();
  }

  @Override
  public URI toUri() {
    try {
      return new URI("hdfs", fs.authority().isEmpty() ? null : fs.authority(), toAbsolutePath().unix.toString(), null, null);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
    throw new UnsupportedOperationException("hdfs:// paths cannot be watched");
  }

  @Override public int compareTo(Path other) { return unix.compareTo(unix(other)); }
  @Override public boolean equals(Object o) { return o instanceof HdfsPath h && h.fs == fs && h.unix.equals(unix); }
  @Override public int hashCode() { return unix.hashCode(); }
  @Override public String toString() { return unix.toString(); }
}
