package org.modelfs.provider;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.modelfs.container.Models;
import org.modelfs.store.ModelId;

/**
 * The {@code samediff:} registry: one file system per model, keyed by the model's identity
 * ({@link ModelId}: every spelling of one model, a shard set's base, single file and shards
 * included, is one entry). No lock is held while a model is opened (recovery, reads, a network
 * round trip): the first caller puts a placeholder for its key with {@code putIfAbsent} (as jimfs
 * registers) and opens outside any lock; a second mount of the same key waits for that placeholder
 * only, then is refused ({@link FileSystemAlreadyExistsException}) or, if the first open failed
 * (whose placeholder is removed before its waiters wake), tries again. A lookup never waits: a
 * mount still opening is not registered yet.
 */
final class MountRegistry {
  /** How a registered mount is opened, given its key. */
  interface Opener {
    ModelFileSystem open(Object key) throws IOException;
  }

  private final ConcurrentHashMap<Object, CompletableFuture<ModelFileSystem>> mounts = new ConcurrentHashMap<>();

  /**
   * The registry key of {@code container}: its {@link ModelId} on the default file system; on
   * another provider (a model inside a zip, an object store) its file system — the very object:
   * the S3 provider's paths are equal by bucket and key alone, whatever their endpoint or
   * credentials, so a URI with a wrong secret never finds the mount of the right one — and its
   * real path, or for a shard set named by its base (no such file), its directory's real path plus
   * the base.
   */
  static Object key(Path container) throws IOException {
    if (container.getFileSystem() == FileSystems.getDefault()) {
      return ModelId.of(container);
    }
    Path real;
    try {
      real = container.toRealPath();
    } catch (NoSuchFileException e) {
      if (Models.findShards(container).isEmpty()) {
        throw e;
      }
      Path abs = container.toAbsolutePath();
      real = abs.getParent().toRealPath().resolve(abs.getFileName().toString());
    }
    return List.of(new SameFileSystem(container.getFileSystem()), real);
  }

  /** A file system compared by identity. */
  private record SameFileSystem(FileSystem fs) {
    @Override
    public boolean equals(Object o) {
      return o instanceof SameFileSystem s && s.fs == fs;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(fs);
    }
  }

  /**
   * Opens and registers the mount of {@code key}.
   *
   * @param name the model as the caller named it (for the refusal's message)
   * @throws FileSystemAlreadyExistsException if a mount of the key is open
   */
  ModelFileSystem mount(Object key, String name, Opener opener) throws IOException {
    while (true) {
      CompletableFuture<ModelFileSystem> mine = new CompletableFuture<>();
      CompletableFuture<ModelFileSystem> there = mounts.putIfAbsent(key, mine);
      if (there == null) {
        return open(key, mine, opener);
      }
      if (await(there, name)) {
        throw new FileSystemAlreadyExistsException(ModelUris.SCHEME + ":" + name);
      }
      // the other open failed and removed its placeholder: this one may try
    }
  }

  private ModelFileSystem open(Object key, CompletableFuture<ModelFileSystem> mine, Opener opener)
      throws IOException {
    ModelFileSystem fs;
    try {
      fs = opener.open(key);
    } catch (IOException | RuntimeException | Error e) {
      mounts.remove(key, mine);
      mine.completeExceptionally(e);
      throw e;
    }
    mine.complete(fs);
    return fs;
  }

  /** Waits for another caller's open of the same key: whether it mounted. */
  private static boolean await(CompletableFuture<ModelFileSystem> there, String name) throws IOException {
    try {
      there.get();
      return true;
    } catch (ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException ie = new InterruptedIOException(
          name + ": interrupted while another thread was mounting the same model");
      ie.initCause(e);
      throw ie;
    }
  }

  /** The open, registered mount of {@code key}, or {@code null} (also while it is being opened). */
  ModelFileSystem find(Object key) {
    CompletableFuture<ModelFileSystem> f = mounts.get(key);
    return f == null || !f.isDone() || f.isCompletedExceptionally() ? null : f.join();
  }

  /** Unregisters {@code fs} (closed) if it is still the mount of {@code key}. */
  void remove(Object key, ModelFileSystem fs) {
    mounts.computeIfPresent(key, (k, f) -> f.isDone() && !f.isCompletedExceptionally() && f.join() == fs ? null : f);
  }
}
