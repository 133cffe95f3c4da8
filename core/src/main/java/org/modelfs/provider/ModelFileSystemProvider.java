package org.modelfs.provider;

import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import org.modelfs.format.Codec;
import org.modelfs.format.Codecs;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.HashMap;
import java.util.Locale;
import org.modelfs.model.ModelFormat;
import java.util.Map;
import java.util.Set;
import org.modelfs.SamediffFileAttributeView;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.format.ModelFormatException;
import org.modelfs.store.Backing;
import org.modelfs.store.Backings;
import org.modelfs.store.LocalBacking;
import org.modelfs.tree.Dir;

/**
 * The {@code samediff} file system provider, registered in {@code META-INF/services}.
 *
 * <p>Registry rules (like {@code jar:}): {@code newFileSystem(URI, env)} mounts the container
 * and registers it under the model's identity ({@code store.ModelId}: every spelling of one
 * model, a shard set's base, single file and shards alike, is one entry; {@link MountRegistry},
 * which opens the model outside any lock); a second {@code newFileSystem(URI)} of the same file
 * while the first is open throws {@link FileSystemAlreadyExistsException};
 * {@code getFileSystem(URI)} and {@code Path.of(URI)} find only registered, open file systems
 * ({@link FileSystemNotFoundException} otherwise) and never mount one implicitly; closing
 * unregisters, after which the URI may be mounted again. {@code newFileSystem(Path, env)} —
 * and {@code ModelFileSystems.open} — mount without registering. The registry is static so
 * that every provider instance (one per class loader that loads this class) shares it.
 */
public final class ModelFileSystemProvider extends FileSystemProvider {
  /** Static, so that every provider instance shares it. */
  private static final MountRegistry REGISTRY = new MountRegistry();

  /** Made by {@link java.util.ServiceLoader} (or {@code ModelFileSystems}). */
  public ModelFileSystemProvider() {}

  @Override
  public String getScheme() {
    return ModelUris.SCHEME;
  }

  // ---- opening ---------------------------------------------------------------------------------

