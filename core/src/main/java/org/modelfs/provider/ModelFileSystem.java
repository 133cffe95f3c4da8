package org.modelfs.provider;

import org.modelfs.format.Codecs;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.JournaledFileSystem;
import org.modelfs.SamediffFileAttributeView;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.io.DescriptorPool;
import org.modelfs.store.Generation;
import org.modelfs.store.Shown;
import org.modelfs.store.Backing;
import org.modelfs.store.Backings;
import org.modelfs.store.Snapshot;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.TagOverlay;

/**
 * One mounted model: its index and virtual tree, and everything opened on it. Reads take no
 * lock — the tree is immutable, replaced whole by each change, and every channel reads by
 * position — so any number of threads read at once. Changes go through {@link ModelChanges}.
 * Closing commits (by default) and releases every channel, cache file and container source.
 *
 * <p>Resources (docs/FILESYSTEM.md §8): a committed model replaced by a newer one is closed as
 * soon as no channel opened while it was current is open ({@link Lifetimes}); journal files are
 * read through a bounded {@link DescriptorPool} and deleted once the tree no longer shows them
 * ({@link JournalSources}); {@code map()} copies are bounded and dropped at each commit
 * ({@link MapCache}).
 */
final class ModelFileSystem extends FileSystem implements JournaledFileSystem {
  private final ModelFileSystemProvider provider;
  private final Path containerPath;
  private final URI containerUri;
  private final Object registryKey;
  private final MountOptions options;
  private volatile Model model;
  /** The tags as they are now (committed state plus journaled changes); swapped, never edited. */
  private volatile List<Tag> tags;
  /** What the session shows of each tag beyond its content, by tag name; swapped with {@link #tags}. */
  private volatile Map<String, TagOverlay> overlays = Map.of();
  private volatile ModelTree tree;
  private volatile NodeAttributes.ContainerTimes times;
  /** The stored version the model was read at: a commit builds on it or is refused. */
  private volatile Generation generation;
  private final Backing backing;
  private final ModelChanges changes;
  private final JournalWrites writes;
  private final StructureEdits edits;
  private final Renames renames;
  private final OpenResources resources = new OpenResources();
  private final Lifetimes lifetimes = new Lifetimes(resources);
  private final DescriptorPool journalPool = new DescriptorPool(DescriptorPool.DEFAULT_LIMIT);
  private final JournalSources journalSources = new JournalSources(lifetimes, resources, journalPool);
  /** The {@link Lifetimes} tick the current model was swapped in at (0 for the model mounted first). */
  private long modelBorn; // written under the change lock
  private final MapCache mapCache;
  private final ModelFileStore store = new ModelFileStore(this);
  private volatile boolean open = true;

  private ModelFileSystem(ModelFileSystemProvider provider, Path containerPath, Object registryKey,
      MountOptions options, Backing backing, Model model, Generation generation,
      NodeAttributes.ContainerTimes times) {
    this.provider = provider;
    this.containerPath = containerPath;
    this.containerUri = containerPath.toUri();
    this.registryKey = registryKey;
    this.options = options;
    this.model = model;
    this.times = times;
    this.tags = model.tags();
    this.tree = ModelTree.of(tags, Map.of(), container(), options.storedOrder());
    this.mapCache = new MapCache(resources, container());
    this.generation = generation;
    this.backing = backing;
    this.changes = new ModelChanges(this, backing);
    this.writes = new JournalWrites(changes);
    this.edits = new StructureEdits(changes);
    this.renames = new Renames(changes);
  }

  /**
   * Reads the index of the model at {@code container} and mounts it.
   *
   * @param registryKey the provider's registry key, or {@code null} when not registered
   * @param backing where the model is kept ({@code Backings.of(container)})
   */
  static ModelFileSystem mount(ModelFileSystemProvider provider, Path container, MountOptions options,
      Object registryKey, Backing backing) throws IOException {
    if (options.create() && absent(backing)) {
      return create(provider, container, options, registryKey, backing);
    }
    backing.recoverIfIdle();
    Snapshot snapshot = backing.open();
    Model model = snapshot.model();
    try {
      return new ModelFileSystem(provider, container, registryKey, options, backing, model, snapshot.generation(),
          times(backing, container));
    } catch (IOException | RuntimeException e) {
      model.close();
      throw e;
    }
  }

