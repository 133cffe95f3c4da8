package org.modelfs.s3;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.modelfs.store.Backing;
import org.modelfs.store.BackingFactory;
import software.amazon.nio.spi.s3.S3FileSystem;
import org.modelfs.store.StoreShardSets;
import org.modelfs.format.sdnb.ShardNames;

/**
 * The {@link BackingFactory} service of this module: paths of the AWS NIO provider for S3
 * ({@code s3:} and {@code s3x:} URIs, any S3-compatible endpoint) are models in an object store
 * ({@link ObjectBacking}).
 */
public final class ObjectBackings implements BackingFactory {
  @Override
  public Backing backing(Path path, boolean shardSet) throws IOException {
    if (!(path.getFileSystem() instanceof S3FileSystem fs)) {
      return null;
    }
    ProviderTempDirs.register(fs);
    ObjectLocation at = ObjectLocation.of(path);
    if (shardSet) {
      StoreShardSets.check(at.uri(), "object stores", ShardNames.setExtension(at.name()));
    }
    return new ObjectBacking(at, shardSet);
  }

  /** An {@code s3x://KEY:SECRET@…} URI's path, on a file system of exactly its credentials ({@link UriCredentials}). */
  @Override
  public Path path(URI uri) {
    return UriCredentials.path(uri);
  }
}
