package org.modelfs.io;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import org.modelfs.testing.ForwardingFileChannel;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A read-only file system over the default one whose {@link FileChannel}'s positional read is
 * what the S3 NIO provider's is: set the channel's position, then read from it — without a lock,
 * so that threads reading one channel at once get each other's bytes. Only what
 * {@link ChannelSource} needs works (open a channel, read attributes); the rest throws.
 */
final class RacyFileSystem extends FileSystem {
  private final Provider provider = new Provider();

  /** This file system's path for the default file system's {@code file}. */
  Path wrap(Path file) {
    return new RacyPath(this, file);
  }

  @Override
  public FileSystemProvider provider() {
    return provider;
  }

  @Override
  public void close() {}

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public boolean isReadOnly() {
    return true;
  }

  @Override
  public String getSeparator() {
    return "/";
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    return List.of();
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    return List.of();
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return Set.of("basic");
  }

  @Override
  public Path getPath(String first, String... more) {
    return wrap(Path.of(first, more));
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    throw new UnsupportedOperationException();
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    throw new UnsupportedOperationException();
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException();
  }

  private static Path unwrap(Path p) {
    return ((RacyPath) p).file;
  }

  /** A path of this file system: a default file system path inside. */
  private record RacyPath(RacyFileSystem fs, Path file) implements Path {
    private Path of(Path p) {
      return p == null ? null : new RacyPath(fs, p);
    }

    @Override
    public FileSystem getFileSystem() {
      return fs;
    }

    @Override
    public boolean isAbsolute() {
      return file.isAbsolute();
    }

    @Override
    public Path getRoot() {
      return of(file.getRoot());
    }

    @Override
    public Path getFileName() {
      return of(file.getFileName());
    }

    @Override
    public Path getParent() {
      return of(file.getParent());
    }

    @Override
    public int getNameCount() {
      return file.getNameCount();
    }

    @Override
    public Path getName(int index) {
      return of(file.getName(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
      return of(file.subpath(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
      return other instanceof RacyPath r && file.startsWith(r.file);
    }

    @Override
    public boolean endsWith(Path other) {
      return other instanceof RacyPath r && file.endsWith(r.file);
    }

    @Override
    public Path normalize() {
      return of(file.normalize());
    }

    @Override
    public Path resolve(Path other) {
      return of(file.resolve(unwrap(other)));
    }

    @Override
    public Path relativize(Path other) {
      return of(file.relativize(unwrap(other)));
    }

    @Override
    public URI toUri() {
      return URI.create("racy:" + file.toUri().getPath());
    }

    @Override
    public Path toAbsolutePath() {
      return of(file.toAbsolutePath());
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
      return of(file.toRealPath(options));
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int compareTo(Path other) {
      return file.compareTo(unwrap(other));
    }

    @Override
    public String toString() {
      return file.toString();
    }
  }

  /** Opens channels and reads attributes of the default file system's files; nothing else. */
  private final class Provider extends FileSystemProvider {
    @Override
    public String getScheme() {
      return "racy";
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
      return RacyFileSystem.this;
    }

    @Override
    public Path getPath(URI uri) {
      return wrap(Path.of(uri.getPath()));
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
      return new RacyChannel(FileChannel.open(unwrap(path), options, attrs));
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
      return newFileChannel(path, options, attrs);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void delete(Path path) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
      return Files.isSameFile(unwrap(path), unwrap(path2));
    }

    @Override
    public boolean isHidden(Path path) {
      return false;
    }

    @Override
    public FileStore getFileStore(Path path) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
      unwrap(path).getFileSystem().provider().checkAccess(unwrap(path), modes);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
      return null;
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
        throws IOException {
      return Files.readAttributes(unwrap(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
      return Files.readAttributes(unwrap(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
      throw new UnsupportedOperationException();
    }
  }

  /**
   * A channel whose positional read sets the position and then reads, unlocked, with a yield
   * between to let another thread move the position meanwhile (as a busy machine would); it
   * cannot map.
   */
  static final class RacyChannel extends ForwardingFileChannel {
    RacyChannel(FileChannel d) {
      super(d);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      d.position(position);
      Thread.yield();
      return d.read(dst);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
      throw new UnsupportedOperationException("this provider cannot map");
    }
  }
}
