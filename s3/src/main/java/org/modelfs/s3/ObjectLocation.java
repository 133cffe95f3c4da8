package org.modelfs.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.modelfs.format.sdnb.ShardNames;
import software.amazon.nio.spi.s3.S3FileSystem;

/**
 * Where a model is in an object store, and its identity: the endpoint's store, the bucket and the
 * model object's key. Every spelling of one model is one location: the {@code s3:} and
 * {@code s3x:} paths of the same endpoint, and any shard's name of a shard set (its key is the
 * base object's, {@code <dir>/<base>.sdnb}).
 *
 * @param store the endpoint's client
 * @param endpoint the endpoint (empty for AWS's own), part of the identity
 * @param bucket the bucket
 * @param key the model object's key ({@code dir/m.sdnb})
 * @param path the path the model was named by (for the NIO provider: attributes, the CLI)
 */
record ObjectLocation(ObjectStore store, String endpoint, String bucket, String key, Path path) {
  /** The location of the model at {@code path}, a path of the AWS NIO provider's file system. */
  static ObjectLocation of(Path path) {
    S3FileSystem fs = (S3FileSystem) path.getFileSystem();
    var config = fs.getConfiguration();
    String key = keyOf(path);
    if (key.isEmpty() || key.endsWith("/")) {
      throw new IllegalArgumentException(path.toUri() + " names a bucket or a directory, not a model object");
    }
    int slash = key.lastIndexOf('/');
    String dir = key.substring(0, slash + 1);
    String name = key.substring(slash + 1);
    if (ShardNames.parse(name) != null) {
      key = dir + ShardNames.base(name) + ".sdnb";
    }
    String endpoint = config.endpointUri() == null ? "" : config.endpointUri().toString();
    return new ObjectLocation(ObjectStore.of(config), endpoint, config.getBucketName(), key, path);
  }

  /** The object key of {@code path}: its absolute form without the leading {@code /}. */
  private static String keyOf(Path path) {
    String s;
    try {
      s = path.toAbsolutePath().toRealPath(LinkOption.NOFOLLOW_LINKS).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the provider's toRealPath is purely lexical
    }
    // the provider's path string is the key below the bucket (its file system is the bucket):
    // never strip a first segment that happens to be the bucket's name
    while (s.startsWith("/")) {
      s = s.substring(1);
    }
    return s;
  }

  /** The key's directory part, ending in {@code /} (empty at the bucket's top). */
  String dir() {
    return key.substring(0, key.lastIndexOf('/') + 1);
  }

  /** The model object's name ({@code m.sdnb}). */
  String name() {
    return key.substring(key.lastIndexOf('/') + 1);
  }

  /** The model as the user names it ({@link ObjectStore#name}), for messages. */
  String uri() {
    return store.name(bucket, key);
  }

  /** What makes two locations the same model: endpoint, bucket, key. */
  Identity identity() {
    return new Identity(endpoint, bucket, key);
  }

  /** A model's identity in the store. */
  record Identity(String endpoint, String bucket, String key) {}
}
