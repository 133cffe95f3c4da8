package org.modelfs.azure;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.modelfs.io.SourceChannel;

/**
 * The {@code azb} scheme: {@code azb://<container>/<dir>/<model>} names a blob in the account of
 * the Azure storage connection string — the {@code connectionString} entry of the map given to
 * {@link java.nio.file.FileSystems#newFileSystem(URI, Map)}, else system property
 * {@code modelfs.azure.connection-string}, else the environment's
 * {@code AZURE_STORAGE_CONNECTION_STRING} (the Azure CLI's and SDKs' own variable). One file system
 * per container; {@code Path.of(URI)} makes it on first use, as the CLI does.
 *
 * <p>A locator (docs/OBJECT-STORES.md "Azure Blob Storage"): paths, attributes, listings, reads
 * and deletes of blobs; models are written through ModelFS (its commit, {@link BlobBacking}),
 * never through this provider (a channel for writing is refused). Why not Microsoft's
 * {@code azure-storage-blob-nio}: it is a beta that has not changed since 2023 and writes through
 * its own staged uploads; ModelFS needs only the locator.
 */
public final class BlobFileSystemProvider extends FileSystemProvider {
  static final String SCHEME = "azb";
  /** The environment map entry, system property and environment variable of the connection string. */
  static final String ENV_KEY = "connectionString";
  static final String PROPERTY = "modelfs.azure.connection-string";
  static final String VARIABLE = "AZURE_STORAGE_CONNECTION_STRING";

  private final Map<String, BlobFileSystem> systems = new ConcurrentHashMap<>();

  @Override
  public String getScheme() {
    return SCHEME;
  }

