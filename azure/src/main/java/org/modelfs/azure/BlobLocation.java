package org.modelfs.azure;

import java.io.IOException;
import java.nio.file.Path;
import org.modelfs.format.sdnb.ShardNames;

/**
 * Where a model is in Blob Storage, and its identity: the account's store, the container and the
 * model blob's name. Any shard's name of a shard set is the set's location (its key is the base
 * blob's, {@code <dir>/<base>.sdnb}).
 *
 * @param store the account's client
 * @param container the container
 * @param key the model blob's name ({@code dir/m.sdnb})
 * @param path the path the model was named by
 */
record BlobLocation(BlobStore store, String container, String key, Path path) {
  /** The location of the model at {@code path}, a path of this module's file system. */
  static BlobLocation of(BlobPath path) throws IOException {
    String key = path.key();
    if (key.isEmpty() || key.endsWith("/")) {
      throw new IllegalArgumentException(path.toUri() + " names a container or a directory, not a model blob");
    }
    int slash = key.lastIndexOf('/');
    String dir = key.substring(0, slash + 1);
    String name = key.substring(slash + 1);
    if (ShardNames.parse(name) != null) {
      key = dir + ShardNames.base(name) + ".sdnb";
    }
    return new BlobLocation(path.getFileSystem().store(), path.getFileSystem().container(), key, path);
  }

  /** The key's directory part, ending in {@code /} (empty at the container's top). */
  String dir() {
    return key.substring(0, key.lastIndexOf('/') + 1);
  }

  /** The model blob's name ({@code m.sdnb}). */
  String name() {
    return key.substring(key.lastIndexOf('/') + 1);
  }

  /** The model as the user names it, for messages. */
  String uri() {
    return BlobStore.name(container, key);
  }

  /** What makes two locations the same model: account endpoint, container, key. */
  Identity identity() {
    return new Identity(store.endpoint(), container, key);
  }

  /** A model's identity in the store. */
  record Identity(String endpoint, String container, String key) {}
}