  @Override
  public ModelFileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
    ModelUris.Parts parts = ModelUris.parse(uri);
    MountOptions options = MountOptions.parse(env);
    Path container = Backings.path(parts.container());
    return REGISTRY.mount(MountRegistry.key(container), parts.container().toString(),
        key -> ModelFileSystem.mount(this, container, options, key, Backings.of(container)));
  }

  /**
   * Mounts the model at {@code path} without registering it. A file that is not a model gives
   * {@link UnsupportedOperationException}, so that {@code FileSystems.newFileSystem(path)} goes
   * on to other providers — unless its content or name says it is one (SDNB, ZIP or
   * SAMEDIFF_MODEL magic, {@code .fb}/{@code .sdnb}/{@code .sdz}/{@code .sdmc}), when the reason it
   * cannot be read is thrown.
   */
  @Override
  public ModelFileSystem newFileSystem(Path path, Map<String, ?> env) throws IOException {
    MountOptions options = MountOptions.parse(env);
    Backing backing = Backings.of(path);
    // (an object store's backing knows its keys are objects: no request to the provider here)
    if (backing instanceof LocalBacking && Files.isDirectory(path)) {
      throw new UnsupportedOperationException(path + " is a directory, not a model file");
    }
    try {
      return ModelFileSystem.mount(this, path, options, null, backing);
    } catch (ModelFormatException e) {
      if (claimed(path)) {
        throw e;
      }
      throw new UnsupportedOperationException(path + " is not a SameDiff model: " + e.getMessage(), e);
    }
  }

  /** Whether {@code path} says it is a model by name or by magic bytes (a registered format's: {@code format.Codecs}). */
  private static boolean claimed(Path path) throws IOException {
    Path name = path.getFileName();
    if (name != null && Codecs.claimsName(name.toString())) {
      return true;
    }
    try (ByteSource src = ChannelSource.of(path.toString(), Files.newByteChannel(path))) {
      for (Codec c : Codecs.readers(false)) {
        try {
          if (!c.fallback() && c.sniff(src)) {
            return true;
          }
        } catch (ModelFormatException e) {
          return true; // its magic matched, and what follows it is damaged: the format's error is the one to show
        }
      }
      return false;
    }
  }

  @Override
  public ModelFileSystem getFileSystem(URI uri) {
    ModelUris.Parts parts = ModelUris.parse(uri);
    Object key;
    try {
      key = MountRegistry.key(Backings.path(parts.container()));
    } catch (IOException e) {
      throw new FileSystemNotFoundException(uri + ": " + e.getMessage());
    }
    ModelFileSystem fs = REGISTRY.find(key);
    if (fs == null) {
      throw new FileSystemNotFoundException("no open samediff file system for " + parts.container()
          + " (mount it with FileSystems.newFileSystem(uri, env))");
    }
    return fs;
  }

  @Override
  public Path getPath(URI uri) {
    return getFileSystem(uri).getPath(ModelUris.parse(uri).path());
  }

  /** The registry every provider instance shares (tests hold a mount open in it). */
  static MountRegistry registry() {
    return REGISTRY;
  }

  void unregister(ModelFileSystem fs) {
    if (fs.registryKey() != null) {
      REGISTRY.remove(fs.registryKey(), fs);
    }
  }

  // ---- reading -----------------------------------------------------------------------------

  @Override
  public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
      FileAttribute<?>... attrs) throws IOException {
    return newFileChannel(path, options, attrs);
  }

  @Override
  public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    ModelPath p = ModelPath.check(path);
    return p.getFileSystem().newFileChannel(p, options, ArrayAttributes.of(attrs));
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
      throws IOException {
    ModelPath p = ModelPath.check(dir);
    return p.getFileSystem().newDirectoryStream(p, filter);
  }

  // ---- changing (journaled; see ModelChanges) ---------------------------------------------

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    ModelPath p = ModelPath.check(dir);
    p.getFileSystem().edits().createDirectory(p);
  }

  @Override
  public void delete(Path path) throws IOException {
    ModelPath p = ModelPath.check(path);
    p.getFileSystem().edits().delete(p);
  }

  /**
   * Copies a file within a model or between two mounted models, keeping its dtype, shape,
   * order and kind (copies to and from other providers are done by the JDK through streams).
   */
  @Override
  public void copy(Path source, Path target, CopyOption... options) throws IOException {
    ModelPath t = ModelPath.check(target);
    writable(t);
    CrossMountCopy.copy(ModelPath.check(source), t, replace(options));
  }

  private static void writable(ModelPath p) {
    p.getFileSystem().ensureOpen();
    if (p.getFileSystem().isReadOnly()) {
      throw new ReadOnlyFileSystemException();
    }
  }

  /**
   * Moves a file or directory. Inside one tag's {@code params/}, {@code updater/} or
   * {@code metadata/} a move is a rename ({@link Renames}: a parameter keeps its place in the
   * graph and its updater state); otherwise — another tag, another mounted model, a file onto
   * an existing file — it is a copy and a delete, journaled together inside one model, so the
   * commit makes them at once. A directory with files moves only as a rename.
   */
  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    ModelPath s = ModelPath.check(source);
    ModelPath t = ModelPath.check(target);
    writable(s);
    writable(t);
    for (CopyOption o : options) {
      if (o == StandardCopyOption.ATOMIC_MOVE && s.getFileSystem() != t.getFileSystem()) {
        throw new AtomicMoveNotSupportedException(source.toString(), target.toString(),
            "two mounted models commit separately");
      }
    }
    if (s.getFileSystem() == t.getFileSystem() && Target.tagDir(s.getFileSystem().find(s)) != null) {
      s.getFileSystem().edits().renameTag(s, t); // before isSameFile: tags/v1 → tags/V1 renames
      return;
    }
    if (t.getFileSystem().lookup(t) != null && isSameFile(s, t)) {
      return;
    }
    if (s.getFileSystem() == t.getFileSystem() && s.getFileSystem().renames().rename(s, t, replace(options))) {
      return;
    }
    if (s.getFileSystem().find(s).node() instanceof Dir d && !d.isEmpty()) {
      throw new DirectoryNotEmptyException(source + ": a directory with files moves only within its tag's"
          + " params/, updater/ or metadata/ (copy its files, then delete them)");
    }
    CrossMountCopy.copy(s, t, replace(options));
    s.getFileSystem().edits().delete(s);
  }

  /** Shares one stored array between two paths of a model (e.g. the same parameter in two tags). */
  @Override
  public void createLink(Path link, Path existing) throws IOException {
    ModelPath l = ModelPath.check(link);
    ModelPath e = ModelPath.check(existing);
    writable(l);
    if (l.getFileSystem() != e.getFileSystem()) {
      throw new FileSystemException(link.toString(), existing.toString(),
          "a link stays inside one model");
    }
    l.getFileSystem().edits().link(l, e);
  }

  private static boolean replace(CopyOption... options) {
    for (CopyOption o : options) {
      if (o == StandardCopyOption.REPLACE_EXISTING) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code samediff:dtype|shape|order|kind}; the three times (basic or samediff view) are accepted
   * and not stored — every file shows its container's times (docs/FILESYSTEM.md §4).
   */
  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
    ModelPath p = ModelPath.check(path);
    ModelFileSystem fs = p.getFileSystem();
    fs.ensureOpen();
    if (fs.isReadOnly()) {
      throw new ReadOnlyFileSystemException();
    }
    int colon = attribute.indexOf(':');
    String view = colon < 0 ? "basic" : attribute.substring(0, colon);
    String name = colon < 0 ? attribute : attribute.substring(colon + 1);
    boolean basic = view.equals("basic");
    if (!basic && !view.equals(SamediffFileAttributeView.NAME)) {
      throw new UnsupportedOperationException("setting " + attribute + ": attribute view '" + view
          + "' is not available; a model file system has the basic and samediff views");
    }
    if (ModelAttributeView.TIMES.contains(name)) {
      new ModelAttributeView(p, view).setTime(name, value); // accepted, not stored (FILESYSTEM.md §4)
      return;
    }
    if (basic) {
      throw new IllegalArgumentException("'" + attribute + "' not recognized (settable: the three times; samediff:"
          + String.join(", samediff:", ArrayAttributes.SETTABLE) + ")");
    }
    fs.edits().setAttribute(p, name, value);
  }

  // ---- looking ---------------------------------------------------------------------------------

  @Override
  public boolean isSameFile(Path path, Path path2) throws IOException {
    ModelPath a = ModelPath.check(path);
    if (a.equals(path2)) {
      return true;
    }
    if (!(path2 instanceof ModelPath b) || a.getFileSystem() != b.getFileSystem()) {
      return false;
    }
    ModelFileSystem fs = a.getFileSystem();
    return fs.find(a).node().fileKey().equals(fs.find(b).node().fileKey());
  }

  @Override
  public boolean isHidden(Path path) throws IOException {
    ModelPath p = ModelPath.check(path);
    p.getFileSystem().find(p);
    return false;
  }

  @Override
  public FileStore getFileStore(Path path) throws IOException {
    ModelPath p = ModelPath.check(path);
    p.getFileSystem().find(p);
    return p.getFileSystem().store();
  }

  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    ModelPath p = ModelPath.check(path);
    p.getFileSystem().checkAccess(p, modes);
  }

  /** Answered with {@code null} for views other than {@code basic} and {@code samediff}. */
  @Override
  @SuppressWarnings("unchecked")
  public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
    ModelPath p = ModelPath.check(path);
    if (type == BasicFileAttributeView.class) {
      return (V) new ModelAttributeView(p, "basic");
    }
    if (type == SamediffFileAttributeView.class) {
      return (V) new ModelAttributeView(p, SamediffFileAttributeView.NAME);
    }
    return null;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
      throws IOException {
    ModelPath p = ModelPath.check(path);
    if (type == BasicFileAttributes.class || type == SamediffFileAttributes.class) {
      return (A) p.getFileSystem().attributes(p);
    }
    throw new UnsupportedOperationException("attributes of type " + type.getName()
        + "; a model file system has BasicFileAttributes and SamediffFileAttributes");
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
      throws IOException {
    ModelPath p = ModelPath.check(path);
    int colon = attributes.indexOf(':');
    String view = colon < 0 ? "basic" : attributes.substring(0, colon);
    String names = colon < 0 ? attributes : attributes.substring(colon + 1);
    if (!view.equals("basic") && !view.equals(SamediffFileAttributeView.NAME)) {
      throw new UnsupportedOperationException("attribute view '" + view
          + "'; a model file system has the basic and samediff views");
    }
    return p.getFileSystem().attributes(p).toMap(view, names);
  }

  /**
   * Whether {@code path} exists, without an exception for a missing one (the JDK 20+ hook that
   * {@code Files.exists} calls; on older JDKs it is an ordinary public method).
   */
  public boolean exists(Path path, LinkOption... options) {
    ModelPath p = ModelPath.check(path);
    return p.getFileSystem().exists(p);
  }

  /**
   * The attributes of {@code path}, or {@code null} when it does not exist (the JDK 20+ hook
   * that {@code Files.walk} and {@code Files.isDirectory} use).
   */
  public <A extends BasicFileAttributes> A readAttributesIfExists(Path path, Class<A> type,
      LinkOption... options) throws IOException {
    ModelPath p = ModelPath.check(path);
    if (!p.getFileSystem().exists(p)) {
      return null;
    }
    return readAttributes(path, type, options);
  }
}