  private static String container(URI uri) {
    if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
      throw new ProviderMismatchException(uri + " is not an azb:// URI");
    }
    String c = uri.getAuthority();
    if (c == null || !c.matches("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]|\\$root")) {
      throw new IllegalArgumentException(uri + ": azb://<container>/<blob> needs a container name (3 to 63 lower-case"
          + " letters, digits and single hyphens)");
    }
    return c;
  }

  private static String connectionString(Map<String, ?> env) throws IOException {
    Object v = env == null ? null : env.get(ENV_KEY);
    String cs = v != null ? v.toString() : System.getProperty(PROPERTY, System.getenv(VARIABLE));
    if (cs == null || cs.isBlank()) {
      throw new FileSystemException("azb://", null, "no Azure storage account: set " + VARIABLE + " (or -D" + PROPERTY
          + ") to the account's connection string (docs/OBJECT-STORES.md)");
    }
    return cs;
  }

  @Override
  public BlobFileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
    String c = container(uri);
    BlobFileSystem fs = new BlobFileSystem(this, BlobStore.of(connectionString(env)), c);
    if (systems.putIfAbsent(c, fs) != null) {
      throw new FileSystemAlreadyExistsException(uri.toString());
    }
    return fs;
  }

  @Override
  public BlobFileSystem getFileSystem(URI uri) {
    BlobFileSystem fs = systems.get(container(uri));
    if (fs == null) {
      throw new FileSystemNotFoundException(uri.toString());
    }
    return fs;
  }

  void closed(BlobFileSystem fs) {
    systems.remove(fs.container(), fs);
  }

  /** The path {@code uri} names; its container's file system is made with the default account if there is none. */
  @Override
  public Path getPath(URI uri) {
    String c = container(uri);
    BlobFileSystem fs = systems.get(c);
    if (fs == null) {
      try {
        BlobFileSystem made = new BlobFileSystem(this, BlobStore.of(connectionString(null)), c);
        fs = systems.putIfAbsent(c, made);
        fs = fs == null ? made : fs;
      } catch (IOException e) {
        // no account to make it with: the file system "cannot be created automatically" (Path.of's words)
        throw new FileSystemNotFoundException(uri + ": " + e.getMessage());
      }
    }
    String p = uri.getPath();
    return fs.getPath(p == null || p.isEmpty() ? "/" : p);
  }

  private static BlobPath blob(Path p) {
    if (!(p instanceof BlobPath b)) {
      throw new ProviderMismatchException(String.valueOf(p));
    }
    return (BlobPath) b.toAbsolutePath();
  }

  /** Reads a blob at the ETag it has now; writing is ModelFS's commit, never a channel. */
  @Override
  public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    BlobPath p = blob(path);
    for (OpenOption o : options) {
      if (o != StandardOpenOption.READ && o != LinkOption.NOFOLLOW_LINKS) {
        throw new FileSystemException(p.toUri().toString(), null, "azb:// blobs are written by ModelFS's commit"
            + " (mount the model, or modelfs cp/convert into it), not through a channel (" + o + ")");
      }
    }
    BlobStore store = p.getFileSystem().store();
    String c = p.getFileSystem().container();
    BlobStore.Info info = store.head(c, p.key());
    if (info == null) {
      throw new NoSuchFileException(p.toUri().toString());
    }
    // the source holds no connection or file: nothing to release when the view is closed
    return new SourceChannel(new BlobSource(store, c, p.key(), info.etag(), info.size()));
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
      throws IOException {
    BlobPath p = blob(dir);
    String prefix = p.key().isEmpty() ? "" : p.key() + "/";
    List<Path> out = new ArrayList<>();
    for (String name : p.getFileSystem().store().children(p.getFileSystem().container(), prefix)) {
      Path child = p.getFileSystem().getPath("/" + name);
      if (filter.accept(child)) {
        out.add(child);
      }
    }
    if (out.isEmpty() && !p.key().isEmpty() && !readAttributes(p, BasicFileAttributes.class).isDirectory()) {
      throw new NotDirectoryException(p.toUri().toString());
    }
    return new DirectoryStream<>() {
      @Override
      public Iterator<Path> iterator() {
        return out.iterator();
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    throw new FileSystemException(blob(dir).toUri().toString(), null, "Blob Storage has no directories (a blob's"
        + " name holds its '/'s)");
  }

  @Override
  public void delete(Path path) throws IOException {
    BlobPath p = blob(path);
    if (p.getFileSystem().store().head(p.getFileSystem().container(), p.key()) == null) {
      throw new NoSuchFileException(p.toUri().toString());
    }
    p.getFileSystem().store().delete(p.getFileSystem().container(), p.key());
  }

  @Override
  public void copy(Path source, Path target, CopyOption... options) throws IOException {
    throw new FileSystemException(String.valueOf(target), null, "azb:// blobs are written by ModelFS's commit");
  }

  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    throw new FileSystemException(String.valueOf(target), null, "azb:// blobs are written by ModelFS's commit");
  }

  @Override
  public boolean isSameFile(Path path, Path path2) {
    return blob(path).equals(path2.toAbsolutePath());
  }

  @Override
  public boolean isHidden(Path path) {
    return false;
  }

  @Override
  public FileStore getFileStore(Path path) {
    throw new UnsupportedOperationException("Blob Storage has no file stores");
  }

  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    readAttributes(path, BasicFileAttributes.class);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
    if (type != BasicFileAttributeView.class) {
      return null;
    }
    return (V) new BasicFileAttributeView() {
      @Override
      public String name() {
        return "basic";
      }

      @Override
      public BasicFileAttributes readAttributes() throws IOException {
        return BlobFileSystemProvider.this.readAttributes(path, BasicFileAttributes.class);
      }

      @Override
      public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) {
        throw new UnsupportedOperationException("a blob's times are the service's");
      }
    };
  }

  @Override
  @SuppressWarnings("unchecked")
  public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
      throws IOException {
    if (type != BasicFileAttributes.class) {
      throw new UnsupportedOperationException("azb:// paths have basic attributes only");
    }
    BlobPath p = blob(path);
    BlobStore store = p.getFileSystem().store();
    String c = p.getFileSystem().container();
    if (p.key().isEmpty()) {
      return (A) new BlobAttributes(p.key(), null, 0, true);
    }
    BlobStore.Info info = store.head(c, p.key());
    if (info != null) {
      return (A) new BlobAttributes(p.key(), info.lastModified(), info.size(), false);
    }
    if (!store.children(c, p.key() + "/").isEmpty()) {
      return (A) new BlobAttributes(p.key(), null, 0, true);
    }
    throw new NoSuchFileException(p.toUri().toString());
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
    BasicFileAttributes a = readAttributes(path, BasicFileAttributes.class);
    Map<String, Object> all = new HashMap<>();
    all.put("size", a.size());
    all.put("lastModifiedTime", a.lastModifiedTime());
    all.put("lastAccessTime", a.lastAccessTime());
    all.put("creationTime", a.creationTime());
    all.put("isRegularFile", a.isRegularFile());
    all.put("isDirectory", a.isDirectory());
    all.put("isSymbolicLink", false);
    all.put("isOther", false);
    all.put("fileKey", a.fileKey());
    String names = attributes.startsWith("basic:") ? attributes.substring(6) : attributes;
    if (names.equals("*")) {
      return all;
    }
    Map<String, Object> out = new HashMap<>();
    for (String n : names.split(",")) {
      if (!all.containsKey(n)) {
        throw new IllegalArgumentException("no attribute '" + n + "' in view basic");
      }
      out.put(n, all.get(n));
    }
    return out;
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
    throw new UnsupportedOperationException("a blob's attributes are the service's");
  }
}
