package org.modelfs.store;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * Makes the {@link Backing} of models kept on one kind of storage that is not a directory with
 * POSIX semantics (an object store). Implementations are found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.modelfs.store.BackingFactory}); {@link Backings} asks each one
 * and falls back to {@link LocalBacking}.
 */
public interface BackingFactory {
  /**
   * The backing of the model at {@code path}, or {@code null} if {@code path} is not on storage
   * this factory serves (it is asked about every path that is not on the default file system).
   *
   * @param shardSet whether a commit writes the model as a shard set (the CLI's
   *     {@code --format sdnb-sharded}); a mount decides from what is stored
   */
  Backing backing(Path path, boolean shardSet) throws IOException;

  /**
   * The storage's name for messages ("HDFS") if {@code path} is on storage this factory serves
   * and that takes models only — no plain file (an exported array, a copied parameter) can be
   * written through its file system provider — else {@code null} (not ours, or the provider
   * writes files: the s3 module's). {@code store.OutputFile} refuses such an output up front,
   * naming it (docs/CLI.md "Object stores").
   */
  default String modelsOnly(Path path) {
    return null;
  }

  /**
   * The path {@code uri} names, if this module makes it itself rather than
   * {@link Path#of(URI)} — when the provider would hand the URI a file system that is not its own
   * (the s3 module: {@code s3x://KEY:SECRET@…}, whose provider keeps one file system per access
   * key, whatever the secret) — else {@code null}. Asked by {@link Backings#path(URI)}.
   */
  default Path path(URI uri) {
    return null;
  }
}