  /**
   * A new, empty model at {@code container} (env {@code create=true}): one tag {@code default}
   * without graph, in the env's format or the one the name says; it is written by the first
   * commit — at the latest when the file system is closed.
   */
  private static ModelFileSystem create(ModelFileSystemProvider provider, Path container, MountOptions options,
      Object registryKey, Backing backing) throws IOException {
    backing.checkNew(container);
    ModelFormat format = options.format() != null ? options.format()
        : Codecs.fromFileName(String.valueOf(container.getFileName()));
    if (format == null) {
      throw new IllegalArgumentException(container + ": say the format of the new model (env format="
          + Codecs.tokens("|") + ") or name it " + Codecs.extensions());
    }
    Tag empty = new Tag(Models.DEFAULT_TAG, null, List.of(), List.of(), null, Map.of());
    Model model = new Model(container.toString(), format, List.of(empty), null);
    FileTime now = FileTime.from(Instant.now());
    ModelFileSystem fs = new ModelFileSystem(provider, container, registryKey, options, backing, model,
        Generation.NONE, new NodeAttributes.ContainerTimes(now, now, now));
    fs.swap(fs.tags, Map.of(Models.DEFAULT_TAG, TagOverlay.NEW_TAG)); // empty until something is written
    try {
      fs.changes.markNew();
    } catch (IOException | RuntimeException e) {
      fs.open = false;
      throw e;
    }
    return fs;
  }

  /** Whether no model is stored where {@code backing} keeps one (its directory may not exist either). */
  private static boolean absent(Backing backing) throws IOException {
    try {
      return backing.current().files().isEmpty();
    } catch (NoSuchFileException e) {
      return true;
    }
  }

  /** The stored model's times: the backing's where it knows them (an object's), else its file's. */
  static NodeAttributes.ContainerTimes times(Backing backing, Path container) throws IOException {
    FileTime m = backing.modified();
    return m != null ? new NodeAttributes.ContainerTimes(m, m, m) : times(container);
  }

  static NodeAttributes.ContainerTimes times(Path container) throws IOException {
    BasicFileAttributes a = Files.readAttributes(existing(container), BasicFileAttributes.class);
    return new NodeAttributes.ContainerTimes(a.lastModifiedTime(), a.lastAccessTime(), a.creationTime());
  }

  /** The container file itself, or for a sharded model opened by base name its first shard. */
  private static Path existing(Path container) throws IOException {
    if (Files.exists(container)) {
      return container;
    }
    List<Path> shards = Models.findShards(container);
    if (shards.isEmpty()) {
      throw new NoSuchFileException(container.toString());
    }
    return shards.get(0);
  }

  /** The container's name for messages: the path it was opened with ({@link Shown}). */
  String container() {
    return Shown.path(containerPath);
  }

  Path containerFile() throws IOException {
    return existing(containerPath);
  }

  /** The container as it was named when mounted. */
  Path containerPath() {
    return containerPath;
  }

  MountOptions options() {
    return options;
  }

  Model model() {
    return model;
  }

  List<Tag> tags() {
    return tags;
  }

  ModelChanges changes() {
    return changes;
  }

  JournalWrites writes() {
    return writes;
  }

  StructureEdits edits() {
    return edits;
  }

  Renames renames() {
    return renames;
  }

  /**
   * A commit of this mount was installed, but its container could not be read back in (an
   * interrupt): the tree keeps showing the committed content from the journal, and the next
   * commit builds on the generation just written.
   */
  void committedAt(Generation g) {
    generation = g;
  }

  /** The stored version the current model was read at. */
  Generation generation() {
    return generation;
  }

  /** What the session shows of each tag beyond its content, by tag name. */
  Map<String, TagOverlay> overlays() {
    return overlays;
  }

  /** The overlay of tag {@code name}. */
  TagOverlay overlay(String name) {
    return overlays.getOrDefault(name, TagOverlay.NONE);
  }

  /** Swaps in a changed set of tags, keeping the overlays (called by {@link ModelChanges} under its lock). */
  void swap(List<Tag> newTags) {
    swap(newTags, overlays);
  }

