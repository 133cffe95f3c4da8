package org.modelfs.store;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Which {@link Backing} keeps the model at a path: a path on the default file system is always a
 * {@link LocalBacking}; any other is offered to each {@link BackingFactory} service first (the
 * object-store module serves {@code s3:} and {@code s3x:} paths), and is a {@link LocalBacking}
 * when none takes it (jimfs, a zip file system, …).
 */
public final class Backings {
  private static final List<BackingFactory> FACTORIES = ServiceLoader.load(BackingFactory.class,
      Backings.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();

  private Backings() {}

  /** The backing of the model at {@code path} (any spelling; it need not exist yet). */
  public static Backing of(Path path) throws IOException {
    return of(path, false);
  }

  /** The backing of the model at {@code path}, written as a shard set by its commits. */
  public static Backing ofShardSet(Path path) throws IOException {
    return of(path, true);
  }

  private static Backing of(Path path, boolean shardSet) throws IOException {
    if (path.getFileSystem() != FileSystems.getDefault()) {
      for (BackingFactory f : FACTORIES) {
        Backing b = f.backing(path, shardSet);
        if (b != null) {
          return b;
        }
      }
    }
    return shardSet ? LocalBacking.ofShardSet(path) : LocalBacking.of(path);
  }

  /**
   * The path a URI a user gave names: the path a {@link BackingFactory} makes of it
   * ({@link BackingFactory#path(URI)}: an {@code s3x://KEY:SECRET@…} URI on a file system of
   * exactly its credentials), else {@link Path#of(URI)}. Every route from a user's URI to a
   * model's path goes here (the CLI's arguments, {@code samediff:} URIs).
   */
  public static Path path(URI uri) {
    for (BackingFactory f : FACTORIES) {
      Path p = f.path(uri);
      if (p != null) {
        return p;
      }
    }
    return Path.of(uri);
  }

  /**
   * The storage's name if {@code path} is on storage that takes models only
   * ({@link BackingFactory#modelsOnly}), else {@code null}.
   */
  public static String modelsOnly(Path path) {
    if (path.getFileSystem() != FileSystems.getDefault()) {
      for (BackingFactory f : FACTORIES) {
        String store = f.modelsOnly(path);
        if (store != null) {
          return store;
        }
      }
    }
    return null;
  }
}
