package org.modelfs.azure;

import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Set;

/** One container of an account, as a file system of {@link BlobPath}s (a locator; reads and writes go through ModelFS). */
final class BlobFileSystem extends FileSystem {
  private final BlobFileSystemProvider provider;
  private final BlobStore store;
  private final String container;
  private volatile boolean open = true;

  BlobFileSystem(BlobFileSystemProvider provider, BlobStore store, String container) {
    this.provider = provider;
    this.store = store;
    this.container = container;
  }

  BlobStore store() {
    return store;
  }

  String container() {
    return container;
  }

  @Override
  public BlobFileSystemProvider provider() {
    return provider;
  }

  @Override
  public void close() {
    open = false;
    provider.closed(this);
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public boolean isReadOnly() {
    return false;
  }

  @Override
  public String getSeparator() {
    return "/";
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    return List.of(new BlobPath(this, "/"));
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
    return new BlobPath(this, more.length == 0 ? first : first + "/" + String.join("/", more));
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher m = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
    return p -> m.matches(Paths.get(p.toString()));
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    throw new UnsupportedOperationException("Blob Storage has no users");
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException("Blob Storage has no change notifications");
  }

  @Override
  public String toString() {
    return "azb://" + container;
  }
}