  /**
   * Swaps in a changed set of tags and overlays (called by {@link ModelChanges} under its lock);
   * overlays of tags that no longer exist, and empty ones, are dropped.
   */
  void swap(List<Tag> newTags, Map<String, TagOverlay> newOverlays) {
    List<Tag> t = List.copyOf(newTags);
    Map<String, TagOverlay> o = new HashMap<>();
    for (Tag tag : t) {
      TagOverlay v = newOverlays.get(tag.name());
      if (v != null && !v.equals(TagOverlay.NONE)) {
        o.put(tag.name(), v);
      }
    }
    ModelTree next = ModelTree.of(t, o, container(), options.storedOrder());
    tags = t;
    overlays = Map.copyOf(o);
    tree = next;
  }

  /**
   * Swaps in the model just committed; the old one stays open only while channels opened on it
   * are, and its {@code map()} copies are dropped (called by {@link ModelChanges} under its lock,
   * which then sweeps the journal files the tree no longer shows).
   */
  void swapModel(Model committed, Generation committedAt) throws IOException {
    Model old = model;
    long oldBorn = modelBorn;
    resources.add(old);
    long born = lifetimes.advance();
    model = committed;
    generation = committedAt;
    times = times(backing, containerPath);
    swap(committed.tags(), Map.of());
    modelBorn = born;
    try {
      lifetimes.retire(Map.of(old, oldBorn), born - 1);
    } finally {
      mapCache.clear();
    }
  }

  Lifetimes lifetimes() {
    return lifetimes;
  }

  JournalSources journalSources() {
    return journalSources;
  }


  Object registryKey() {
    return registryKey;
  }

  OpenResources resources() {
    return resources;
  }

  MapCache mapCache() {
    return mapCache;
  }

  void ensureOpen() {
    if (!open) {
      throw new ClosedFileSystemException();
    }
  }

  @Override
  public ModelFileSystemProvider provider() {
    return provider;
  }

  /**
   * Commits pending changes when {@code commitOnClose} (the default), then closes — always: a
   * refused commit discards the pending changes, and the mount is closed, its lease released and
   * every resource freed before the refusal is thrown (as {@code AutoCloseable} and zipfs do).
   * To fix a refused change and retry, call {@code commit()} before closing.
   */
  @Override
  public void close() throws IOException {
    IOException failure = null;
    synchronized (this) {
      if (!open) {
        return;
      }
      if (options.commitOnClose()) {
        try {
          changes.commit();
        } catch (IOException | RuntimeException e) {
          if (!changes.dirty()) {
            // the commit is installed; only reading it back in failed (an interrupt): say that
            failure = e instanceof IOException io ? io : new IOException(e);
          } else {
            failure = new FileSystemException(container(), null, "closed without committing: " + e.getMessage()
                + " — the pending changes were discarded");
            failure.initCause(e);
          }
          changes.lock();
          try {
            changes.discard();
          } finally {
            changes.unlock();
          }
        }
      }
      open = false;
    }
    provider.unregister(this);
    lifetimes.shutdown();
    List<IOException> more = new ArrayList<>();
    try {
      resources.closeAll();
    } catch (IOException e) {
      more.add(e);
    }
    try {
      model.close();
    } catch (IOException e) {
      more.add(e);
    }
    try {
      changes.close();
    } catch (IOException e) {
      more.add(e);
    }
    if (failure == null && !more.isEmpty()) {
      failure = more.remove(0);
    }
    if (failure != null) {
      more.forEach(failure::addSuppressed);
      throw failure;
    }
  }

  @Override
  public void commit() throws IOException {
    changes.commit();
  }

  @Override
  public void rollback() {
    changes.rollback();
  }

  @Override
  public boolean hasPendingChanges() {
    return changes.dirty();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public boolean isReadOnly() {
    return options.readOnly();
  }

  @Override
  public String getSeparator() {
    return "/";
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    return List.of(new ModelPath(this, "/"));
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    return List.of(store);
  }

  FileStore store() {
    return store;
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return Set.of("basic", SamediffFileAttributeView.NAME);
  }

  @Override
  public ModelPath getPath(String first, String... more) {
    String path = first;
    if (more.length > 0) {
      StringBuilder sb = new StringBuilder(first);
      for (String m : more) {
        if (!m.isEmpty()) {
          if (sb.length() > 0) {
            sb.append('/');
          }
          sb.append(m);
        }
      }
      path = sb.toString();
    }
    return new ModelPath(this, path);
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    return PathMatchers.of(syntaxAndPattern);
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    throw new UnsupportedOperationException("a model file system has no users");
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException("a model file system has no watch service");
  }

  @Override
  public String toString() {
    return ModelUris.SCHEME + ":" + containerUri + (open ? "" : " (closed)");
  }

  // ---- operations behind the provider -------------------------------------------------------

  URI uriOf(String absolutePath) {
    return ModelUris.of(containerUri, absolutePath);
  }

  /** The node at {@code path}, or {@code null}. */
  ModelTree.Found lookup(ModelPath path) {
    ensureOpen();
    return path.lookupIn(tree);
  }

  /**
   * What stands in the way of a new file at {@code path}, or {@code null}: the node there, unless
   * it is a directory only longer names imply ({@link Dir#impliedByNames}), which gives way to the
   * file (docs/FILESYSTEM.md §2). Every route that creates a file asks this: writes, copies,
   * moves, links.
   */
  ModelTree.Found inTheWayOfFile(ModelPath path) {
    ModelTree.Found f = lookup(path);
    return f != null && f.node() instanceof Dir d && d.impliedByNames() ? null : f;
  }

  /** The node at {@code path} with its canonical path. */
  ModelTree.Found find(ModelPath path) throws NoSuchFileException {
    ensureOpen();
    ModelTree.Found f = path.lookupIn(tree);
    if (f == null) {
      throw new NoSuchFileException(path.toString());
    }
    return f;
  }

  /** Whether {@code path} exists; never throws for a missing one. */
  boolean exists(ModelPath path) {
    return lookup(path) != null;
  }

  ModelPath realPath(ModelPath path) throws IOException {
    return new ModelPath(this, "/" + String.join("/", find(path).canonical()));
  }

  NodeAttributes attributes(ModelPath path) throws IOException {
    return new NodeAttributes(find(path).node(), times);
  }

  void checkAccess(ModelPath path, AccessMode... modes) throws IOException {
    find(path);
    for (AccessMode m : modes) {
      if (m == AccessMode.WRITE && isReadOnly()) {
        throw new AccessDeniedException(path.toString(), null, "the model is mounted read-only");
      }
      if (m == AccessMode.EXECUTE) {
        throw new AccessDeniedException(path.toString(), null, "nothing in a model is executable");
      }
    }
  }

  FileChannel newFileChannel(ModelPath path, Set<? extends OpenOption> options, ArrayAttributes attrs)
      throws IOException {
    ensureOpen();
    OpenOptions o = OpenOptions.parse(options, isReadOnly());
    if (o.write()) {
      return writes.openForWrite(path, o, attrs);
    }
    return openForRead(path).channel();
  }

  /** A read channel and the file it reads: both from one lookup of one tree. */
  record OpenRead(FileChannel channel, FileNode file) {}

  /**
   * Opens {@code path} for reading, with the file node the channel reads (its attributes, its
   * byte order) — from the same tree, whatever a commit swaps in meanwhile.
   */
  OpenRead openForRead(ModelPath path) throws IOException {
    ensureOpen();
    // pin first, then look up: the pin then covers every resource the looked-up tree reads, unless
    // something was retired in between (then look again)
    for (;;) {
      long pin = lifetimes.pin();
      ModelFileChannel ch = null;
      try {
        ModelTree.Found f = find(path);
        if (!(f.node() instanceof FileNode file)) {
          throw new FileSystemException(path.toString(), null, "is a directory");
        }
        if (lifetimes.current(pin)) {
          ch = new ModelFileChannel(this, file.content(), path.toString(), pin);
          return new OpenRead(resources.add(ch), file);
        }
      } finally {
        if (ch == null) {
          lifetimes.unpin(pin);
        }
      }
    }
  }

  DirectoryStream<Path> newDirectoryStream(ModelPath dir, DirectoryStream.Filter<? super Path> filter)
      throws IOException {
    ensureOpen();
    ModelTree t = tree;
    ModelTree.Found f = dir.lookupIn(t);
    if (f == null) {
      throw new NoSuchFileException(dir.toString());
    }
    if (!(f.node() instanceof Dir d)) {
      throw new NotDirectoryException(dir.toString());
    }
    return resources.add(new ModelDirectoryStream(dir, new ArrayList<>(d.names()), name -> dir.entry(name, t, f),
        filter, resources));
  }
}
